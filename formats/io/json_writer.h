// The project's one JSON writer: streaming, compact or indented, strings always valid UTF-8
// (bytes that are not are read as Latin-1), numbers in the shortest form that reads back the
// same. marrow-cli's JSON output and the glTF writer's documents (formats/gltf/json.h, a value
// tree written through it) both come out of it. Reading JSON is for simdjson (Debian's
// libsimdjson-dev) when a native glTF reader comes: it is fast and only reads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace marrow::formats {

class JsonWriter {
 public:
  explicit JsonWriter(bool pretty = true) : pretty_(pretty) {}

  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(std::string_view k);

  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b);
  JsonWriter& value(std::int64_t i);
  JsonWriter& value(std::uint64_t i);
  JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
  JsonWriter& value(unsigned i) { return value(static_cast<std::uint64_t>(i)); }
  JsonWriter& value(float f);   // shortest text that reads back as the same float; NaN → null
  JsonWriter& value(double d);
  JsonWriter& null();

  // An array of numbers on one line, even when pretty (vectors, matrices).
  JsonWriter& numbers(const float* v, std::size_t n);

  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

  const std::string& str() const { return out_; }

 private:
  void separate();
  void newline();
  void close(char bracket);
  void quoted(std::string_view s);
  template <class T>
  void number(T v);

  bool pretty_;
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool afterKey_ = false;
};

}  // namespace marrow::formats
