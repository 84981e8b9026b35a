"""One panel's Dear ImGui frame, run on the CPU, and what it drew as plain data.

Dear ImGui builds its draw lists without a GPU; the renderer draws them later from the
panel's ``PanelDrawing``. Each panel has a context of its own (its windows, its widgets'
state, its fonts), fed its pointer as the mouse and the fixed step as its time step, so the
same input gives the same frames on every run. Textures are handled here as a renderer
backend would (``ImGuiBackendFlags_RendererHasTextures``): what Dear ImGui asks to create or
update is copied into the drawing's images, and the renderer uploads them.

This module loads ``imgui_bundle``; the panels plugin imports it only once a panel exists.
Importing it maps glvnd's GL dispatch libraries (``libOpenGL``, ``libGLX``) and GLFW, which
its native module links against, but it loads no GL driver and makes no context or window.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from imgui_bundle import imgui

from playspace.components.panels import (
    VERTEX_BYTES,
    DrawCommand,
    Panel,
    PanelDrawing,
    PanelImage,
)

OFF_PANEL = -3.4028234663852886e38  # -FLT_MAX: Dear ImGui's "no mouse"
WINDOW_FLAGS = (
    imgui.WindowFlags_.no_decoration
    | imgui.WindowFlags_.no_move
    | imgui.WindowFlags_.no_saved_settings
    | imgui.WindowFlags_.no_bring_to_front_on_focus
)


@dataclass(slots=True)
class PanelContext:
    """A panel's Dear ImGui context and the ids of the textures it drew with."""

    context: imgui.internal.Context
    images: dict[int, PanelImage] = field(default_factory=dict)
    next_image: int = 1  # ImTextureID 0 means "none"


def new_context() -> PanelContext:
    """A context for one panel: no ini or log file, a scalable font, textures ours to make."""
    previous = imgui.get_current_context()
    context = imgui.create_context()
    try:
        imgui.set_current_context(context)
        io = imgui.get_io()
        io.set_ini_filename("")
        io.set_log_filename("")
        io.backend_flags |= (
            imgui.BackendFlags_.renderer_has_textures | imgui.BackendFlags_.renderer_has_vtx_offset
        )
        io.fonts.add_font_default_vector()
    finally:
        _restore(previous)
    return PanelContext(context)


def destroy(panel: PanelContext) -> None:
    """Free a panel's context."""
    imgui.destroy_context(panel.context)


def run_frame(
    state: PanelContext,
    panel: Panel,
    draw: Callable[[], None],
    mouse: tuple[float, float] | None,
    down: bool,
    dt: float,
    revisions: Callable[[], int],
) -> PanelDrawing:
    """Run one frame of `panel` with the mouse at `mouse` (panel pixels; None: not on it),
    its button `down`, `dt` seconds after the last; `draw` adds the widgets. `revisions`
    numbers changed images. Returns what the frame drew."""
    previous = imgui.get_current_context()
    imgui.set_current_context(state.context)
    try:
        io = imgui.get_io()
        io.display_size = imgui.ImVec2(*panel.resolution)
        io.delta_time = dt
        io.add_mouse_pos_event(*(mouse or (OFF_PANEL, OFF_PANEL)))
        io.add_mouse_button_event(0, down)
        imgui.new_frame()
        try:
            imgui.push_font(None, panel.font_size)
            imgui.push_style_color(imgui.Col_.window_bg, imgui.ImVec4(*panel.background))
            imgui.set_next_window_pos(imgui.ImVec2(0.0, 0.0))
            imgui.set_next_window_size(imgui.ImVec2(*panel.resolution))
            imgui.begin("panel", flags=WINDOW_FLAGS)
            try:
                draw()
            finally:
                imgui.end()
                imgui.pop_style_color()
                imgui.pop_font()
        finally:
            imgui.render()
        return _drawing(state, imgui.get_draw_data(), revisions)
    finally:
        _restore(previous)


def _restore(previous: imgui.internal.Context | None) -> None:
    """Make `previous` current again, so a game's own Dear ImGui (a desktop overlay) carries
    on with its context after a panel's frame."""
    if previous is not None:
        imgui.set_current_context(previous)


def _drawing(
    state: PanelContext, data: imgui.ImDrawData, revisions: Callable[[], int]
) -> PanelDrawing:
    """Copy the frame's textures and draw lists out of Dear ImGui."""
    for texture in data.textures:
        status = texture.status
        if status in (imgui.ImTextureStatus.want_create, imgui.ImTextureStatus.want_updates):
            if status == imgui.ImTextureStatus.want_create:
                texture.set_tex_id(state.next_image)
                state.next_image += 1
            state.images[texture.get_tex_id()] = _image(texture, revisions())
            texture.set_status(imgui.ImTextureStatus.ok)
        elif status == imgui.ImTextureStatus.want_destroy and texture.unused_frames > 0:
            state.images.pop(texture.get_tex_id(), None)
            texture.set_tex_id(0)
            texture.set_status(imgui.ImTextureStatus.destroyed)
    index_type = np.uint32 if imgui.INDEX_SIZE == 4 else np.uint16
    vertices: list[bytes] = []
    indices: list[np.ndarray] = []
    commands: list[DrawCommand] = []
    base_vertex = base_index = 0
    for draw_list in data.cmd_lists:
        count_v, count_i = draw_list.vtx_buffer.size(), draw_list.idx_buffer.size()
        vertices.append(
            ctypes.string_at(draw_list.vtx_buffer.data_address(), count_v * imgui.VERTEX_SIZE)
        )
        raw = ctypes.string_at(draw_list.idx_buffer.data_address(), count_i * imgui.INDEX_SIZE)
        these = np.frombuffer(raw, dtype=index_type).astype(np.uint32)
        for command in draw_list.cmd_buffer:
            if command.elem_count == 0:
                continue
            first = command.idx_offset
            these[first : first + command.elem_count] += base_vertex + command.vtx_offset
            clip = command.clip_rect
            commands.append(
                DrawCommand(
                    command.get_tex_id(),
                    (clip.x, clip.y, clip.z, clip.w),
                    base_index + first,
                    command.elem_count,
                )
            )
        indices.append(these)
        base_vertex += count_v
        base_index += count_i
    assert imgui.VERTEX_SIZE == VERTEX_BYTES, "Dear ImGui's vertex layout changed"
    return PanelDrawing(
        vertices=b"".join(vertices),
        indices=np.concatenate(indices).tobytes() if indices else b"",
        commands=tuple(commands),
        images=dict(state.images),
    )


def _image(texture: imgui.ImTextureData, revision: int) -> PanelImage:
    """A texture's pixels as RGBA rows (an alpha-only atlas becomes white with that alpha)."""
    pixels = np.asarray(texture.get_pixels_array(), dtype=np.uint8)
    if texture.format == imgui.ImTextureFormat.alpha8:
        rgba = np.full((pixels.size, 4), 255, dtype=np.uint8)
        rgba[:, 3] = pixels.reshape(-1)
        pixels = rgba
    return PanelImage(texture.width, texture.height, pixels.tobytes(), revision)
