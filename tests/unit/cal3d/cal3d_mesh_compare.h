// Shared by the cal3d writer tests: a mesh read back against the one written, field by field.
#pragma once

#include <gtest/gtest.h>

#include "formats/model/scene.h"

namespace marrow::formats::cal3d::testing {

// Vertices, their colours (when the layout holds them), influences, faces, level of detail,
// springs and physical weights are the same.
inline void expectSameMeshData(const Mesh& a, const Mesh& b, bool colours) {
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_EQ(a.normals, b.normals);
  EXPECT_EQ(a.uvSets, b.uvSets);
  if (colours) {
    EXPECT_EQ(a.colors, b.colors);
  }
  EXPECT_EQ(a.influenceStart, b.influenceStart);
  EXPECT_EQ(a.influences, b.influences);
  EXPECT_EQ(a.indices, b.indices);
  EXPECT_EQ(a.lod.collapsible, b.lod.collapsible);
  EXPECT_EQ(a.lod.collapseTo, b.lod.collapseTo);
  EXPECT_EQ(a.lod.faceCollapseCount, b.lod.faceCollapseCount);
  ASSERT_EQ(a.springs.size(), b.springs.size());
  for (std::size_t i = 0; i < a.springs.size(); ++i) {
    EXPECT_EQ(a.springs[i].a, b.springs[i].a);
    EXPECT_EQ(a.springs[i].b, b.springs[i].b);
    EXPECT_EQ(a.springs[i].coefficient, b.springs[i].coefficient);
    EXPECT_EQ(a.springs[i].idleLength, b.springs[i].idleLength);
  }
  EXPECT_EQ(a.physicalWeights, b.physicalWeights);
}

}  // namespace marrow::formats::cal3d::testing
