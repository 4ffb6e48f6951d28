// Dragon Nest SKN v10/v11 ("Eternity Engine Skin File"): the mesh a skin binds and one material
// per submesh, read and written field for field (../shared/specs/dragonnest.md §4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/io/read_context.h"
#include "formats/io/result.h"
#include "formats/model/glm.h"

namespace marrow::formats::dragonnest {

// §4.2: 0 int32, 1 float, 2 float4, 3 texture (a bare DDS name). Other types carry no value.
struct SknParameter {
  enum Type : std::int32_t { Int = 0, Float = 1, Vector = 2, Texture = 3 };
  std::string name;
  std::int32_t type = Vector;
  std::int32_t intValue = 0;
  float floatValue = 0.0f;
  glm::vec4 vector{0.0f};
  std::string texture;
};

struct SknMaterial {
  std::string name;
  std::string effect;  // "Default.fx", "DiffuseAvatar.fx", …
  float alpha = 1.0f;
  std::uint8_t alphaBlend = 0;
  std::vector<SknParameter> parameters;
};

struct Skn {
  std::int32_t version = 10;
  std::string magic;               // as read; empty: "Eternity Engine Skin File 0.1"
  std::string mesh;                // the MSH's bare file name
  std::int32_t fragmentOrder = 0;  // v11: how the body is scrambled (§4.4), 0–4
  std::vector<SknMaterial> materials;
};

inline constexpr const char* kSkinMagic = "Eternity Engine Skin File";

Result<Skn> parseSkn(std::span<const std::byte> data, const ReadContext& ctx);
Result<std::vector<std::byte>> writeSkn(const Skn& skn);

// §4.4: the v11 body's five fragments. `unscramble` joins the stored fragments in logical order;
// `scramble` is its inverse. Both keep the size; an order outside 0–4 gives an empty result.
std::vector<std::byte> unscrambleSknBody(std::span<const std::byte> stored, int order);
std::vector<std::byte> scrambleSknBody(std::span<const std::byte> logical, int order);

}  // namespace marrow::formats::dragonnest
