#include "formats/io/diagnostics.h"

#include <cstdio>

namespace marrow::formats {

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "?";
}

std::string describe(const Diagnostic& d) {
  std::string out = d.file.empty() ? std::string("<input>") : d.file;
  out += ": ";
  if (!d.field.empty()) out += d.field;
  if (d.offset != kNoOffset) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " at offset %llu (0x%llx)",
                  static_cast<unsigned long long>(d.offset),
                  static_cast<unsigned long long>(d.offset));
    out += buf;
  }
  if (!d.field.empty() || d.offset != kNoOffset) out += ": ";
  out += d.message;
  return out;
}

void Diagnostics::add(Severity s, std::string file, std::string field, std::uint64_t offset,
                      std::string message) {
  items.push_back({s, std::move(file), std::move(field), offset, std::move(message)});
}

void Diagnostics::append(const Diagnostics& other) {
  items.insert(items.end(), other.items.begin(), other.items.end());
}

std::size_t Diagnostics::count(Severity s) const {
  std::size_t n = 0;
  for (const auto& d : items) n += d.severity == s;
  return n;
}

}  // namespace marrow::formats
