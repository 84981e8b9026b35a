"""GLSL 330 core sources: the lit surface, the shadow map, the sky, the ghost, the comfort
overlay and the multisample resolve.

Surfaces are instanced: each instance brings its model matrix as a ``mat4`` attribute, so one
draw call covers every instance of a mesh and material. Model matrices carry scale (a unit
box scaled to a crate), so normals go through the inverse transpose of the model's 3x3 part;
for rotation times scale that is ``M * (n / s^2)`` with ``s`` the scale on each axis, the
lengths of the matrix's columns, which is cheaper than inverting a matrix per vertex.

Shading is in linear light; every color pass ends in :data:`ENCODE_SRGB`, so what lands in a
framebuffer is sRGB-encoded, what a display (and a headset's sRGB swapchain image) expects.

A view's uniforms (the eye's view-projection, its position, the vignette's centre) are arrays
of ``EYES`` indexed by ``EYE``: one eye here (:data:`ONE_EYE`), both eyes in the variants
:func:`stereo` makes, which draw each instance twice and send each copy to its eye's layer.
"""

from __future__ import annotations

from dataclasses import dataclass

from playspace.components.visual import MAX_JOINTS

# One eye: arrays of one, index 0, each instance drawn once. `to_eye_layer()` (called last in a
# vertex shader) sends the vertex to its eye's layer in the stereo variants; here it is nothing.
ONE_EYE = """#define EYES 1
#define EYE 0
#define INSTANCE gl_InstanceID
void to_eye_layer() {}
"""

# Both eyes in one draw call, into a layered target (a 2-layer texture array): each instance is
# drawn twice (the instance attributes advance every second instance), the low bit of
# gl_InstanceID picking the eye and the layer, which a vertex shader may write with either
# extension. The fragment shader gets the eye from the vertex shader.
STEREO_VERTEX = """#extension {extension} : require
#define STEREO
#define EYES 2
#define EYE (gl_InstanceID & 1)
#define INSTANCE (gl_InstanceID >> 1)
flat out int v_eye;
void to_eye_layer() {{
    v_eye = EYE;
    gl_Layer = EYE;
}}
"""
STEREO_FRAGMENT = """#define STEREO
#define EYES 2
flat in int v_eye;
#define EYE v_eye
"""
LAYER_EXTENSIONS = ("GL_ARB_shader_viewport_layer_array", "GL_AMD_vertex_shader_layer")


def stereo(source: str, extension: str) -> str:
    """`source` (a shader made with :data:`ONE_EYE`) drawing both eyes in one pass, its vertex
    shader writing ``gl_Layer`` through `extension` (one of :data:`LAYER_EXTENSIONS`)."""
    if ONE_EYE not in source:
        raise ValueError("a stereo shader is made from one with the ONE_EYE header")
    vertex = "gl_Position" in source
    header = STEREO_VERTEX.format(extension=extension) if vertex else STEREO_FRAGMENT
    return source.replace(ONE_EYE, header, 1)


# The exact sRGB transfer function (IEC 61966-2-1), linear [0, 1] in, display values out.
ENCODE_SRGB = """
vec3 encode_srgb(vec3 linear) {
    vec3 c = clamp(linear, 0.0, 1.0);
    vec3 s1 = sqrt(c);
    vec3 s2 = sqrt(s1);
    vec3 s3 = sqrt(s2);
    vec3 curve = 0.662002687 * s1 + 0.684122060 * s2 - 0.323583601 * s3 - 0.0225411470 * c;
    return mix(c * 12.92, curve, step(0.0031308, c));
}
"""

# A skinned vertex is bent first: moved by its (up to four) joints' matrices blended by its
# weights, then placed by its instance's model matrix. The joints come in a uniform block
# (std140: each mat4 four columns of a vec4, 64 bytes): 256 of them fill the 16 KiB every
# GL 3.3 driver must allow a block, and one buffer serves every skinned draw in turn.
SKINNING = f"""
layout(std140) uniform Joints {{
    mat4 u_joints[{MAX_JOINTS}];
}};
in vec4 in_joints;
in vec4 in_weights;
mat4 skin() {{
    ivec4 j = ivec4(in_joints + 0.5);
    return in_weights.x * u_joints[j.x] + in_weights.y * u_joints[j.y]
         + in_weights.z * u_joints[j.z] + in_weights.w * u_joints[j.w];
}}
"""


def skinned(vertex: str) -> str:
    """`vertex` (a surface's or the shadow map's) with each vertex bent by its joints."""
    if "mat4 model = i_model;" not in vertex:
        raise ValueError("a skinned shader is made from one whose model matrix is `model`")
    return vertex.replace("in mat4 i_model;\n", "in mat4 i_model;\n" + SKINNING, 1).replace(
        "mat4 model = i_model;", "mat4 model = i_model * skin();"
    )


SURFACE_VERTEX = (
    """
#version 330 core
"""
    + ONE_EYE
    + """
uniform mat4 u_view_projection[EYES];
uniform mat4 u_light;
uniform float u_normal_offset;
uniform int u_scenery;
in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
in mat4 i_model;
out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
out vec3 v_shadow;
flat out int v_grid;
#ifdef VERTEX_LIGHTING
uniform vec3 u_light_color;
uniform vec3 u_sky;
uniform vec3 u_ground;
uniform vec3 u_camera[EYES];
uniform vec3 u_towards_light;
uniform float u_roughness;
out vec3 v_sun;
out vec3 v_hemisphere;
out vec3 v_mirrored;
#endif
void main() {
    mat4 model = i_model;
    vec4 world = model * vec4(in_position, 1.0);
    mat3 m = mat3(model);
    vec3 s2 = vec3(dot(m[0], m[0]), dot(m[1], m[1]), dot(m[2], m[2]));
    v_world = world.xyz;
    v_normal = m * (in_normal / s2);
    v_uv = in_uv;
    // looked up a little off the surface, along its normal: no self-shadowing (acne)
    v_shadow = (u_light * vec4(world.xyz + normalize(v_normal) * u_normal_offset, 1.0)).xyz;
    // scenery rows come first in an instance buffer: their upward faces get the floor grid
    v_grid = int(INSTANCE < u_scenery);
#ifdef VERTEX_LIGHTING
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_camera[EYE] - world.xyz);
    v_sun = u_light_color * max(dot(n, u_towards_light), 0.0);
    v_hemisphere = mix(u_ground, u_sky, 0.5 + 0.5 * n.y);
    float above = smoothstep(-0.05, 0.05, reflect(-v, n).y);
    v_mirrored = mix(mix(u_ground, u_sky, above), v_hemisphere, max(u_roughness, 0.045));
#endif
    gl_Position = u_view_projection[EYE] * world;
    to_eye_layer();
}
"""
)

# Cook-Torrance with the GGX distribution, the height-correlated Smith visibility in its
# cheap form (Hammon 2017) and Schlick's fresnel, plus Lambert diffuse; the light's `color`
# is what a white Lambert surface square to it reflects, so the BRDF's 1/pi is folded in.
# Ambient: the hemisphere (sky above, ground below) for diffuse; for specular the same two
# colors split sharply at the horizon in the mirror direction, blurred towards the
# hemisphere with roughness, weighted by Karis' analytic fit of the split-sum environment BRDF.
LIT_FRAGMENT = (
    """
#version 330 core
"""
    + ONE_EYE
    + """
uniform vec4 u_color;
uniform float u_roughness;
uniform float u_metallic;
uniform vec3 u_emissive;
uniform sampler2D u_texture;
uniform vec3 u_light_color;
uniform vec3 u_sky;
uniform vec3 u_ground;
uniform vec3 u_camera[EYES];
uniform vec3 u_towards_light;
uniform sampler2DShadow u_shadow_map;
uniform float u_shadow_texel;
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in vec3 v_shadow;
flat in int v_grid;
#ifdef SIMPLE_SHADING
in vec3 v_sun;
in vec3 v_hemisphere;
in vec3 v_mirrored;
#endif
out vec4 f_color;
const float PI = 3.14159265;
"""
    + ENCODE_SRGB
    + """
float lit_fraction() {
#ifndef SHADOW_TAPS
    return 1.0;
#else
    vec3 p = v_shadow;
    if (any(greaterThan(abs(p - 0.5), vec3(0.5)))) {
        return 1.0;  // outside the map: nothing there casts a shadow
    }
#if SHADOW_TAPS == 1
    return texture(u_shadow_map, p);
#else
    float d = u_shadow_texel;
    return 0.25 * (texture(u_shadow_map, p + vec3(-1.5 * d, -0.5 * d, 0.0))
                 + texture(u_shadow_map, p + vec3(0.5 * d, -1.5 * d, 0.0))
                 + texture(u_shadow_map, p + vec3(1.5 * d, 0.5 * d, 0.0))
                 + texture(u_shadow_map, p + vec3(-0.5 * d, 1.5 * d, 0.0)));
#endif
#endif
}

// Lines `width` cells wide on a grid of unit cells, anti-aliased with the screen-space
// derivatives and fading to their average cover where cells shrink below a pixel, so the
// floor never shimmers into moire in the distance (Ben Golus, "The Best Darn Grid Shader").
float grid(vec2 uv, float width) {
    vec2 deriv = fwidth(uv);
    vec2 drawn = clamp(vec2(width), deriv, vec2(0.5));
    vec2 aa = deriv * 1.5;
    vec2 dist = 1.0 - abs(fract(uv) * 2.0 - 1.0);
    vec2 g = smoothstep(drawn + aa, drawn - aa, dist) * clamp(width / drawn, 0.0, 1.0);
    g = mix(g, vec2(width), clamp(deriv * 2.0 - 1.0, 0.0, 1.0));
    return mix(g.x, 1.0, g.y);
}

void main() {
    vec4 base = u_color;
#ifdef TEXTURED
    base *= texture(u_texture, v_uv);
#endif
    vec3 n = normalize(v_normal);
#ifdef GRID
    if (v_grid == 1) {
#ifdef SIMPLE_SHADING
        float lines = grid(v_world.xz, 0.02);  // the metre lines alone
#else
        float lines = max(grid(v_world.xz, 0.02), 0.45 * grid(v_world.xz * 4.0, 0.04));
#endif
        base.rgb *= 1.0 - 0.45 * lines * smoothstep(0.7, 0.9, n.y);
    }
#endif
#ifdef SIMPLE_SHADING
    vec3 f0 = mix(vec3(0.04), base.rgb, u_metallic);
    vec3 diffuse = (1.0 - u_metallic) * base.rgb;
    vec3 color = diffuse * (v_sun * lit_fraction() + v_hemisphere)
        + v_mirrored * f0 * (1.0 - max(u_roughness, 0.045)) + u_emissive;
#else
    vec3 v = normalize(u_camera[EYE] - v_world);
    vec3 l = u_towards_light;
    float nl = max(dot(n, l), 0.0);
    float rough = max(u_roughness, 0.045);
    vec3 f0 = mix(vec3(0.04), base.rgb, u_metallic);
    vec3 hemisphere = mix(u_ground, u_sky, 0.5 + 0.5 * n.y);
    float above = smoothstep(-0.05, 0.05, reflect(-v, n).y);
    vec3 mirrored = mix(mix(u_ground, u_sky, above), hemisphere, rough);
    vec3 h = normalize(l + v);
    float nv = clamp(abs(dot(n, v)), 1e-4, 1.0);
    float nh = max(dot(n, h), 0.0);
    float vh = max(dot(v, h), 0.0);
    float a = rough * rough;
    float a2 = a * a;
    float dd = nh * nh * (a2 - 1.0) + 1.0;
    float distribution = a2 / (PI * dd * dd);
    float visibility = 0.5 / (nl * (nv * (1.0 - a) + a) + nv * (nl * (1.0 - a) + a) + 1e-5);
    float edge = 1.0 - vh;
    float edge2 = edge * edge;
    vec3 fresnel = f0 + (1.0 - f0) * (edge2 * edge2 * edge);
    vec3 diffuse = (1.0 - fresnel) * (1.0 - u_metallic) * base.rgb;
    vec3 direct = (diffuse + PI * distribution * visibility * fresnel) * u_light_color * nl;
    vec4 c0 = vec4(-1.0, -0.0275, -0.572, 0.022);
    vec4 c1 = vec4(1.0, 0.0425, 1.04, -0.04);
    vec4 r = rough * c0 + c1;
    float a004 = min(r.x * r.x, exp2(-9.28 * nv)) * r.x + r.y;
    vec2 ab = vec2(-1.04, 1.04) * a004 + r.zw;
    vec3 ambient = hemisphere * (1.0 - u_metallic) * base.rgb + mirrored * (f0 * ab.x + ab.y);
    vec3 color = direct * lit_fraction() + ambient + u_emissive;
#endif
    f_color = vec4(encode_srgb(color), base.a);
}
"""
)


@dataclass(frozen=True, slots=True)
class Shading:
    """What one lit surface program compiles in: per-pixel `specular` (else the low preset's
    vertex lighting), `shadow_taps` shadow-map lookups a pixel (0: no shadows; 1 or 4), a
    material's `textured` base color, and the scenery's floor `grid`. Each is a program of its
    own rather than a uniform's branch: a software renderer runs both sides of a branch
    (llvmpipe shades 4x4 pixels at once, masked), so a texture an untextured batch never reads
    or a grid a prop never shows would still be paid for at every pixel.

    Without `specular` (the low preset) the light is worked out at each vertex, not each pixel,
    as the "vertex lit" paths of engines do: under one distant light a flat face's light is the
    same at every pixel, so only curved surfaces' shading and the sky's reflection are coarser.
    Such a surface has no specular highlight and no glossy reflection's fitted curve (what costs
    most on a software renderer): diffuse under the sun and the sky plus a rough reflection of
    the sky, and the floor's metre lines without the finer ones. Metals keep their tint;
    nothing shines."""

    specular: bool
    shadow_taps: int
    textured: bool = False
    grid: bool = False

    def defines(self) -> list[str]:
        """The preprocessor lines that select this shading in the surface's sources."""
        lines = [] if self.specular else ["#define VERTEX_LIGHTING", "#define SIMPLE_SHADING"]
        if self.shadow_taps:
            lines.append(f"#define SHADOW_TAPS {self.shadow_taps}")
        if self.textured:
            lines.append("#define TEXTURED")
        if self.grid:
            lines.append("#define GRID")
        return lines


def surface_sources(shading: Shading) -> tuple[str, str]:
    """The lit surface's vertex and fragment shaders compiled for `shading`."""
    header = "#version 330 core\n" + "".join(line + "\n" for line in shading.defines())
    return (
        SURFACE_VERTEX.replace("#version 330 core\n", header, 1),
        LIT_FRAGMENT.replace("#version 330 core\n", header, 1),
    )


# Depth only, from the light: the shadow map.
DEPTH_VERTEX = """
#version 330 core
uniform mat4 u_light;
in vec3 in_position;
in mat4 i_model;
void main() {
    mat4 model = i_model;
    gl_Position = u_light * (model * vec4(in_position, 1.0));
}
"""

DEPTH_FRAGMENT = """
#version 330 core
void main() {
}
"""

# Fresnel: faint where the surface faces the eye, bright at the silhouette, so a ghost reads
# as a shape without hiding what is behind it. `u_strength` scales the whole pass: the pass in
# front of other geometry is stronger than the one behind it.
GHOST_FRAGMENT = (
    """
#version 330 core
"""
    + ONE_EYE
    + """
uniform vec4 u_color;
uniform vec3 u_camera[EYES];
uniform float u_strength;
uniform float u_facing_alpha;
uniform float u_rim_power;
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
out vec4 f_color;
"""
    + ENCODE_SRGB
    + """
void main() {
    vec3 to_eye = normalize(u_camera[EYE] - v_world);
    float rim = pow(1.0 - abs(dot(normalize(v_normal), to_eye)), u_rim_power);
    vec3 color = mix(u_color.rgb, vec3(1.0), 0.5 * rim);
    f_color = vec4(encode_srgb(color), u_strength * mix(u_facing_alpha, 1.0, rim));
}
"""
)

# One triangle that covers the screen, made from the vertex index: no vertex buffer at all.
# It lies on the far plane, so with depth test <= it fills only what nothing else covers.
OVERLAY_VERTEX = (
    """
#version 330 core
"""
    + ONE_EYE
    + """
out vec2 v_ndc;
void main() {
    vec2 corner = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));
    v_ndc = corner;
    gl_Position = vec4(corner, 1.0, 1.0);
    to_eye_layer();
}
"""
)

# The sky's triangle carries, at each corner, the far plane's point there in world space (the
# view-projection inverted on the GPU, three small inverses a view instead of one in Python
# each view). A homogeneous point is linear across the screen and every corner is at w = 1,
# so the interpolated point is exact, divided per pixel.
SKY_VERTEX = (
    """
#version 330 core
"""
    + ONE_EYE
    + """
uniform mat4 u_view_projection[EYES];
out vec4 v_far;
void main() {
    vec2 corner = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));
    v_far = inverse(u_view_projection[EYE]) * vec4(corner, 1.0, 1.0);
    gl_Position = vec4(corner, 1.0, 1.0);
    to_eye_layer();
}
"""
)

# The sky's gradient in the direction through each pixel: the horizon's haze, bluer towards
# the zenith, the ground color below the horizon, and a glow around the sun (the light's
# direction).
SKY_FRAGMENT = (
    """
#version 330 core
"""
    + ONE_EYE
    + """
uniform vec3 u_camera[EYES];
uniform vec3 u_zenith;
uniform vec3 u_horizon;
uniform vec3 u_ground_color;
uniform vec3 u_sun;
uniform vec3 u_towards_light;
in vec4 v_far;
out vec4 f_color;
"""
    + ENCODE_SRGB
    + """
vec3 sky_color(vec3 d) {
    float up = d.y;
    vec3 above = mix(u_horizon, u_zenith, sqrt(max(up, 0.0)));
    vec3 below = mix(u_horizon, u_ground_color, smoothstep(0.0, 0.1, -up));
    return up >= 0.0 ? above : below;
}

void main() {
    vec3 direction = normalize(v_far.xyz / v_far.w - u_camera[EYE]);
    float sun = max(dot(direction, u_towards_light), 0.0);
    float sun2 = sun * sun;
    float glow = sun2 * sun2 * sun2;  // a wide halo, then a small bright disc
    vec3 color = sky_color(direction) + u_sun * (0.25 * glow * glow * glow * glow)
                + u_sun * smoothstep(0.9995, 0.9998, sun);
    f_color = vec4(encode_srgb(color), 1.0);
}
"""
)

# Black with alpha: what the vignette and the fade leave of the picture is (1 - alpha). The
# vignette's radius is measured in half screen heights from the eye's centre, so it is round
# on any aspect ratio.
OVERLAY_FRAGMENT = (
    """
#version 330 core
"""
    + ONE_EYE
    + """
uniform float u_fade;
uniform float u_vignette;
uniform vec2 u_centre[EYES];
uniform float u_aspect[EYES];
uniform float u_inner;
uniform float u_outer;
in vec2 v_ndc;
out vec4 f_color;
void main() {
    vec2 offset = (v_ndc - u_centre[EYE]) * vec2(u_aspect[EYE], 1.0);
    float edge = smoothstep(u_inner, u_outer, length(offset));
    float keep = (1.0 - u_fade) * (1.0 - u_vignette * edge);
    f_color = vec4(0.0, 0.0, 0.0, 1.0 - keep);
}
"""
)

# The multisampled picture, already resolved into textures of the target's size, copied into
# the target: color and depth (so a headset's compositor and anything drawn later see the
# scene's depth), whatever the target's own formats are. COPY_LAYER_FRAGMENT copies one layer
# of a layered stereo target the same way (into an eye's swapchain images).
RESOLVE_FRAGMENT = """
#version 330 core
#ifdef LAYER
uniform sampler2DArray u_picture;
uniform sampler2DArray u_depth;
uniform int u_layer;
#define AT ivec3(ivec2(gl_FragCoord.xy), u_layer)
#else
uniform sampler2D u_picture;
uniform sampler2D u_depth;
#define AT ivec2(gl_FragCoord.xy)
#endif
out vec4 f_color;
void main() {
    f_color = texelFetch(u_picture, AT, 0);
    gl_FragDepth = texelFetch(u_depth, AT, 0).r;
}
"""
COPY_LAYER_FRAGMENT = RESOLVE_FRAGMENT.replace(
    "#version 330 core\n", "#version 330 core\n#define LAYER\n", 1
)
