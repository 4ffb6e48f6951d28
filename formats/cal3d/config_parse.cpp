// .cfg model files (§9): the miniviewer's line format, key=value.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "formats/cal3d/common.h"
#include "formats/cal3d/parts.h"

namespace marrow::formats::cal3d {
namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t';
}

bool isSpace(char c) {
  return isBlank(c) || c == '\r' || c == '\v' || c == '\f';
}

// A file name or path as written, made usable everywhere: cfg files from Windows tools separate
// folders with backslashes.
std::string withSlashes(std::string s) {
  std::replace(s.begin(), s.end(), '\\', '/');
  return s;
}

std::string lowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

class ConfigParser {
 public:
  ConfigParser(std::span<const std::byte> data, const ReadContext& ctx)
      : text_(reinterpret_cast<const char*>(data.data()), data.size()), ctx_(ctx) {}

  Result<ConfigFile> parse() {
    if (text_.find('\0') != std::string_view::npos)
      return FormatError{ctx_.name, "", text_.find('\0'),
                         "contains NUL bytes: not a text .cfg file"};
    std::size_t offset = 0;
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") offset = 3;  // a UTF-8 BOM is not part of line 1
    for (int line = 1; offset < text_.size() || line == 1; ++line) {
      const std::size_t end = std::min(text_.find('\n', offset), text_.size());
      std::string_view s = text_.substr(offset, end - offset);
      if (!s.empty() && s.back() == '\r') s.remove_suffix(1);  // §9: CRLF files
      if (auto error = parseLine(s, line, offset)) return *error;
      if (end == text_.size()) break;
      offset = end + 1;
    }
    return std::move(cfg_);
  }

 private:
  std::optional<FormatError> parseLine(std::string_view s, int line, std::size_t offset) {
    std::size_t i = 0;
    while (i < s.size() && isBlank(s[i])) ++i;
    if (i == s.size() || s[i] == '#') return std::nullopt;  // §9: blank lines and comments
    // §9: the key is the first token, ended by a blank or '='.
    const std::size_t keyStart = i;
    while (i < s.size() && !isBlank(s[i]) && s[i] != '=') ++i;
    const std::string_view rawKey = s.substr(keyStart, i - keyStart);
    while (i < s.size() && isBlank(s[i])) ++i;
    if (i == s.size() || s[i] != '=') {
      // (A literal + std::string temporary trips GCC 12's -Wrestrict false positive.)
      std::string message(1, '\'');
      message += s.substr(keyStart);
      warn(line, offset, message + "' is not a key=value line; ignored");
      return std::nullopt;
    }
    ++i;
    // §9: the value runs from the first non-blank after '=' to the last one, inner spaces kept
    // (file names may contain them; trailing ones are editing leftovers, "mesh=a.cmf   ").
    while (i < s.size() && isBlank(s[i])) ++i;
    std::string_view rest = s.substr(i);
    while (!rest.empty() && isSpace(rest.back())) rest.remove_suffix(1);
    const std::string value(rest);
    const std::string key = lowerAscii(rawKey);

    if (key == "scale") {
      parseScale(value, line, offset);
    } else if (key == "path") {
      // A prefix of the file names after it (cally's demo joins them as they are): a folder.
      path_ = withSlashes(value);
      if (!path_.empty() && path_.back() != '/') path_ += '/';
    } else if (key == "skeleton" || key == "mesh" || key == "material" || key == "animation" ||
               key == "morphanim") {
      if (value.empty()) {
        warn(line, offset, std::string(rawKey) + "= names no file; ignored");
        return std::nullopt;
      }
      if (value.size() > ctx_.limits.maxStringLength)
        return FormatError{ctx_.name, "line " + std::to_string(line), offset,
                           "names a file " + std::to_string(value.size()) +
                               " bytes long, over the limit of " +
                               std::to_string(ctx_.limits.maxStringLength)};
      auto& list = key == "skeleton"   ? cfg_.skeletons
                   : key == "mesh"     ? cfg_.meshes
                   : key == "material" ? cfg_.materials
                   : key == "morphanim" ? cfg_.morphAnimations
                                       : cfg_.animations;
      const std::uint64_t max = key == "animation" || key == "morphanim" ? ctx_.limits.maxClips
                                                                         : ctx_.limits.maxMeshes;
      if (list.size() >= max)
        return FormatError{ctx_.name, "line " + std::to_string(line), offset,
                           "is one " + key + " too many: the limit is " + std::to_string(max)};
      list.push_back(ConfigEntry{withSlashes(value), path_, line});
    } else if (key == "blendmesh") {
      // §9: the fork's morph targets as whole meshes of their own.
      warn(line, offset,
           std::string(rawKey) + "= (morph targets as separate meshes, the cal3d fork) is not "
                                 "supported; ignored");
    } else {
      warn(line, offset, "unknown key '" + std::string(rawKey) + "'; ignored");
    }
    return std::nullopt;
  }

  void parseScale(const std::string& value, int line, std::size_t offset) {
    std::string_view v = value;
    if (!v.empty() && v.front() == '+') v.remove_prefix(1);
    float scale = 0.0f;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), scale);
    if (v.empty() || ec != std::errc() || p != v.data() + v.size() || !std::isfinite(scale) ||
        scale <= 0.0f) {
      warn(line, offset,
           "scale '" + value + "' is not a positive number; " + std::to_string(cfg_.scale) +
               " is kept");
      return;
    }
    cfg_.scale = scale;
  }

  void warn(int line, std::size_t offset, std::string message) {
    cfg_.diagnostics.warn(ctx_.name, "line " + std::to_string(line), offset, std::move(message));
  }

  std::string_view text_;
  const ReadContext& ctx_;
  ConfigFile cfg_;
  std::string path_;
};

}  // namespace

Result<ConfigFile> parseConfig(std::span<const std::byte> data, const ReadContext& ctx) {
  return guarded<ConfigFile>(ctx, [&] { return ConfigParser(data, ctx).parse(); });
}

}  // namespace marrow::formats::cal3d
