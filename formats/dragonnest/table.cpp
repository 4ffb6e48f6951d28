// DNT and EXT tables (../shared/specs/dragonnest.md §7, §8).
#include "formats/dragonnest/table.h"

#include <charconv>

#include "formats/dragonnest/dragonnest_internal.h"

namespace marrow::formats::dragonnest {

using std::to_string;

namespace {

constexpr std::string_view kTrailer = "\x05THEND";
constexpr std::size_t kMaxText = 4096;  // §8: the engine refuses strings of 4096 bytes or more

std::string tableName(const std::string& file) {
  std::string name = detail::baseName(file);
  const auto dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// The bytes a cell of `type` takes at least (text: its length field).
std::uint64_t minCellBytes(std::uint8_t type) {
  return type == kText ? 2 : 4;
}

TableCell readCell(ByteReader& r, std::uint8_t type, bool legacy, const std::string& field) {
  switch (type) {
    case kText: {
      const std::uint64_t at = r.offset();
      const std::uint16_t n = r.u16(field);
      if (!legacy && n >= kMaxText)
        r.failAt(at, field, "is a string of " + to_string(n) + " bytes; the limit is 4095");
      auto b = r.bytes(n, field);
      return std::string(reinterpret_cast<const char*>(b.data()), b.size());
    }
    case kPercent:
    case kFloat: return r.f32(field);  // §8: type 5 is four bytes, not a double
    default: return r.i32(field);      // 0 (NA, as the engine reads it), 2 (bool) and 3
  }
}

void skipTrailer(ByteReader& r) {
  if (r.remaining() == kTrailer.size() &&
      std::memcmp(r.data().data() + r.offset(), kTrailer.data(), kTrailer.size()) == 0)
    r.skip(kTrailer.size(), "trailer");
  if (!r.atEnd())
    r.fail("end of file", to_string(r.remaining()) +
                              " bytes follow the last row that are not "
                              "the 05 THEND trailer");
}

std::uint64_t minRowBytes(const std::vector<TableColumn>& columns) {
  std::uint64_t n = 4;  // the row id
  for (const auto& c : columns) n += minCellBytes(c.type);
  return n;
}

void readRows(ByteReader& r, Table& t, std::uint32_t rows, bool legacy) {
  t.rowIds.reserve(rows);
  t.rows.reserve(rows);
  for (std::uint32_t i = 0; i < rows; ++i) {
    t.rowIds.push_back(r.i32("row " + to_string(i) + " id"));
    std::vector<TableCell> cells;
    cells.reserve(t.columns.size());
    for (const auto& c : t.columns)
      cells.push_back(
          readCell(r, c.type, legacy, "row " + to_string(i) + " column '" + c.name + "'"));
    t.rows.push_back(std::move(cells));
  }
}

void checkType(ByteReader& r, std::uint64_t at, std::uint32_t type, const std::string& field) {
  if (type > kFloat) r.failAt(at, field, "is " + to_string(type) + "; column types are 0 to 5");
}

Table dnt(std::span<const std::byte> data, const ReadContext& ctx) {
  ByteReader r(data, ctx.name);
  Table t;
  t.name = tableName(ctx.name);
  const std::uint64_t vAt = r.offset();
  const std::int16_t version = detail::i16(r, "version");
  if (version != 0) r.failAt(vAt, "version", "is " + to_string(version) + "; DNT version is 0");
  const std::uint64_t rAt = r.offset();
  const std::int16_t reserve = detail::i16(r, "reserve length");
  if (reserve < 0) r.failAt(rAt, "reserve length", "is negative");
  const std::uint64_t cAt = r.offset();
  const std::int16_t columns = detail::i16(r, "column count");
  if (columns < 0) r.failAt(cAt, "column count", "is " + to_string(columns) + ", negative");
  const std::uint64_t nAt = r.offset();
  const std::int32_t rows = r.i32("row count");
  if (rows < 0) r.failAt(nAt, "row count", "is " + to_string(rows) + ", negative");
  r.skip(static_cast<std::uint16_t>(reserve), "reserved bytes");
  r.checkCount(static_cast<std::uint64_t>(columns), "column count", 1u << 15, 3, cAt);
  for (std::int16_t i = 0; i < columns; ++i) {
    const std::string f = "column " + to_string(i);
    const std::uint64_t lAt = r.offset();
    const std::int16_t len = detail::i16(r, f + " name length");
    if (len < 0) r.failAt(lAt, f + " name length", "is negative");
    auto b = r.bytes(static_cast<std::uint16_t>(len), f + " name");
    const std::uint64_t tAt = r.offset();
    const std::uint8_t type = r.u8(f + " type");
    checkType(r, tAt, type, f + " type");
    t.columns.push_back({std::string(reinterpret_cast<const char*>(b.data()), b.size()), type});
  }
  r.checkCount(static_cast<std::uint64_t>(rows), "row count", ctx.limits.maxVertices,
               minRowBytes(t.columns), nAt);
  readRows(r, t, static_cast<std::uint32_t>(rows), false);
  skipTrailer(r);
  return t;
}

Table ext(std::span<const std::byte> data, const ReadContext& ctx) {
  ByteReader r(data, ctx.name);
  Table t;
  t.name = tableName(ctx.name);
  r.u32("header");  // §7: an unexplained number (43, 665, 775); ignored
  const std::uint32_t columns = r.count32("column count", 1u << 15, 68);
  const std::uint64_t nAt = r.offset();
  const std::uint32_t rows = r.u32("row count");
  for (std::uint32_t i = 0; i < columns; ++i) {
    const std::string f = "column " + to_string(i);
    std::string name = r.fixedString(64, f + " name");
    const std::uint64_t tAt = r.offset();
    const std::uint32_t type = r.u32(f + " type");
    checkType(r, tAt, type, f + " type");
    t.columns.push_back({std::move(name), static_cast<std::uint8_t>(type)});
  }
  r.checkCount(rows, "row count", ctx.limits.maxVertices, minRowBytes(t.columns), nAt);
  readRows(r, t, rows, true);
  skipTrailer(r);
  return t;
}

}  // namespace

bool looksLikeExt(std::span<const std::byte> data) {
  return data.size() >= 4 && (data[0] != std::byte{0} || data[1] != std::byte{0} ||
                              data[2] != std::byte{0} || data[3] != std::byte{0});
}

Result<Table> readDnt(std::span<const std::byte> data, const ReadContext& ctx) {
  return detail::guarded<Table>(ctx, [&] { return dnt(data, ctx); });
}

Result<Table> readExt(std::span<const std::byte> data, const ReadContext& ctx) {
  return detail::guarded<Table>(ctx, [&] { return ext(data, ctx); });
}

Result<std::vector<std::byte>> writeDnt(const Table& t) {
  auto fail = [](std::string field, std::string message) {
    return FormatError{"", std::move(field), kNoOffset, std::move(message)};
  };
  if (t.columns.size() > 32767) return fail("columns", "more than 32767");
  if (!t.rowIds.empty() && t.rowIds.size() != t.rows.size())
    return fail("row ids", "need one per row");
  ByteWriter w;
  detail::i16(w, 0);  // version
  detail::i16(w, 0);  // reserve length
  detail::i16(w, static_cast<std::int16_t>(t.columns.size()));
  w.i32(static_cast<std::int32_t>(t.rows.size()));
  for (const auto& c : t.columns) {
    if (c.name.size() > 32767 || c.type > kFloat)
      return fail("column '" + c.name + "'", "cannot be written");
    detail::i16(w, static_cast<std::int16_t>(c.name.size()));
    w.raw(std::as_bytes(std::span(c.name.data(), c.name.size())));
    w.u8(c.type);
  }
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    const std::string where = "row " + to_string(r);
    if (row.size() != t.columns.size()) return fail(where, "has the wrong number of cells");
    w.i32(t.rowIds.empty() ? static_cast<std::int32_t>(r) : t.rowIds[r]);
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::uint8_t type = t.columns[c].type;
      if (type == kText) {
        const auto* s = std::get_if<std::string>(&row[c]);
        if (!s || s->size() >= kMaxText)
          return fail(where, "needs a string under 4096 bytes in column " + to_string(c));
        w.u16(static_cast<std::uint16_t>(s->size()));
        w.raw(std::as_bytes(std::span(s->data(), s->size())));
      } else if (type == kPercent || type == kFloat) {
        const auto* f = std::get_if<float>(&row[c]);
        if (!f) return fail(where, "needs a float in column " + to_string(c));
        w.f32(*f);
      } else {
        const auto* i = std::get_if<std::int32_t>(&row[c]);
        if (!i) return fail(where, "needs an integer in column " + to_string(c));
        w.i32(*i);
      }
    }
  }
  w.raw(std::as_bytes(std::span(kTrailer.data(), kTrailer.size())));
  return w.take();
}

}  // namespace marrow::formats::dragonnest
