#include "formats/gltf/json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace marrow::formats::gltf {
namespace {

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8Length(const std::string& s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  if (i + n > s.size() || b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

// JSON text is UTF-8 (RFC 8259 §8.1). Names from old files are often Latin-1 or a Windows code
// page: a byte that does not start a well-formed UTF-8 sequence is read as Latin-1, so the text
// stays valid and the common Western names come out right.
void writeString(const std::string& s, std::string& out) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u >= 0x80) {
      if (const std::size_t n = utf8Length(s, i)) {
        out.append(s, i, n);
        i += n;
      } else {
        out += static_cast<char>(0xC0 | (u >> 6));
        out += static_cast<char>(0x80 | (u & 0x3F));
        ++i;
      }
      continue;
    }
    switch (s[i]) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", u);
          out += buf;
        } else {
          out += s[i];
        }
    }
    ++i;
  }
  out += '"';
}

}  // namespace

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
  std::string out;
  write(out);
  return out;
}

void Json::write(std::string& out) const {
  switch (kind_) {
    case Kind::Null: out += "null"; break;
    case Kind::Bool: out += bool_ ? "true" : "false"; break;
    case Kind::Number: {
      // JSON has no NaN or infinity; the writer never produces them, this is a last guard.
      const double n = std::isfinite(number_) ? number_ : 0.0;
      char buf[32];
      const auto r = std::to_chars(buf, buf + sizeof buf, n);  // shortest round-trip form
      out.append(buf, r.ptr);
      break;
    }
    case Kind::String: writeString(string_, out); break;
    case Kind::Array:
      out += '[';
      for (std::size_t i = 0; i < items_.size(); ++i) {
        if (i) out += ',';
        items_[i].write(out);
      }
      out += ']';
      break;
    case Kind::Object:
      out += '{';
      for (std::size_t i = 0; i < members_.size(); ++i) {
        if (i) out += ',';
        writeString(members_[i].first, out);
        out += ':';
        members_[i].second.write(out);
      }
      out += '}';
      break;
  }
}

}  // namespace marrow::formats::gltf
