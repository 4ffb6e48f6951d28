#include "formats/io/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace marrow::formats {

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

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one.
std::size_t utf8Length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  // No overlong forms, no surrogates, nothing past U+10FFFF (RFC 3629).
  const auto c1 = n > 1 ? static_cast<unsigned char>(s[i + 1]) : 0;
  if ((n == 2 && c < 0xC2) || (c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) ||
      (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90) || c > 0xF4)
    return 0;
  return n;
}

}  // namespace

void JsonWriter::quoted(std::string_view s) {
  out_ += '"';
  // Names in old files are bytes in any code page: what is not UTF-8 is read as Latin-1, so the
  // output is always valid JSON text.
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8Length(s, i);
    if (n > 1) {
      out_.append(s.substr(i, n));
      i += n;
      continue;
    }
    const auto c = static_cast<unsigned char>(s[i++]);
    if (n == 0) {  // a Latin-1 byte as its two-byte UTF-8 form
      out_ += static_cast<char>(0xC0 | (c >> 6));
      out_ += static_cast<char>(0x80 | (c & 0x3F));
      continue;
    }
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
          out_ += static_cast<char>(c);
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
  // A whole number as one ("500000", not the shorter "5e+05"): glTF's integer members (counts,
  // offsets, lengths) must read as integers in every parser. Up to 1e15 every whole double is
  // exact; -0 keeps its sign.
  if (std::abs(v) < static_cast<T>(1e15) && v == std::trunc(v) && !(v == 0 && std::signbit(v))) {
    const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v));
    out_.append(buf, r.ptr);
    return;
  }
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

}  // namespace marrow::formats
