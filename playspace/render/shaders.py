"""GLSL 330 core sources: the lit surface, the ghost, and the comfort overlay.

Surfaces are instanced: each instance brings its model matrix as a ``mat4`` attribute, so one
draw call covers every instance of a mesh and material. Model matrices carry scale (a unit
box scaled to a crate), so normals go through the inverse transpose of the model's 3x3 part;
for rotation times scale that is ``M * (n / s^2)`` with ``s`` the scale on each axis, the
lengths of the matrix's columns, which is cheaper than inverting a matrix per vertex.
"""

from __future__ import annotations

SURFACE_VERTEX = """
#version 330 core
uniform mat4 u_view_projection;
in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
in mat4 i_model;
out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
void main() {
    vec4 world = i_model * vec4(in_position, 1.0);
    mat3 m = mat3(i_model);
    vec3 s2 = vec3(dot(m[0], m[0]), dot(m[1], m[1]), dot(m[2], m[2]));
    v_world = world.xyz;
    v_normal = m * (in_normal / s2);
    v_uv = in_uv;
    gl_Position = u_view_projection * world;
}
"""

LIT_FRAGMENT = """
#version 330 core
uniform vec4 u_colour;
uniform bool u_textured;
uniform sampler2D u_texture;
uniform vec3 u_towards_light;
uniform vec3 u_light_colour;
uniform vec3 u_ambient;
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
out vec4 f_colour;
void main() {
    vec4 base = u_colour;
    if (u_textured) {
        base *= texture(u_texture, v_uv);
    }
    float diffuse = max(dot(normalize(v_normal), u_towards_light), 0.0);
    f_colour = vec4(base.rgb * (u_ambient + u_light_colour * diffuse), base.a);
}
"""

# Fresnel: faint where the surface faces the eye, bright at the silhouette, so a ghost reads
# as a shape without hiding what is behind it. `u_strength` scales the whole pass: the pass in
# front of other geometry is stronger than the one behind it.
GHOST_FRAGMENT = """
#version 330 core
uniform vec4 u_colour;
uniform vec3 u_camera;
uniform float u_strength;
uniform float u_facing_alpha;
uniform float u_rim_power;
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
out vec4 f_colour;
void main() {
    vec3 to_eye = normalize(u_camera - v_world);
    float rim = pow(1.0 - abs(dot(normalize(v_normal), to_eye)), u_rim_power);
    vec3 colour = mix(u_colour.rgb, vec3(1.0), 0.5 * rim);
    f_colour = vec4(colour, u_strength * mix(u_facing_alpha, 1.0, rim));
}
"""

# One triangle that covers the screen, made from the vertex index: no vertex buffer at all.
OVERLAY_VERTEX = """
#version 330 core
out vec2 v_ndc;
void main() {
    vec2 corner = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));
    v_ndc = corner;
    gl_Position = vec4(corner, 0.0, 1.0);
}
"""

# Black with alpha: what the vignette and the fade leave of the picture is (1 - alpha). The
# vignette's radius is measured in half screen heights from the eye's centre, so it is round
# on any aspect ratio.
OVERLAY_FRAGMENT = """
#version 330 core
uniform float u_fade;
uniform float u_vignette;
uniform vec2 u_centre;
uniform float u_aspect;
uniform float u_inner;
uniform float u_outer;
in vec2 v_ndc;
out vec4 f_colour;
void main() {
    vec2 offset = (v_ndc - u_centre) * vec2(u_aspect, 1.0);
    float edge = smoothstep(u_inner, u_outer, length(offset));
    float keep = (1.0 - u_fade) * (1.0 - u_vignette * edge);
    f_colour = vec4(0.0, 0.0, 0.0, 1.0 - keep);
}
"""
