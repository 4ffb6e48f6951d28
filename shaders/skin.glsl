// The skinning formula of render/anim/skinning.h, on the GPU. Keep the two in step: a GL test
// captures this shader's output with transform feedback and compares it to the CPU path.
//
// The palette lives in a uniform block for up to 256 bones, in a texture buffer beyond
// (MARROW_PALETTE_TBO is defined then): four RGBA32F texels per matrix, one per column.

#ifdef MARROW_PALETTE_TBO
uniform samplerBuffer uPaletteTexture;
mat4 paletteMatrix(uint bone) {
  int base = int(bone) * 4;
  return mat4(texelFetch(uPaletteTexture, base), texelFetch(uPaletteTexture, base + 1),
              texelFetch(uPaletteTexture, base + 2), texelFetch(uPaletteTexture, base + 3));
}
#else
layout(std140) uniform Palette {
  mat4 uPalette[256];
};
mat4 paletteMatrix(uint bone) { return uPalette[bone]; }
#endif

uniform int uInfluenceGroups;  // 0: not skinned, 1: up to 4 influences, 2: up to 8

in uvec4 aBones0;
in vec4 aWeights0;
in uvec4 aBones1;
in vec4 aWeights1;

void accumulateGroup(inout mat4 m, inout float total, uvec4 bones, vec4 weights) {
  for (int k = 0; k < 4; ++k) {
    if (weights[k] != 0.0) {
      m += paletteMatrix(bones[k]) * weights[k];
      total += weights[k];
    }
  }
}

mat4 skinMatrix() {
  mat4 m = mat4(0.0);
  float total = 0.0;
  if (uInfluenceGroups >= 1) accumulateGroup(m, total, aBones0, aWeights0);
  if (uInfluenceGroups == 2) accumulateGroup(m, total, aBones1, aWeights1);
  if (total == 0.0) m = mat4(1.0);
  return m;
}
