#include "formats/gltf/json.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace marrow::formats::gltf {
namespace {

void writeString(const std::string& s, std::string& out) {
  out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
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
          out += c;  // UTF-8 passes through; names are not validated here
        }
    }
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
