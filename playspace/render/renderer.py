"""The renderer: the world's batches drawn into a framebuffer for each view.

A frame is :meth:`Renderer.prepare` once (collect the instances, upload them, work out the
vignette and fade), then :meth:`Renderer.draw` per view: one view in the preview and in
captures, two eyes in a headset, all from the same uploaded instances. A view draws in three
steps:

1. Lit surfaces: one instanced draw call per mesh and material.
2. Ghosts, for held objects flagged ``Grabbable.ghost`` (inside a wall): a fresnel shader
   twice, blended, writing no depth. First with depth test less-or-equal, where nothing is in
   front of the object; then fainter, with depth test greater, where something is: the part
   inside the wall shows through it, dimmer, so the player still sees what they hold.
3. Extra passes (:class:`RenderPass`, added with :meth:`Renderer.add_pass`): what is drawn
   in the world besides the scene's batches, such as panels and debug lines, in the order
   added, with depth testing on and the scene's depth in place.
4. The comfort overlay, a screen-covering triangle: the vignette during smooth movement and
   turning, and the fade (separation policy, teleport blink). Skipped when both are zero.

The renderer reads components and writes nothing into the world. It owns every GPU object it
makes (meshes, instance buffers, textures, programs) and frees them in :meth:`release`; meshes
and batches the world no longer uses are freed when the world's structure changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import moderngl

from playspace.ecs import World
from playspace.render import shaders
from playspace.render.assets import Texture
from playspace.render.comfort import Comfort, VignetteSettings
from playspace.render.gpu import GpuBatch, GpuMesh, Program, prune
from playspace.render.instances import SceneInstances
from playspace.render.materials import RGBA, Lighting, Material, Palette
from playspace.render.matrices import column_major
from playspace.render.meshes import MeshData
from playspace.render.views import View

CLEAR_COLOUR: RGBA = (0.55, 0.68, 0.82, 1.0)  # a pale sky, so black (the fade) stands out


@dataclass(frozen=True, slots=True)
class GhostSettings:
    """How strong the two ghost passes are (opacity at the rim; `facing_alpha` of that where
    the surface faces the eye). The pass behind other geometry is the fainter one."""

    in_front: float = 0.6
    behind: float = 0.3
    facing_alpha: float = 0.5
    rim_power: float = 2.0

    def __post_init__(self) -> None:
        if not 0 <= self.behind <= self.in_front <= 1:
            raise ValueError("ghost strengths need 0 <= behind <= in_front <= 1")


class RenderPass(Protocol):
    """Something drawn in the world after the scene's surfaces and before the comfort overlay.

    `prepare` runs once a frame after the scene's own (read the world, upload); `draw` once a
    view, into the framebuffer the scene was just drawn into, depth test on (``<``);
    `release` frees what the pass made, when the renderer is released."""

    def prepare(self, world: World) -> None: ...

    def draw(self, view: View, framebuffer: moderngl.Framebuffer) -> None: ...

    def release(self) -> None: ...


class Renderer:
    """Draws a world with ModernGL into any framebuffer (offscreen, a window, a swapchain).

    `vignette` settings may be changed at any time (``renderer.comfort.settings``).
    ``vignette`` and ``fade`` hold this frame's overlay amounts after :meth:`prepare`; a caller
    may override them before :meth:`draw`.
    """

    def __init__(
        self,
        ctx: moderngl.Context,
        *,
        lighting: Lighting | None = None,
        palette: Palette | None = None,
        ghost: GhostSettings | None = None,
        vignette: VignetteSettings | None = None,
        clear_colour: RGBA = CLEAR_COLOUR,
    ) -> None:
        self.ctx = ctx
        self.lighting = lighting or Lighting()
        self.ghost_settings = ghost or GhostSettings()
        self.clear_colour = clear_colour
        self.instances = SceneInstances(palette)
        self.comfort = Comfort(vignette)
        self.vignette, self.fade = 0.0, 0.0
        self.lit = Program(ctx, shaders.SURFACE_VERTEX, shaders.LIT_FRAGMENT)
        self.ghost = Program(ctx, shaders.SURFACE_VERTEX, shaders.GHOST_FRAGMENT)
        self.overlay = Program(ctx, shaders.OVERLAY_VERTEX, shaders.OVERLAY_FRAGMENT)
        self._overlay_array = ctx.vertex_array(self.overlay.program, [])
        self._meshes: dict[MeshData, GpuMesh] = {}
        self._batches: dict[tuple[MeshData, Material], GpuBatch] = {}
        self._textures: dict[Texture, moderngl.Texture] = {}
        self._drawn: list[GpuBatch] = []
        self._layout = -1
        self._passes: list[RenderPass] = []

    def add_pass(self, render_pass: RenderPass) -> None:
        """Draw `render_pass` in every view from now on, after those added before it."""
        self._passes.append(render_pass)

    def prepare(self, world: World) -> None:
        """Collect and upload this frame's instances (once a frame, before any view), where
        the world's LATE phase placed them."""
        batches = self.instances.collect(world)
        self.vignette, self.fade = self.comfort.update(world)
        if batches and batches[0].version != self._layout:
            self._layout = batches[0].version
            prune(self._batches, {(b.mesh, b.material) for b in batches})
            prune(self._meshes, {b.mesh for b in batches})
            prune(self._textures, {b.material.texture for b in batches if b.material.texture})
        self._drawn = []
        for batch in batches:
            key = (batch.mesh, batch.material)
            gpu = self._batches.get(key)
            if gpu is None:
                gpu = self._batches[key] = GpuBatch(
                    self.ctx, self.lit, self.ghost, self._gpu_mesh(batch.mesh)
                )
            gpu.upload(batch)
            self._drawn.append(gpu)
        for render_pass in self._passes:
            render_pass.prepare(world)

    def _gpu_mesh(self, mesh: MeshData) -> GpuMesh:
        gpu = self._meshes.get(mesh)
        if gpu is None:
            gpu = self._meshes[mesh] = GpuMesh(self.ctx, mesh)
        return gpu

    def _texture(self, texture: Texture) -> moderngl.Texture:
        gpu = self._textures.get(texture)
        if gpu is None:
            made = self.ctx.texture(texture.size, 4, texture.pixels)
            made.build_mipmaps()
            made.repeat_x = made.repeat_y = True
            gpu = self._textures[texture] = made
        return gpu

    def draw(self, view: View, framebuffer: moderngl.Framebuffer) -> None:
        """Draw the prepared frame as seen from `view` into `framebuffer` (all of it)."""
        ctx = self.ctx
        framebuffer.use()
        framebuffer.clear(*self.clear_colour, depth=1.0)
        matrix = column_major(view.view_projection()[None]).tobytes()
        ctx.enable_only(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.depth_func = "<"
        self._lit_pass(matrix)
        if any(gpu.batch is not None and len(gpu.batch.ghosts) for gpu in self._drawn):
            self._ghost_passes(matrix, view, framebuffer)
        for render_pass in self._passes:
            ctx.enable_only(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
            ctx.depth_func = "<"
            render_pass.draw(view, framebuffer)
        if self.vignette > 0 or self.fade > 0:
            self._overlay_pass(view)
        ctx.enable_only(moderngl.NOTHING)

    def _set_material(self, program: Program, material: Material) -> None:
        program["u_colour"].value = material.colour
        if program is self.lit:
            program["u_textured"].value = material.texture is not None
            if material.texture is not None:
                self._texture(material.texture).use(0)
                program["u_texture"].value = 0

    def _lit_pass(self, matrix: bytes) -> None:
        lit, light = self.lit, self.lighting
        lit["u_view_projection"].write(matrix)
        lit["u_towards_light"].value = light.towards_light()
        lit["u_light_colour"].value = light.colour
        lit["u_ambient"].value = light.ambient
        for gpu in self._drawn:
            batch = gpu.batch
            if batch is not None and batch.opaque_count:
                self._set_material(lit, batch.material)
                gpu.opaque.render(batch.opaque_count)

    def _ghost_passes(self, matrix: bytes, view: View, framebuffer: moderngl.Framebuffer) -> None:
        ctx, ghost, settings = self.ctx, self.ghost, self.ghost_settings
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        framebuffer.depth_mask = False
        ghost["u_view_projection"].write(matrix)
        eye = view.pose.position
        ghost["u_camera"].value = (eye.x, eye.y, eye.z)
        ghost["u_facing_alpha"].value = settings.facing_alpha
        ghost["u_rim_power"].value = settings.rim_power
        for depth_func, strength in (("<=", settings.in_front), (">", settings.behind)):
            ctx.depth_func = depth_func
            ghost["u_strength"].value = strength
            for gpu in self._drawn:
                if gpu.batch is not None and len(gpu.batch.ghosts):
                    self._set_material(ghost, gpu.batch.material)
                    gpu.ghosts.render(len(gpu.batch.ghosts))
        framebuffer.depth_mask = True
        ctx.depth_func = "<"
        ctx.disable(moderngl.BLEND)

    def _overlay_pass(self, view: View) -> None:
        ctx, overlay, settings = self.ctx, self.overlay, self.comfort.settings
        ctx.enable_only(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        overlay["u_fade"].value = self.fade
        overlay["u_vignette"].value = self.vignette
        overlay["u_centre"].value = view.centre()
        projection = view.projection
        overlay["u_aspect"].value = float(projection[1, 1] / projection[0, 0])
        overlay["u_inner"].value = settings.inner
        overlay["u_outer"].value = settings.outer
        self._overlay_array.render(moderngl.TRIANGLES, vertices=3)

    def release(self) -> None:
        """Free every GPU object this renderer made; it cannot draw afterwards."""
        prune(self._batches, set())
        prune(self._meshes, set())
        prune(self._textures, set())
        self._drawn = []
        for render_pass in self._passes:
            render_pass.release()
        self._passes = []
        for item in (self._overlay_array, self.lit, self.ghost, self.overlay):
            item.release()
