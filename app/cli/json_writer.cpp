#include "app/cli/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace marrow::app {

void JsonWriter::newline() {
  if (!pretty_) return;
  out_ += '\n';
  out_.append(first_.size() * 2, ' ');
}

void JsonWriter::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (first_.empty()) return;
  if (!first_.back()) out_ += ',';
  first_.back() = false;
  newline();
}

JsonWriter& JsonWriter::beginObject() {
  separate();
  out_ += '{';
  first_.push_back(true);
  return *this;
}

void JsonWriter::close(char bracket) {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) newline();
  out_ += bracket;
}

JsonWriter& JsonWriter::endObject() {
  close('}');
  return *this;
}

JsonWriter& JsonWriter::beginArray() {
  separate();
  out_ += '[';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::endArray() {
  close(']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  separate();
  quoted(k);
  out_ += pretty_ ? ": " : ":";
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  separate();
  quoted(s);
  return *this;
}

void JsonWriter::quoted(std::string_view s) {
  out_ += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out_ += buf;
        } else {
          out_ += static_cast<char>(c);  // UTF-8 passes through
        }
    }
  }
  out_ += '"';
}

JsonWriter& JsonWriter::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t i) {
  separate();
  out_ += std::to_string(i);
  return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t i) {
  separate();
  out_ += std::to_string(i);
  return *this;
}

template <class T>
void JsonWriter::number(T v) {
  if (!std::isfinite(v)) {
    out_ += "null";  // JSON has no NaN or infinity
    return;
  }
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
  out_.append(buf, r.ptr);
}

JsonWriter& JsonWriter::value(float f) {
  separate();
  number(f);
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  separate();
  number(d);
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::numbers(const float* v, std::size_t n) {
  separate();
  out_ += '[';
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out_ += pretty_ ? ", " : ",";
    number(v[i]);
  }
  out_ += ']';
  return *this;
}

}  // namespace marrow::app
