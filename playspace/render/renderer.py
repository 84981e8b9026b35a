"""The renderer: the world's batches drawn into a framebuffer for each view.

A frame is :meth:`Renderer.prepare` once (collect the instances, upload them, work out the
vignette and fade), then :meth:`Renderer.draw` per view: one view in the preview and in
captures, two eyes in a headset, all from the same uploaded instances; or
:meth:`Renderer.draw_stereo` for both eyes at once, in one pass where the driver allows it
(:mod:`playspace.render.stereo`). The first view of a frame draws the shadow map (the
light's depth, shared by every view of the frame). A view draws in these steps, into a
multisampled buffer of its own when the quality asks for one:

1. Lit surfaces: one instanced draw call per mesh and material (metallic-roughness shading
   under the sun, its shadow and the hemisphere ambient; a grid on the scenery's floors).
2. The sky, a screen-covering triangle on the far plane: it fills only what no surface covers.
3. Ghosts, for what LATE said is seen through walls (``Ghosts``: a held object inside a wall,
   a stopped physics hand's controller) and see-through markers: a fresnel shader
   twice, blended, writing no depth. First with depth test less-or-equal, where nothing is in
   front of the object; then fainter, with depth test greater, where something is: the part
   inside the wall shows through it, dimmer, so the player still sees what they hold.
4. Extra passes (:class:`RenderPass`, added with :meth:`Renderer.add_pass`): what is drawn
   in the world besides the scene's batches, such as panels and debug lines, in the order
   added, with depth testing on and the scene's depth in place.
5. The comfort overlay, a screen-covering triangle: the vignette during smooth movement and
   turning, and the fade (separation policy, teleport blink). Skipped when both are zero.
6. With multisampling, the resolve: the samples averaged, then copied with their depth into
   the caller's framebuffer.

Colors are worked out in linear light and written sRGB-encoded by the shaders themselves,
so every target gets the same bytes: an 8-bit offscreen picture, a window, or a headset's
``GL_SRGB8_ALPHA8`` swapchain image (whose compositor decodes them back to linear light).
GL's own encoding (``GL_FRAMEBUFFER_SRGB``) is switched off while drawing, or it would
encode twice.

The renderer reads components and writes nothing into the world. It owns every GPU object it
makes (meshes, instance buffers, textures, programs, the shadow map, the multisampled
buffers) and frees them in :meth:`release`; meshes and batches the world no longer uses are
freed when the world's structure changes.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import moderngl
import numpy as np

from playspace.components.comfort import VignetteSettings
from playspace.ecs import World
from playspace.render import shaders, shadows
from playspace.render.assets import Texture
from playspace.render.blit import depth_blit
from playspace.render.comfort import Comfort
from playspace.render.gpu import (
    GpuBatch,
    GpuMesh,
    GpuSkins,
    MultisampleTarget,
    Program,
    UniformValue,
    prune,
)
from playspace.render.instances import SceneInstances
from playspace.render.materials import RGB, Lighting, Material, Palette
from playspace.render.matrices import column_major
from playspace.render.meshes import MeshData
from playspace.render.order import nearest_first
from playspace.render.quality import HIGH, Quality
from playspace.render.skinning import SkinnedDraw
from playspace.render.stereo import EYES, LayeredTarget, StereoPath, stereo_path
from playspace.render.surfaces import EyePrograms, SurfacePrograms, shading_key
from playspace.render.views import View
from playspace.spatial import FloatArray

GL_FRAMEBUFFER_SRGB = 0x8DB9
GL_SRGB8_ALPHA8 = 0x8C43  # textures: sRGB texels, decoded to linear when sampled


@dataclass(frozen=True, slots=True)
class Sky:
    """The sky drawn behind everything (linear colors): `horizon` haze turning to `zenith`
    overhead, `ground` below the horizon, and a glow of `sun` around the light's direction.
    (Surfaces are lit by ``Lighting``'s sky and ground.) A plain background is
    ``Sky(c, c, c, sun=(0, 0, 0))``."""

    zenith: RGB = (0.1, 0.262, 0.701)  # the display values 0.35, 0.55, 0.85
    horizon: RGB = (0.571, 0.701, 0.831)  # 0.78, 0.85, 0.92
    ground: RGB = (0.11, 0.095, 0.084)  # 0.36, 0.34, 0.32
    sun: RGB = (1.0, 0.9, 0.7)

    def __post_init__(self) -> None:
        for name in ("zenith", "horizon", "ground", "sun"):
            color = getattr(self, name)
            if len(color) != 3 or not all(0 <= c < float("inf") for c in color):
                raise ValueError(f"sky {name} must be linear (r, g, b), 0 or more: {color!r}")


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

    `quality` (:mod:`playspace.render.quality`), `lighting`, `sky` and the vignette settings
    (``renderer.comfort.settings``) may be changed at any time. ``vignette`` and ``fade``
    hold this frame's overlay amounts after :meth:`prepare`; a caller may override them
    before :meth:`draw`.
    """

    def __init__(
        self,
        ctx: moderngl.Context,
        *,
        quality: Quality = HIGH,
        lighting: Lighting | None = None,
        sky: Sky | None = None,
        palette: Palette | None = None,
        ghost: GhostSettings | None = None,
        vignette: VignetteSettings | None = None,
    ) -> None:
        self.ctx = ctx
        self.quality = quality
        self.lighting = lighting or Lighting()
        self.sky = sky or Sky()
        self.ghost_settings = ghost or GhostSettings()
        self.instances = SceneInstances(palette)
        self.comfort = Comfort(vignette)
        self.vignette, self.fade = 0.0, 0.0
        self.stereo: StereoPath = stereo_path(ctx)
        self.surfaces = SurfacePrograms(ctx, quality)
        self.skins = GpuSkins(ctx)
        self._skinned: list[SkinnedDraw] = []
        self.resolver = Program(ctx, shaders.OVERLAY_VERTEX, shaders.RESOLVE_FRAGMENT)
        self._resolve_array = ctx.vertex_array(self.resolver.program, [])
        self._meshes: dict[MeshData, GpuMesh] = {}
        self._extents: dict[MeshData, shadows.Extent] = {}
        self._batches: dict[tuple[MeshData, Material], GpuBatch] = {}
        self._textures: dict[Texture, moderngl.Texture] = {}
        self._drawn: list[GpuBatch] = []
        self._layout = -1
        # the scenery's light-space boxes, for the layout and light they were worked out for
        self._scenery_bounds: tuple[object, FloatArray, list[shadows.Box]] = (None, np.eye(3), [])
        self._passes: list[RenderPass] = []
        self._shadow: shadows.ShadowMap | None = None
        self._depth_blit = depth_blit(ctx)  # None: the shadow map is drawn whole each frame
        self._shadow_drawn = False  # this frame's shadow map is drawn
        self._opaque: list[GpuBatch] | None = None  # this frame's opaque batches, nearest first
        self._multisample: MultisampleTarget | None = None

    def add_pass(self, render_pass: RenderPass) -> None:
        """Draw `render_pass` in every view from now on, after those added before it."""
        self._passes.append(render_pass)

    def prepare(self, world: World) -> None:
        """Collect and upload this frame's instances (once a frame, before any view), where
        the world's LATE phase placed them."""
        if shading_key(self.quality) != self.surfaces.key:
            self._reshade()
        batches = self.instances.collect(world)
        self.vignette, self.fade = self.comfort.update(world)
        if batches and batches[0].version != self._layout:
            self._layout = batches[0].version
            prune(self._batches, {(b.mesh, b.material) for b in batches})
            prune(self._meshes, {b.mesh for b in batches})
            self._extents = {m: e for m, e in self._extents.items() if m in self._meshes}
            prune(self._textures, {b.material.texture for b in batches if b.material.texture})
        self._drawn = []
        for batch in batches:
            key = (batch.mesh, batch.material)
            gpu = self._batches.get(key)
            if gpu is None:
                gpu = self._batches[key] = GpuBatch(self.ctx, self._gpu_mesh(batch.mesh))
            gpu.upload(batch)
            self._drawn.append(gpu)
        self._skinned = self.instances.skinned(world)
        if batches and batches[0].version == self._layout:
            self.skins.prune({draw.mesh for draw in self._skinned})
        self._shadow_drawn = False
        self._opaque = None
        for render_pass in self._passes:
            render_pass.prepare(world)

    def _reshade(self) -> None:
        """Programs for a quality that compiles in other shading, and the vertex arrays
        (which belong to programs) made again with them as the next frame is prepared."""
        prune(self._batches, set())
        self.skins.release()
        self.surfaces.release()
        self.surfaces = SurfacePrograms(self.ctx, self.quality)
        self.skins = GpuSkins(self.ctx)

    def _gpu_mesh(self, mesh: MeshData) -> GpuMesh:
        gpu = self._meshes.get(mesh)
        if gpu is None:
            gpu = self._meshes[mesh] = GpuMesh(self.ctx, mesh)
            self._extents[mesh] = shadows.Extent.of(mesh.vertices[:, :3])
        return gpu

    def _texture(self, texture: Texture) -> moderngl.Texture:
        gpu = self._textures.get(texture)
        if gpu is None:
            made = self.ctx.texture(
                texture.size, 4, texture.pixels, internal_format=GL_SRGB8_ALPHA8
            )
            made.build_mipmaps()
            made.repeat_x = made.repeat_y = True
            gpu = self._textures[texture] = made
        return gpu

    # Per view ----------------------------------------------------------------------------

    def draw(self, view: View, framebuffer: moderngl.Framebuffer) -> None:
        """Draw the prepared frame as seen from `view` into `framebuffer` (all of it)."""
        multisample = self._multisample_target(framebuffer.size)
        target = framebuffer if multisample is None else multisample.framebuffer
        self._draw(_Eyes.of((view,), self.surfaces.one_eye), target, (target,))
        if multisample is not None:
            self._resolve(multisample, framebuffer)
        self.ctx.enable_only(moderngl.NOTHING)

    def draw_stereo(self, views: Sequence[View], target: LayeredTarget) -> None:
        """Draw the prepared frame as seen from both eyes' `views`, each into its layer of
        `target`: in one pass where :attr:`stereo` allows it (and the quality asks for no
        multisampling), each batch set up and submitted once for both eyes; else each eye as
        :meth:`draw` draws a view. The pixels are the same either way.

        In the one pass the lit surfaces (rigid and skinned), the sky, the ghosts and the
        comfort overlay draw both eyes at once; the extra passes (:class:`RenderPass`) draw each
        eye into its layer in turn, between the ghosts and the overlay."""
        if len(views) != EYES:
            raise ValueError(f"a stereo frame has {EYES} views, got {len(views)}")
        extension = self.stereo.extension
        if extension is None or not self.one_pass_stereo:
            for view, layer in zip(views, target.layers, strict=True):
                self.draw(view, layer)
            return
        eyes = _Eyes.of(tuple(views), self.surfaces.both_eyes(extension))
        self._draw(eyes, target.framebuffer, target.layers)
        self.ctx.enable_only(moderngl.NOTHING)

    @property
    def shadow_map(self) -> shadows.ShadowMap | None:
        """The light's depth as the last frame drew it (None before, or at a quality without
        shadows): for a debug view of it, or a test."""
        return self._shadow

    @property
    def one_pass_stereo(self) -> bool:
        """:meth:`draw_stereo` draws both eyes in one pass: the driver allows it
        (:attr:`stereo`) and the quality asks for no multisampling (a layered multisampled
        target is not made here)."""
        return self.stereo.one_pass and min(self.quality.samples, self.ctx.max_samples) <= 1

    def _draw(
        self,
        eyes: _Eyes,
        target: moderngl.Framebuffer,
        layers: tuple[moderngl.Framebuffer, ...],
    ) -> None:
        """Every pass but the resolve, for `eyes` into `target`; the extra passes draw each
        eye into its framebuffer of `layers` (`target` itself for one eye)."""
        ctx = self.ctx
        ctx.disable_direct(GL_FRAMEBUFFER_SRGB)  # the shaders encode: GL must not again
        self._shadow_pass(eyes.views[0])
        target.use()
        target.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
        ctx.enable_only(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.depth_func = "<"
        self._lit_pass(eyes)
        self._sky_pass(eyes, target)
        if any(draw.ghost for draw in self._skinned) or any(
            gpu.batch is not None and len(gpu.batch.ghosts) for gpu in self._drawn
        ):
            self._ghost_passes(eyes, target)
        for render_pass in self._passes:
            for view, layer in zip(eyes.views, layers, strict=True):
                ctx.enable_only(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
                ctx.depth_func = "<"
                render_pass.draw(view, layer)
        if self.vignette > 0 or self.fade > 0:
            if self._passes and layers[0] is not target:
                target.use()
            self._overlay_pass(eyes)

    def _multisample_target(self, size: tuple[int, int]) -> MultisampleTarget | None:
        samples = min(self.quality.samples, self.ctx.max_samples)
        current = self._multisample
        if samples <= 1:
            if current is not None:
                current.release()
                self._multisample = None
            return None
        if current is None or current.size != size or current.samples != samples:
            if current is not None:
                current.release()
            current = self._multisample = MultisampleTarget(self.ctx, size, samples)
        return current

    def _resolve(self, multisample: MultisampleTarget, framebuffer: moderngl.Framebuffer) -> None:
        ctx = self.ctx
        multisample.resolve(ctx)
        framebuffer.use()
        ctx.enable_only(moderngl.DEPTH_TEST)
        ctx.depth_func = "1"  # always: the resolved depth replaces what was there
        multisample.picture.use(0)
        multisample.depth.use(1)
        self.resolver.set("u_picture", 0)
        self.resolver.set("u_depth", 1)
        self._resolve_array.render(moderngl.TRIANGLES, vertices=3)
        ctx.depth_func = "<"

    def _shadow_map(self) -> shadows.ShadowMap | None:
        size = self.quality.shadow_size
        if self._shadow is not None and self._shadow.size != size:
            self._shadow.release()
            self._shadow = None
        if size and self._shadow is None:
            self._shadow = shadows.ShadowMap(self.ctx, size)
        return self._shadow

    def _scenery_boxes(self, basis: FloatArray) -> list[shadows.Box]:
        """The light-space boxes of the batches' scenery, each instance by its own box."""
        boxes = []
        for gpu in self._drawn:
            batch = gpu.batch
            if batch is not None and len(batch.scenery):
                extent = self._extents[batch.mesh]
                box = shadows.finite_bounds(
                    batch.scenery,
                    functools.partial(shadows.scenery_bounds, extent=extent, basis=basis),
                )
                if box is not None:
                    boxes.append(box)
        return boxes

    def _moving_box(self, basis: FloatArray) -> shadows.Box | None:
        """One light-space box around every moving instance of every batch, each sized as the
        largest mesh and scale among them allows: a looser box than one a batch, at a fraction
        of the cost of boxing batch after batch every frame."""
        batches = [g.batch for g in self._drawn if g.batch is not None and len(g.batch.moving)]
        if not batches:
            return None
        rows = (
            batches[0].moving
            if len(batches) == 1
            else np.concatenate([batch.moving for batch in batches])
        )
        radius = max(self._extents[batch.mesh].radius for batch in batches)
        return shadows.finite_bounds(
            rows, functools.partial(shadows.moving_bounds, radius=radius, basis=basis)
        )

    def _shadow_pass(self, view: View) -> None:
        """The light's depth, once a frame (at its first view), fitted around that eye. Faces
        turned from the light are culled, as the view culls those turned from the eye: a
        closed mesh's nearest surface to the light faces it, so the map is the same, and a
        software renderer sets up half the triangles (the kitchen's pass took 15 ms here with
        both sides, 7 with one)."""
        shadow = self._shadow_map()
        if shadow is None or self._shadow_drawn:
            return
        self._shadow_drawn = True
        towards = self.lighting.towards_light()
        if self._scenery_bounds[0] != (self._layout, towards):  # scenery moves with neither
            basis = shadows.light_basis(towards)
            self._scenery_bounds = (self._layout, towards), basis, self._scenery_boxes(basis)
        _, basis, scenery = self._scenery_bounds
        moving = self._moving_box(basis)
        low, high = shadows.union(scenery if moving is None else [*scenery, moving])
        eye = view.pose.position
        shadow.box = shadows.fit(
            low, high, basis, (eye.x, eye.y, eye.z), self.quality.shadow_distance
        )
        ctx = self.ctx
        ctx.enable_only(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.depth_func = "<"
        ctx.polygon_offset = (2.0, 4.0)  # slope-scaled: steep faces get more (ModernGL
        # enables the offset while either number is non-zero)
        depth, bent = self.surfaces.depth, self.surfaces.skinned_depth
        depth.write("u_light", shadow.box.clip_bytes())
        if self._depth_blit is None:  # no copy: the scenery is drawn every frame
            shadow.framebuffer.use()
            shadow.framebuffer.clear(depth=1.0)
            self._shadow_casters(depth, scenery=True, moving=True)
        else:
            self._scenery_shadow(shadow, depth)
            self._depth_blit(shadow.scenery, shadow.framebuffer)
            self._shadow_casters(depth, scenery=False, moving=True)
        bent.write("u_light", shadow.box.clip_bytes())
        for draw in self._skinned:
            if not draw.ghost:
                self.skins.draw(draw, bent)
        ctx.polygon_offset = (0.0, 0.0)

    def _scenery_shadow(self, shadow: shadows.ShadowMap, depth: Program) -> None:
        """The scenery's own depth, drawn again only for a new layout or light box."""
        key = (self._layout, shadow.box)
        if shadow.scenery_key != key:
            shadow.scenery.use()
            shadow.scenery.clear(depth=1.0)
            self._shadow_casters(depth, scenery=True, moving=False)
            shadow.scenery_key = key

    def _shadow_casters(self, depth: Program, *, scenery: bool, moving: bool) -> None:
        """Each batch's `scenery` instances, its `moving` ones or both into the bound map (in
        each batch's buffer the scenery comes first, then what moves)."""
        for gpu in self._drawn:
            batch = gpu.batch
            if batch is not None:
                first = 0 if scenery else len(batch.scenery)
                end = batch.opaque_count if moving else len(batch.scenery)
                gpu.opaque.render(end - first, depth, first)

    def _set_material(self, program: Program, material: Material) -> None:
        program.set("u_color", material.color)
        if "u_roughness" in program.uniforms:  # not a ghost
            program.set("u_roughness", material.roughness)
            program.set("u_metallic", material.metallic)
            program.set("u_emissive", material.emissive)
            if material.texture is not None:
                self._texture(material.texture).use(0)
                program.set("u_texture", 0)

    def _nearest_first(self, view: View) -> list[GpuBatch]:
        """The frame's opaque batches, nearest first from its first view's eye (so both eyes
        draw in one order, and one pass draws what two do)."""
        if self._opaque is None:
            opaque = [(g, g.batch) for g in self._drawn if g.batch and g.batch.opaque_count]
            eye = view.pose.position
            order = nearest_first([batch for _, batch in opaque], (eye.x, eye.y, eye.z))
            self._opaque = [opaque[i][0] for i in order]
        return self._opaque

    def _lit_pass(self, eyes: _Eyes) -> None:
        """Each batch, nearest first (:mod:`playspace.render.order`), with the lit program for
        what it shows (its texture, the floor grid on its scenery rows), each program's view
        and light set once."""
        lit_now: set[Program] = set()

        def lit(material: Material, grid: bool = False, skinned: bool = False) -> Program:
            program = eyes.programs.lit(
                textured=material.texture is not None, grid=grid, skinned=skinned
            )
            if program not in lit_now:
                self._set_lighting(program, eyes)
                lit_now.add(program)
            self._set_material(program, material)
            return program

        for gpu in self._nearest_first(eyes.views[0]):
            batch = gpu.batch
            if batch is not None:
                scenery = len(batch.scenery)
                program = lit(batch.material, grid=scenery > 0)
                if scenery:
                    program.set("u_scenery", scenery)
                gpu.opaque.render(batch.opaque_count, program)
        for draw in self._skinned:
            if not draw.ghost:
                self.skins.draw(draw, lit(draw.material, skinned=True))

    def _set_lighting(self, lit: Program, eyes: _Eyes) -> None:
        """A lit program's uniforms for these eyes: the eyes, the light, the shadow map."""
        light = self.lighting
        lit.write("u_view_projection", eyes.matrices)
        lit.set("u_towards_light", light.towards_light())
        lit.set("u_light_color", light.color)
        lit.set("u_sky", light.sky)
        lit.set("u_ground", light.ground)
        lit.set("u_camera", eyes.cameras)
        shadow = self._shadow if self.quality.shadows else None
        if shadow is None or "u_shadow_map" not in lit.uniforms:  # compiled without shadows
            return
        lit.set("u_shadow_map", 1)
        shadow.texture.use(1)
        lit.write("u_light", shadow.box.lookup_bytes())
        lit.set("u_normal_offset", shadow.normal_offset())
        if "u_shadow_texel" in lit.uniforms:  # four taps, a texel apart
            lit.set("u_shadow_texel", 1.0 / shadow.size)

    def _sky_pass(self, eyes: _Eyes, framebuffer: moderngl.Framebuffer) -> None:
        ctx, sky = self.ctx, eyes.programs.sky
        ctx.depth_func = "<="
        framebuffer.depth_mask = False
        sky.set("u_zenith", self.sky.zenith)
        sky.set("u_horizon", self.sky.horizon)
        sky.set("u_ground_color", self.sky.ground)
        sky.set("u_sun", self.sky.sun)
        sky.set("u_towards_light", self.lighting.towards_light())
        sky.write("u_view_projection", eyes.matrices)
        sky.set("u_camera", eyes.cameras)
        eyes.programs.screens[sky].render(moderngl.TRIANGLES, vertices=3, instances=sky.repeat)
        framebuffer.depth_mask = True
        ctx.depth_func = "<"

    def _ghost_passes(self, eyes: _Eyes, framebuffer: moderngl.Framebuffer) -> None:
        ctx, settings = self.ctx, self.ghost_settings
        ghost, bent = eyes.programs.ghost, eyes.programs.skinned_ghost
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        framebuffer.depth_mask = False
        for program in (ghost, bent):
            program.write("u_view_projection", eyes.matrices)
            program.set("u_camera", eyes.cameras)
            program.set("u_facing_alpha", settings.facing_alpha)
            program.set("u_rim_power", settings.rim_power)
        for depth_func, strength in (("<=", settings.in_front), (">", settings.behind)):
            ctx.depth_func = depth_func
            ghost.set("u_strength", strength)
            for gpu in self._drawn:
                if gpu.batch is not None and len(gpu.batch.ghosts):
                    self._set_material(ghost, gpu.batch.material)
                    gpu.ghosts.render(len(gpu.batch.ghosts), ghost)
            bent.set("u_strength", strength)
            for draw in self._skinned:
                if draw.ghost:
                    self._set_material(bent, draw.material)
                    self.skins.draw(draw, bent)
        framebuffer.depth_mask = True
        ctx.depth_func = "<"
        ctx.disable(moderngl.BLEND)

    def _overlay_pass(self, eyes: _Eyes) -> None:
        ctx, overlay, settings = self.ctx, eyes.programs.overlay, self.comfort.used
        ctx.enable_only(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        overlay.set("u_fade", self.fade)
        overlay.set("u_vignette", self.vignette)
        overlay.set("u_centre", _per_eye([view.centre() for view in eyes.views]))
        aspects = [float(v.projection[1, 1] / v.projection[0, 0]) for v in eyes.views]
        overlay.set("u_aspect", _per_eye(aspects))
        overlay.set("u_inner", settings.inner)
        overlay.set("u_outer", settings.outer)
        screen = eyes.programs.screens[overlay]
        screen.render(moderngl.TRIANGLES, vertices=3, instances=overlay.repeat)

    def release(self) -> None:
        """Free every GPU object this renderer made; it cannot draw afterwards."""
        prune(self._batches, set())
        prune(self._meshes, set())
        prune(self._textures, set())
        self.skins.release()
        self.surfaces.release()
        self._drawn, self._skinned = [], []
        for render_pass in self._passes:
            render_pass.release()
        self._passes = []
        for owned in (self._shadow, self._multisample):
            if owned is not None:
                owned.release()
        self._shadow, self._multisample = None, None
        self._resolve_array.release()
        self.resolver.release()


def _per_eye(values: Sequence[UniformValue]) -> UniformValue:
    """A uniform's value for each eye, as the shaders' arrays of ``EYES`` take it: the one
    value for one eye, a tuple of them for both."""
    if len(values) == 1:
        return values[0]
    return tuple(values)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class _Eyes:
    """What one submission draws: its `views` (one eye, or both), the programs for that many,
    and the views' uniforms as those programs take them (worked out once a draw)."""

    views: tuple[View, ...]
    programs: EyePrograms
    matrices: bytes
    cameras: UniformValue

    @staticmethod
    def of(views: tuple[View, ...], programs: EyePrograms) -> _Eyes:
        matrices = column_major(np.stack([view.view_projection() for view in views]))
        cameras = [(v.pose.position.x, v.pose.position.y, v.pose.position.z) for v in views]
        return _Eyes(views, programs, matrices.tobytes(), _per_eye(cameras))
