"""Drawing the world with ModernGL: the preview, the headset's eyes and headless captures.

The renderer reads the scene's drawable components (``Transform``, ``Colliders``, the
markers of ``playspace.components.scene``, ``Appearance``) and what LATE wrote for it to draw
(``playspace.components.drawn``: the poses, the view, figures, highlights, ghosts, markers),
never a feature's own state, and writes nothing back. It draws the world as physics sees it,
each entity in its ``Appearance`` (glTF's metallic-roughness material) or its kind's color,
under a sun with shadows and a sky, one instanced draw call per mesh and material::

    from playspace.render import Offscreen, Renderer, create_context, preview_view

    ctx = create_context()                      # EGL: no window, no display needed
    renderer = Renderer(ctx, quality=quality_named("high"))  # or "low", "ultra"
    target = Offscreen(ctx, (1280, 720))
    renderer.prepare(world)                     # once a frame
    renderer.draw(preview_view(head_pose, target.aspect), target.framebuffer)  # per view
    picture = target.read()                     # (720, 1280, 3) RGB, top row first
    target.release(); renderer.release(); ctx.release()

A headset draws each eye with ``View(eye_pose, fov_projection(left, right, up, down))``.
``docs/rendering.md`` says what is drawn, how the ghost and the vignette work, and how
captures are made. Only this package (and the app and command) imports moderngl.
"""

from playspace.components.comfort import VignetteSettings
from playspace.render.assets import AssetError, Texture, load_mesh_file, load_texture
from playspace.render.capture import Capture, Offscreen, eye_view, write_png
from playspace.render.comfort import Comfort
from playspace.render.context import GLUnavailableError, create_context
from playspace.render.instances import Batch, SceneInstances
from playspace.render.materials import Lighting, Material, Palette, srgb
from playspace.render.meshes import MeshData
from playspace.render.passes import add_standard_passes
from playspace.render.projection import fov_projection, perspective, view_matrix
from playspace.render.quality import HIGH, LOW, ULTRA, Quality, quality_named
from playspace.render.renderer import GhostSettings, Renderer, RenderPass, Sky
from playspace.render.views import View, preview_view

__all__ = [
    "HIGH",
    "LOW",
    "ULTRA",
    "AssetError",
    "Batch",
    "Capture",
    "Comfort",
    "GLUnavailableError",
    "GhostSettings",
    "Lighting",
    "Material",
    "MeshData",
    "Offscreen",
    "Palette",
    "Quality",
    "RenderPass",
    "Renderer",
    "SceneInstances",
    "Sky",
    "Texture",
    "View",
    "VignetteSettings",
    "add_standard_passes",
    "create_context",
    "eye_view",
    "fov_projection",
    "load_mesh_file",
    "load_texture",
    "perspective",
    "preview_view",
    "quality_named",
    "srgb",
    "view_matrix",
    "write_png",
]
