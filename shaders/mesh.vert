// Skinned, lit mesh. Prefixed at load time with "#version 330 core", defines and skin.glsl.
in vec3 aPosition;
in vec3 aNormal;
in vec2 aUv;
in vec4 aColor;

uniform mat4 uDisplay;      // native → display (basis conversion)
uniform mat4 uView;
uniform mat4 uProjection;
uniform mat3 uDisplayNormal;  // inverse transpose of uDisplay's 3×3

out vec3 vSkinnedPosition;  // model space, before the basis conversion (captured by tests)
out vec3 vViewPosition;
out vec3 vViewNormal;
out vec2 vUv;
out vec4 vColor;

void main() {
  mat4 skin = skinMatrix();
  vec4 p = skin * vec4(aPosition, 1.0);
  vSkinnedPosition = p.xyz;
  vec3 n = mat3(skin) * aNormal;
  float len = length(n);
  n = len > 0.0 ? n / len : n;
  vec4 viewPos = uView * uDisplay * p;
  vViewPosition = viewPos.xyz;
  vViewNormal = mat3(uView) * (uDisplayNormal * n);
  vUv = aUv;
  vColor = aColor;
  gl_Position = uProjection * viewPos;
}
