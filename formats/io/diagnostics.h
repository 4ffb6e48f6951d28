// Messages a reader leaves about the file: what it repaired, ignored or could not read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace marrow::formats {

enum class Severity { Info, Warning, Error };

inline constexpr std::uint64_t kNoOffset = ~std::uint64_t{0};

struct Diagnostic {
  Severity severity = Severity::Warning;
  std::string file;
  std::string field;
  std::uint64_t offset = kNoOffset;  // byte offset in the file, kNoOffset when not tied to one
  std::string message;
};

// "file: field at offset 0x1c: message", the one format every diagnostic and error prints in.
std::string describe(const Diagnostic& d);
const char* severityName(Severity s);

struct Diagnostics {
  std::vector<Diagnostic> items;

  void add(Severity s, std::string file, std::string field, std::uint64_t offset,
           std::string message);
  void warn(std::string file, std::string field, std::uint64_t offset, std::string message) {
    add(Severity::Warning, std::move(file), std::move(field), offset, std::move(message));
  }
  void info(std::string file, std::string field, std::uint64_t offset, std::string message) {
    add(Severity::Info, std::move(file), std::move(field), offset, std::move(message));
  }
  void append(const Diagnostics& other);
  bool empty() const { return items.empty(); }
  std::size_t count(Severity s) const;
};

}  // namespace marrow::formats
