#include "formats/io/result.h"

namespace marrow::formats {

std::string FormatError::describe() const {
  return marrow::formats::describe(Diagnostic{Severity::Error, file, field, offset, message});
}

}  // namespace marrow::formats
