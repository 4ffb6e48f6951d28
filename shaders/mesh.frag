// Two-sided lit shading: material colour × vertex colour × diffuse texture, a key and a fill
// light fixed to the camera, hemispheric ambient, a little specular.
in vec3 vViewPosition;
in vec3 vViewNormal;
in vec2 vUv;
in vec4 vColor;

uniform vec4 uBaseColor;
uniform bool uHasTexture;
uniform sampler2D uDiffuse;
uniform bool uLit;
uniform float uShininess;
uniform vec3 uSpecular;

out vec4 fragColor;

void main() {
  vec4 base = uBaseColor * vColor;
  if (uHasTexture) base *= texture(uDiffuse, vUv);
  if (!uLit) {
    fragColor = base;
    return;
  }
  vec3 n = normalize(vViewNormal);
  if (!gl_FrontFacing) n = -n;
  if (dot(n, n) < 0.5) n = vec3(0.0, 0.0, 1.0);
  vec3 v = normalize(-vViewPosition);
  vec3 key = normalize(vec3(0.4, 0.7, 0.6));
  vec3 fill = normalize(vec3(-0.6, 0.2, 0.4));
  float hemi = 0.5 + 0.5 * n.y;
  vec3 ambient = mix(vec3(0.20, 0.19, 0.18), vec3(0.32, 0.34, 0.38), hemi);
  float diffuse = max(dot(n, key), 0.0) * 0.75 + max(dot(n, fill), 0.0) * 0.25;
  vec3 h = normalize(key + v);
  float spec = pow(max(dot(n, h), 0.0), max(uShininess, 8.0)) * 0.25;
  vec3 color = base.rgb * (ambient + diffuse) + uSpecular * spec;
  fragColor = vec4(color, base.a);
}
