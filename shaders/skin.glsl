// The skinning formula of render/anim/skinning.h, on the GPU. Keep the two in step: a GL test
// captures this shader's output with transform feedback and compares it to the CPU path.
//
// Two formulas: the linear blend of the palette's matrices, or (uDualQuat) the dual-quaternion
// blend of skinning.h, whose palette entries are then encoded dual quaternions (encodeDualQuat:
// column 0 the rotation, column 1 the dual part, column 2 the uniform scale in x).
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
uniform bool uDualQuat;

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

struct DualQuatSum {
  vec4 real;
  vec4 dual;
  float scale;
  float total;
  vec4 first;  // the first influence's rotation: every other one is taken in its hemisphere
  bool haveFirst;
};

void accumulateDualQuat(inout DualQuatSum s, uvec4 bones, vec4 weights) {
  for (int k = 0; k < 4; ++k) {
    if (weights[k] != 0.0) {
      mat4 q = paletteMatrix(bones[k]);
      if (!s.haveFirst) {
        s.first = q[0];
        s.haveFirst = true;
      }
      float w = dot(s.first, q[0]) < 0.0 ? -weights[k] : weights[k];
      s.real += q[0] * w;
      s.dual += q[1] * w;
      s.scale += q[2].x * weights[k];
      s.total += weights[k];
    }
  }
}

mat3 rotationOf(vec4 q) {
  float x = q.x, y = q.y, z = q.z, w = q.w;
  return mat3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y),
              2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x),
              2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y));
}

mat4 dualQuatSkinMatrix() {
  DualQuatSum s = DualQuatSum(vec4(0.0), vec4(0.0), 0.0, 0.0, vec4(0.0), false);
  if (uInfluenceGroups >= 1) accumulateDualQuat(s, aBones0, aWeights0);
  if (uInfluenceGroups == 2) accumulateDualQuat(s, aBones1, aWeights1);
  float norm = length(s.real);
  if (s.total == 0.0 || !(norm > 0.0)) return mat4(1.0);
  vec4 r = s.real / norm;
  vec4 d = s.dual / norm;
  vec3 t = 2.0 * (r.w * d.xyz - d.w * r.xyz + cross(r.xyz, d.xyz));
  mat4 m = mat4(rotationOf(r) * (s.scale / s.total));
  m[3] = vec4(t, 1.0);
  return m;
}

mat4 skinMatrix() {
  if (uDualQuat) return dualQuatSkinMatrix();
  mat4 m = mat4(0.0);
  float total = 0.0;
  if (uInfluenceGroups >= 1) accumulateGroup(m, total, aBones0, aWeights0);
  if (uInfluenceGroups == 2) accumulateGroup(m, total, aBones1, aWeights1);
  if (total == 0.0) m = mat4(1.0);
  return m;
}

// The (normalised) weight the vertex gives `bone`: what the weight view shows.
float weightOf(int bone) {
  float w = 0.0;
  for (int k = 0; k < 4; ++k) {
    if (uInfluenceGroups >= 1 && int(aBones0[k]) == bone) w += aWeights0[k];
    if (uInfluenceGroups == 2 && int(aBones1[k]) == bone) w += aWeights1[k];
  }
  return w;
}
