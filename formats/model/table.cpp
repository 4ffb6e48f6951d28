#include "formats/model/table.h"

#include <charconv>
#include <variant>

namespace marrow::formats {

using std::to_string;

std::string tableTypeName(std::uint8_t type) {
  switch (type) {
    case kText: return "text";
    case kBool: return "bool";
    case kInt: return "int";
    case kPercent: return "percent (float)";
    case kFloat: return "float";
    default: return "type " + std::to_string(type);
  }
}

namespace {

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string cellText(const TableCell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return csvField(*s);
  char buf[32];
  const auto res = std::holds_alternative<float>(cell)
                       ? std::to_chars(buf, buf + sizeof buf, std::get<float>(cell))
                       : std::to_chars(buf, buf + sizeof buf, std::get<std::int32_t>(cell));
  return std::string(buf, res.ptr);
}

}  // namespace

std::string tableCsv(const Table& t) {
  std::string out = "_RowID";
  for (const auto& c : t.columns) out += "," + csvField(c.name);
  out += "\r\n";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    out += t.rowIds.empty() ? to_string(r) : to_string(t.rowIds[r]);
    for (const auto& cell : t.rows[r]) out += "," + cellText(cell);
    out += "\r\n";
  }
  return out;
}

}  // namespace marrow::formats
