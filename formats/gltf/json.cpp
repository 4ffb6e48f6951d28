#include "formats/gltf/json.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace marrow::formats::gltf {
Json Json::numbers(std::initializer_list<double> items) {
  Json a = array();
  for (double d : items) a.push(Json(d));
  return a;
}

Json& Json::set(const std::string& key, Json value) {
  for (auto& [k, v] : members_)
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  members_.emplace_back(key, std::move(value));
  return *this;
}

Json* Json::find(const std::string& key) {
  for (auto& [k, v] : members_)
    if (k == key) return &v;
  return nullptr;
}

bool Json::erase(const std::string& key) {
  const auto it = std::find_if(members_.begin(), members_.end(), [&](const auto& m) { return m.first == key; });
  if (it == members_.end()) return false;
  members_.erase(it);
  return true;
}

std::size_t Json::push(Json value) {
  items_.push_back(std::move(value));
  return items_.size() - 1;
}

std::string Json::dump() const {
  JsonWriter out(false);
  write(out);
  return out.str();
}

void Json::write(JsonWriter& out) const {
  switch (kind_) {
    case Kind::Null: out.null(); break;
    case Kind::Bool: out.value(bool_); break;
    // JSON has no NaN or infinity; the glTF writer never makes them, this is a last guard.
    case Kind::Number: out.value(std::isfinite(number_) ? number_ : 0.0); break;
    case Kind::String: out.value(string_); break;
    case Kind::Array:
      out.beginArray();
      for (const Json& item : items_) item.write(out);
      out.endArray();
      break;
    case Kind::Object:
      out.beginObject();
      for (const auto& [key, value] : members_) {
        out.key(key);
        value.write(out);
      }
      out.endObject();
      break;
  }
}

}  // namespace marrow::formats::gltf
