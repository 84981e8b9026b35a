"""The GPU side of a batch (programs, mesh buffers, growing instance buffers), of the skinned
surfaces (their meshes and the joints' block) and the multisampled target a view is drawn
into before it is resolved into the caller's framebuffer.

Each object here owns the ModernGL objects it makes and frees them in ``release``; the
renderer owns these objects in turn and frees them when their mesh or batch goes away.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from numbers import Integral, Real
from typing import Protocol, TypeVar

import moderngl

from playspace.components.visual import MAX_JOINTS
from playspace.render.instances import Batch
from playspace.render.meshes import VERTEX_ATTRIBUTES, F32Array, MeshData
from playspace.render.skinning import SkinnedDraw, SkinnedMesh

INSTANCE_BYTES = 16 * 4  # one column-major float32 mat4
JOINT_BYTES = 16 * 4  # a mat4 in a std140 block: four vec4 columns


class _Releasable(Protocol):
    def release(self) -> None: ...


K = TypeVar("K", bound=Hashable)
R = TypeVar("R", bound=_Releasable)


def prune(cache: dict[K, R], used: set[K]) -> None:
    """Release and forget what is no longer used."""
    for key in [key for key in cache if key not in used]:
        cache.pop(key).release()


UniformValue = float | bool | tuple[float, ...] | Sequence[float]
_KEPT_AS_GIVEN = (int, float, tuple)  # bool is an int


class Program:
    """A program and its uniforms by name (ModernGL's own lookup returns a union of kinds).

    A uniform is the program's own state: it keeps its value between draws and frames. So a
    value is sent only when it differs from the last one sent; most of a view's uniforms
    (the sky, the light, a batch's material) are the same every frame, and each one sent
    costs a packing and a GL call. Every uniform is set through :meth:`set` or :meth:`write`,
    or what was last sent would be wrong.
    """

    def __init__(
        self, ctx: moderngl.Context, vertex: str, fragment: str, *, repeat: int = 1
    ) -> None:
        self.program = ctx.program(vertex_shader=vertex, fragment_shader=fragment)
        self.repeat = repeat  # each instance is drawn this many times: 2 draws both eyes
        members = {name: self.program[name] for name in self.program}
        self.uniforms = {n: m for n, m in members.items() if isinstance(m, moderngl.Uniform)}
        self.attributes = {n for n, m in members.items() if isinstance(m, moderngl.Attribute)}
        self._sent: dict[str, UniformValue | bytes] = {}

    def set(self, name: str, value: UniformValue) -> None:
        """Set the uniform `name` to `value`: a number, or a sequence of them.

        A sequence that is not a tuple (a list, a numpy array: a color a game built) is
        copied into a tuple of floats first, and a number of another kind (numpy's) into an
        int or a float, so the one kept is compared by value and a list changed in place later is
        still seen as changed.
        """
        if not isinstance(value, _KEPT_AS_GIVEN):
            if isinstance(value, Integral):  # an int uniform or sampler takes only an int
                value = int(value)
            elif isinstance(value, Real):
                value = float(value)
            else:
                value = tuple(float(v) for v in value)
        if name not in self._sent or self._sent[name] != value:
            self.uniforms[name].value = value
            self._sent[name] = value

    def write(self, name: str, data: bytes) -> None:
        """Set the uniform `name` from its raw bytes (matrices: column-major float32)."""
        if name not in self._sent or self._sent[name] != data:
            self.uniforms[name].write(data)
            self._sent[name] = data

    def release(self) -> None:
        self.program.release()


def vertex_format(program: Program) -> tuple[str, ...]:
    """How `program` reads a mesh's vertices: the format and the attributes it uses (those it
    does not are optimised out of it and must be skipped by their bytes)."""
    used = [name for name, _ in VERTEX_ATTRIBUTES if name in program.attributes]
    formats = [f"{n}f" if name in used else f"{4 * n}x" for name, n in VERTEX_ATTRIBUTES]
    return (" ".join(formats), *used)


class GpuMesh:
    """A mesh's vertex and index buffers."""

    def __init__(self, ctx: moderngl.Context, mesh: MeshData) -> None:
        self.vertices = ctx.buffer(mesh.vertices.tobytes())
        self.indices = ctx.buffer(mesh.indices.tobytes())

    def release(self) -> None:
        self.vertices.release()
        self.indices.release()


def instanced_array(
    ctx: moderngl.Context,
    program: Program,
    content: list[tuple[moderngl.Buffer | str, ...]],
    instances: moderngl.Buffer,
    indices: moderngl.Buffer,
    first: int = 0,
) -> moderngl.VertexArray:
    """A vertex array drawing `content` (per vertex) once for each model matrix in `instances`
    from the `first` on, or `program.repeat` times: the matrix, four vec4 columns, advances
    every `repeat` instances drawn (a divisor ModernGL's format strings cannot say)."""
    array = ctx.vertex_array(program.program, content, index_buffer=indices, index_element_size=4)
    attribute = program.program["i_model"]
    assert isinstance(attribute, moderngl.Attribute)
    for column in range(4):
        array.bind(
            attribute.location + column,
            "f",
            instances,
            "4f",
            offset=first * INSTANCE_BYTES + 16 * column,
            stride=INSTANCE_BYTES,
            divisor=program.repeat,
        )
    return array


class InstanceBuffer:
    """An instance buffer that grows as needed, and a vertex array drawing a mesh with it for
    each program that draws it (the lit surface, the shadow map's depth, both eyes' lit
    surface: the same instances) and the first instance it draws (GL 3.3 has no base
    instance: a vertex array starts its matrices further in), made at its first draw."""

    def __init__(self, ctx: moderngl.Context, mesh: GpuMesh) -> None:
        self.ctx, self.mesh = ctx, mesh
        self.capacity = 0
        self.buffer: moderngl.Buffer | None = None
        self.arrays: dict[tuple[Program, int], moderngl.VertexArray] = {}

    def reserve(self, count: int) -> bool:
        """Room for `count` instances; True when the buffer was remade (its contents lost)."""
        if count <= self.capacity and self.buffer is not None:
            return False
        self.release()
        self.capacity = max(count, 2 * self.capacity, 16)
        self.buffer = self.ctx.buffer(reserve=self.capacity * INSTANCE_BYTES, dynamic=True)
        return True

    def _array(self, program: Program, first: int) -> moderngl.VertexArray:
        assert self.buffer is not None
        stale = [key for key in self.arrays if key[0] is program and key[1] not in (0, first)]
        for key in stale:  # the layout changed where the moving instances start
            self.arrays.pop(key).release()
        array = self.arrays[program, first] = instanced_array(
            self.ctx,
            program,
            [(self.mesh.vertices, *vertex_format(program))],
            self.buffer,
            self.mesh.indices,
            first,
        )
        return array

    def write(self, rows: F32Array, first: int = 0) -> None:
        """Upload `rows` (C-contiguous float32, as the batches keep them: the buffer takes
        their memory as it is, without a copy) from instance `first` on."""
        if len(rows) and self.buffer is not None:
            self.buffer.write(rows, offset=first * INSTANCE_BYTES)

    def render(self, count: int, program: Program, first: int = 0) -> None:
        """Draw `count` instances from the `first` on with `program` (each `program.repeat`
        times)."""
        if count and self.buffer is not None:
            array = self.arrays.get((program, first)) or self._array(program, first)
            array.render(moderngl.TRIANGLES, instances=count * program.repeat)

    def release(self) -> None:
        for item in (*self.arrays.values(), self.buffer):
            if item is not None:
                item.release()
        self.arrays, self.buffer = {}, None


class GpuBatch:
    """One batch on the GPU: opaque instances (scenery first, then moving: drawn lit and into
    the shadow map) and ghost instances."""

    def __init__(self, ctx: moderngl.Context, mesh: GpuMesh) -> None:
        self.opaque = InstanceBuffer(ctx, mesh)
        self.ghosts = InstanceBuffer(ctx, mesh)
        self.version = -1
        self.batch: Batch | None = None

    def upload(self, batch: Batch) -> None:
        self.batch = batch
        if self.opaque.reserve(batch.opaque_count) or batch.version != self.version:
            self.opaque.write(batch.scenery)
            self.version = batch.version
        self.opaque.write(batch.moving, len(batch.scenery))
        if len(batch.ghosts):
            self.ghosts.reserve(len(batch.ghosts))
            self.ghosts.write(batch.ghosts)

    def release(self) -> None:
        self.opaque.release()
        self.ghosts.release()


class GpuSkins:
    """The skinned meshes on the GPU, a vertex array for each skinned program that draws them
    (made at its first draw), and the buffers every draw shares: its model matrix (one
    instance) and its joints (the block)."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.model = ctx.buffer(reserve=16 * 4, dynamic=True)
        self.joints = ctx.buffer(reserve=MAX_JOINTS * JOINT_BYTES, dynamic=True)
        self._meshes: dict[
            SkinnedMesh, tuple[list[moderngl.Buffer], dict[Program, moderngl.VertexArray]]
        ] = {}

    def _array(self, mesh: SkinnedMesh, program: Program) -> moderngl.VertexArray:
        found = self._meshes.get(mesh)
        if found is None:
            ctx = self.ctx
            buffers = [
                ctx.buffer(mesh.mesh.vertices.tobytes()),
                ctx.buffer(mesh.skin.tobytes()),
                ctx.buffer(mesh.mesh.indices.tobytes()),
            ]
            found = self._meshes[mesh] = (buffers, {})
        (vertices, skin, indices), arrays = found
        array = arrays.get(program)
        if array is None:
            block = program.program["Joints"]
            assert isinstance(block, moderngl.UniformBlock)
            block.binding = 0
            content: list[tuple[moderngl.Buffer | str, ...]] = [
                (vertices, *vertex_format(program)),
                (skin, "4f 4f", "in_joints", "in_weights"),
            ]
            array = arrays[program] = instanced_array(
                self.ctx, program, content, self.model, indices
            )
        return array

    def draw(self, draw: SkinnedDraw, program: Program) -> None:
        """Draw one skinned surface with `program` (a skinned program, set up already)."""
        self.model.write(draw.model)
        self.joints.write(draw.joints)
        self.joints.bind_to_uniform_block(0)
        self._array(draw.mesh, program).render(moderngl.TRIANGLES, instances=program.repeat)

    def prune(self, used: set[SkinnedMesh]) -> None:
        """Free the meshes no longer drawn."""
        for mesh in [mesh for mesh in self._meshes if mesh not in used]:
            buffers, arrays = self._meshes.pop(mesh)
            for array in arrays.values():
                array.release()
            for buffer in buffers:
                buffer.release()

    def release(self) -> None:
        self.prune(set())
        self.model.release()
        self.joints.release()


class MultisampleTarget:
    """A multisampled color and depth buffer of one size, and the single-sample textures it
    resolves into. The textures are then drawn into the caller's framebuffer (color and
    depth) by the resolve program: a blit straight into it would need its depth format to
    match ours exactly, which a window's or a headset's depth buffer need not."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int], samples: int) -> None:
        self.size, self.samples = size, samples
        self._color = ctx.renderbuffer(size, 4, samples=samples)
        self._depth = ctx.depth_renderbuffer(size, samples=samples)
        self.framebuffer = ctx.framebuffer(self._color, self._depth)
        self.picture = ctx.texture(size, 4)
        self.depth = ctx.depth_texture(size)
        for texture in (self.picture, self.depth):
            texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self._resolved = ctx.framebuffer(self.picture, self.depth)

    def resolve(self, ctx: moderngl.Context) -> None:
        """Average the samples into :attr:`picture` and :attr:`depth`."""
        ctx.copy_framebuffer(self._resolved, self.framebuffer)

    def release(self) -> None:
        for item in (
            self.framebuffer,
            self._resolved,
            self._color,
            self._depth,
            self.picture,
            self.depth,
        ):
            item.release()
