// Skinned, lit mesh. Prefixed at load time with "#version 330 core", defines and skin.glsl.
in vec3 aPosition;
in vec3 aNormal;
in vec2 aUv;
in vec4 aColor;
// Morph target offsets, up to four targets at a time (unbound slots read zero).
in vec3 aMorphPosition0, aMorphPosition1, aMorphPosition2, aMorphPosition3;
in vec3 aMorphNormal0, aMorphNormal1, aMorphNormal2, aMorphNormal3;
uniform vec4 uMorphWeights;

uniform mat4 uDisplay;      // native → display (basis conversion)
uniform mat4 uView;
uniform mat4 uProjection;
uniform mat3 uDisplayNormal;  // inverse transpose of uDisplay's 3×3
uniform int uWeightBone;      // the bone whose weights vWeight carries (-1: none)
uniform bool uPlaced;         // positions and normals placed on the CPU (cloth): not skinned

out vec3 vSkinnedPosition;  // model space, before the basis conversion (captured by tests)
out vec3 vViewPosition;
out vec3 vViewNormal;
out vec2 vUv;
out vec4 vColor;
out float vWeight;

void main() {
  // Blend shapes first, then skinning (render/anim/morph.h, skinning.h).
  vec3 position = aPosition + uMorphWeights.x * aMorphPosition0 + uMorphWeights.y * aMorphPosition1 +
                  uMorphWeights.z * aMorphPosition2 + uMorphWeights.w * aMorphPosition3;
  vec3 normal = aNormal + uMorphWeights.x * aMorphNormal0 + uMorphWeights.y * aMorphNormal1 +
                uMorphWeights.z * aMorphNormal2 + uMorphWeights.w * aMorphNormal3;
  mat4 skin = uPlaced ? mat4(1.0) : skinMatrix();
  vec4 p = skin * vec4(position, 1.0);
  vSkinnedPosition = p.xyz;
  vec3 n = mat3(skin) * normal;
  float len = length(n);
  n = len > 0.0 ? n / len : n;
  vec4 viewPos = uView * uDisplay * p;
  vViewPosition = viewPos.xyz;
  vViewNormal = mat3(uView) * (uDisplayNormal * n);
  vUv = aUv;
  vColor = aColor;
  vWeight = uWeightBone >= 0 ? weightOf(uWeightBone) : 0.0;
  gl_Position = uProjection * viewPos;
}
