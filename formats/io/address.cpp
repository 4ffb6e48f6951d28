#include "formats/io/address.h"

namespace marrow::formats {

Address Address::parse(std::string_view text) {
  const auto at = text.find(kAddressSeparator);
  if (at == std::string_view::npos) return {std::string(text), {}};
  return {std::string(text.substr(0, at)), std::string(text.substr(at + kAddressSeparator.size()))};
}

std::string Address::str() const {
  if (inner.empty()) return file;
  return file + std::string(kAddressSeparator) + inner;
}

std::string_view Address::leafName() const {
  std::string_view s = inner.empty() ? std::string_view(file) : std::string_view(inner);
  while (!s.empty() && (s.back() == '/' || s.back() == '\\')) s.remove_suffix(1);
  const auto slash = s.find_last_of("/\\");
  return slash == std::string_view::npos ? s : s.substr(slash + 1);
}

bool hasInnerPart(std::string_view text) { return text.find(kAddressSeparator) != std::string_view::npos; }

}  // namespace marrow::formats
