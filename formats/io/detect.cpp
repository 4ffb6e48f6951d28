#include "formats/io/detect.h"

namespace marrow::formats {

std::string_view extensionOf(std::string_view fileName) {
  const auto slash = fileName.find_last_of("/\\");
  if (slash != std::string_view::npos) fileName.remove_prefix(slash + 1);
  const auto dot = fileName.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == fileName.size()) return {};
  return fileName.substr(dot + 1);
}

}  // namespace marrow::formats
