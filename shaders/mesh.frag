// Surface colour: material colour × vertex colour × diffuse texture, or an inspection colour
// (a bone's weights on a ramp, or the vertex colours the renderer bound for the influence view).
// Looks: two-sided lit (a key and a fill light fixed to the camera, hemispheric ambient, a little
// specular), a procedural clay matcap, or flat (unlit).
in vec3 vViewPosition;
in vec3 vViewNormal;
in vec2 vUv;
in vec4 vColor;
in float vWeight;

uniform vec4 uBaseColor;
uniform bool uHasTexture;
uniform sampler2D uDiffuse;
uniform bool uLit;
uniform bool uMatcap;
uniform int uShading;  // 0: material, 1: weight of one bone (vWeight), 2 and 3: vertex colour only
uniform int uVertexColors;  // in the material view: 0 left out, 1 RGBA, 2 RGB (surface_look.h)
uniform float uShininess;
uniform vec3 uSpecular;

out vec4 fragColor;

// Weight 0 → 1: blue, cyan, green, yellow, red (render/gl/weight_view.h: weightColor).
vec3 weightRamp(float w) {
  const vec3 stops[5] = vec3[5](vec3(0.10, 0.15, 0.55), vec3(0.00, 0.55, 0.95),
                                vec3(0.15, 0.80, 0.25), vec3(1.00, 0.85, 0.10),
                                vec3(0.90, 0.12, 0.08));
  float x = clamp(w, 0.0, 1.0) * 4.0;
  int i = min(int(x), 3);
  return mix(stops[i], stops[i + 1], x - float(i));
}

void main() {
  vec4 base;
  if (uShading == 1) {
    base = vec4(weightRamp(vWeight), 1.0);
  } else if (uShading >= 2) {
    base = vec4(vColor.rgb, 1.0);
  } else {
    vec4 vertex = uVertexColors == 0 ? vec4(1.0)
                  : uVertexColors == 2 ? vec4(vColor.rgb, 1.0) : vColor;
    base = uBaseColor * vertex;
    if (uHasTexture) base *= texture(uDiffuse, vUv);
  }
  if (!uLit && !uMatcap) {
    fragColor = base;
    return;
  }
  vec3 n = normalize(vViewNormal);
  if (!gl_FrontFacing) n = -n;
  if (dot(n, n) < 0.5) n = vec3(0.0, 0.0, 1.0);
  if (uMatcap) {
    // A clay sphere lit from the upper left with a cool rim: the shape, whatever the material.
    vec3 clay = uShading == 0 ? vec3(0.80, 0.76, 0.72) : base.rgb;
    float key = max(dot(n, normalize(vec3(-0.35, 0.55, 0.75))), 0.0);
    float rim = pow(1.0 - clamp(n.z, 0.0, 1.0), 3.0);
    float below = mix(0.65, 1.0, 0.5 + 0.5 * n.y);
    vec3 color = clay * (0.28 + 0.72 * key) * below + rim * vec3(0.22, 0.24, 0.28);
    fragColor = vec4(color, uShading == 0 ? 1.0 : base.a);
    return;
  }
  vec3 v = normalize(-vViewPosition);
  vec3 key = normalize(vec3(0.4, 0.7, 0.6));
  vec3 fill = normalize(vec3(-0.6, 0.2, 0.4));
  float hemi = 0.5 + 0.5 * n.y;
  vec3 ambient = mix(vec3(0.20, 0.19, 0.18), vec3(0.32, 0.34, 0.38), hemi);
  float diffuse = max(dot(n, key), 0.0) * 0.75 + max(dot(n, fill), 0.0) * 0.25;
  vec3 h = normalize(key + v);
  float spec = pow(max(dot(n, h), 0.0), max(uShininess, 8.0)) * 0.25;
  vec3 specular = uShading == 0 ? uSpecular * spec : vec3(0.0);
  fragColor = vec4(base.rgb * (ambient + diffuse) + specular, base.a);
}
