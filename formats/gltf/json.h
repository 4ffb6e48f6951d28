// A JSON value for building glTF documents: objects keep their members in insertion order; it is
// written through the project's one JSON writer (formats/io/json_writer.h), numbers so that
// they read back as the same double (floats therefore exactly).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "formats/io/json_writer.h"

namespace marrow::formats::gltf {

class Json {
 public:
  enum class Kind : std::uint8_t { Null, Bool, Number, String, Array, Object };

  Json() = default;
  Json(bool b) : kind_(Kind::Bool), bool_(b) {}                       // NOLINT: implicit by design
  Json(double n) : kind_(Kind::Number), number_(n) {}                 // NOLINT
  Json(float n) : Json(static_cast<double>(n)) {}                     // NOLINT
  Json(int n) : Json(static_cast<double>(n)) {}                       // NOLINT
  Json(std::size_t n) : Json(static_cast<double>(n)) {}               // NOLINT
  Json(std::string s) : kind_(Kind::String), string_(std::move(s)) {}  // NOLINT
  Json(const char* s) : Json(std::string(s)) {}                       // NOLINT

  static Json object() { return Json(Kind::Object); }
  static Json array() { return Json(Kind::Array); }
  template <class T>
  static Json arrayOf(const std::vector<T>& items) {
    Json a = array();
    for (const auto& i : items) a.push(Json(i));
    return a;
  }
  static Json numbers(std::initializer_list<double> items);

  Kind kind() const { return kind_; }
  // Objects: sets `key` (replacing a member of that name); returns *this for chaining.
  Json& set(const std::string& key, Json value);
  // Arrays: appends, and returns the index the item got.
  std::size_t push(Json value);
  std::size_t size() const { return kind_ == Kind::Object ? members_.size() : items_.size(); }
  bool empty() const { return size() == 0; }
  Json& operator[](std::size_t i) { return items_[i]; }
  Json* find(const std::string& key);  // an object's member, or nullptr
  bool erase(const std::string& key);  // removes an object's member; false when there was none

  std::string dump() const;

 private:
  explicit Json(Kind k) : kind_(k) {}
  void write(JsonWriter& out) const;

  Kind kind_ = Kind::Null;
  bool bool_ = false;
  double number_ = 0.0;
  std::string string_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

}  // namespace marrow::formats::gltf
