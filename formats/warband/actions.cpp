#include "formats/warband/actions.h"

#include "formats/model/actions.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

namespace marrow::formats::warband {

namespace {

// The text as lines of tokens, with where each line starts.
struct Line {
  std::size_t offset = 0;
  std::size_t number = 0;  // 1-based
  std::vector<std::string_view> tokens;
};

std::vector<Line> tokenize(std::string_view text, std::size_t maxLines) {
  std::vector<Line> lines;
  std::size_t at = 0, number = 0;
  while (at < text.size() && lines.size() < maxLines) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    ++number;
    Line line{at, number, {}};
    std::size_t i = at;
    while (i < nl) {
      while (i < nl && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
      const std::size_t start = i;
      while (i < nl && text[i] != ' ' && text[i] != '\t' && text[i] != '\r') ++i;
      if (i > start) line.tokens.push_back(text.substr(start, i - start));
    }
    if (!line.tokens.empty()) lines.push_back(std::move(line));
    at = nl + 1;
  }
  return lines;
}

bool integer(std::string_view s, std::int64_t& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool number(std::string_view s, float& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(out);
}

class Reader {
 public:
  Reader(const ReadContext& ctx, std::vector<Line> lines) : ctx_(ctx), lines_(std::move(lines)) {}

  Result<std::vector<Action>> read() {
    if (lines_.empty()) return fail(0, 1, "action count", "the file is empty");
    const Line& first = lines_.front();
    std::int64_t count = 0;
    if (first.tokens.size() != 1 || !integer(first.tokens[0], count) || count < 0)
      return fail(first.offset, first.number, "action count", "is '" + std::string(first.tokens[0]) +
                                                                  "', not a count of actions");
    // Each action takes a header line at least.
    if (static_cast<std::uint64_t>(count) > lines_.size() - 1 || static_cast<std::uint64_t>(count) > ctx_.limits.maxClips)
      return fail(first.offset, first.number, "action count",
                  "is " + std::to_string(count) + ", more than the " + std::to_string(lines_.size() - 1) +
                      " lines that follow (or the limit of " + std::to_string(ctx_.limits.maxClips) + ")");
    std::vector<Action> actions;
    actions.reserve(static_cast<std::size_t>(count));
    std::size_t at = 1;
    std::size_t sequences = 0;
    for (std::int64_t a = 0; a < count; ++a) {
      if (at >= lines_.size())
        return fail(lines_.back().offset, lines_.back().number, "action " + std::to_string(a),
                    "is missing: the file ends after " + std::to_string(a) + " of " + std::to_string(count) + " actions");
      const Line& h = lines_[at++];
      const std::string field = "action " + std::to_string(a) + " header";
      if (h.tokens.size() != 3 && h.tokens.size() != 4)
        return fail(h.offset, h.number, field,
                    "has " + std::to_string(h.tokens.size()) +
                        " fields; a header is 'name flags master_flags count' (Warband) or 'name flags count' (M&B 1.011)");
      Action action;
      action.name = std::string(h.tokens[0]);
      std::int64_t flags = 0, master = 0, n = 0;
      const bool warband = h.tokens.size() == 4;
      if (!integer(h.tokens[1], flags) || (warband && !integer(h.tokens[2], master)) ||
          !integer(h.tokens.back(), n) || n < 0)
        return fail(h.offset, h.number, field, "has a field that is not a whole number");
      action.flags = static_cast<std::uint32_t>(flags);
      action.masterFlags = static_cast<std::uint32_t>(master);
      if (static_cast<std::uint64_t>(n) > lines_.size() - at)
        return fail(h.offset, h.number, field,
                    "names " + std::to_string(n) + " sequences; only " + std::to_string(lines_.size() - at) + " lines follow");
      sequences += static_cast<std::size_t>(n);
      if (sequences > ctx_.limits.maxClips)
        return fail(h.offset, h.number, field, "brings the sequences past the limit of " + std::to_string(ctx_.limits.maxClips));
      for (std::int64_t k = 0; k < n; ++k) {
        const Line& q = lines_[at++];
        const std::string qf = "action '" + action.name + "' sequence " + std::to_string(k);
        if (q.tokens.size() != 10)
          return fail(q.offset, q.number, qf,
                      "has " + std::to_string(q.tokens.size()) +
                          " fields; a sequence is 'duration animation begin end flags pack x y z value'");
        ActionSequence s;
        std::int64_t begin = 0, end = 0, sflags = 0, pack = 0;
        if (!number(q.tokens[0], s.duration) || s.duration < 0.0f)
          return fail(q.offset, q.number, qf + " duration", "is '" + std::string(q.tokens[0]) + "', not a duration in seconds");
        s.animation = std::string(q.tokens[1]);
        if (!integer(q.tokens[2], begin) || !integer(q.tokens[3], end) || std::abs(begin) > kMaxFrameIndex ||
            std::abs(end) > kMaxFrameIndex)
          return fail(q.offset, q.number, qf + " frames",
                      "begin and end are not frame indices within ±" + std::to_string(kMaxFrameIndex));
        if (!integer(q.tokens[4], sflags) || !integer(q.tokens[5], pack))
          return fail(q.offset, q.number, qf + " flags", "is not a whole number");
        if (!number(q.tokens[6], s.offset.x) || !number(q.tokens[7], s.offset.y) || !number(q.tokens[8], s.offset.z) ||
            !number(q.tokens[9], s.phase))
          return fail(q.offset, q.number, qf, "has a value that is not a number");
        s.begin = static_cast<std::int32_t>(begin);
        s.end = static_cast<std::int32_t>(end);
        s.flags = static_cast<std::uint32_t>(sflags);  // %d of values past 2^31: the low 32 bits
        s.pack = static_cast<std::uint32_t>(pack);
        action.sequences.push_back(std::move(s));
      }
      actions.push_back(std::move(action));
    }
    return actions;
  }

 private:
  FormatError fail(std::size_t offset, std::size_t line, const std::string& field, const std::string& message) const {
    return FormatError{ctx_.name, field + " (line " + std::to_string(line) + ")", offset, message};
  }

  const ReadContext& ctx_;
  std::vector<Line> lines_;
};

}  // namespace

Result<std::vector<Action>> readActions(std::span<const std::byte> data, const ReadContext& ctx) {
  const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
  // A line holds one action or sequence at most: more lines than the limits allow is refused
  // with the count, not read.
  auto lines = tokenize(text, std::size_t{ctx.limits.maxClips} * 2 + 2);
  return Reader(ctx, std::move(lines)).read();
}

bool looksLikeActions(std::span<const std::byte> head) {
  const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
  const auto lines = tokenize(text, 3);
  if (lines.size() < 3) return false;
  std::int64_t n = 0;
  float f = 0;
  return lines[0].tokens.size() == 1 && integer(lines[0].tokens[0], n) &&
         (lines[1].tokens.size() == 3 || lines[1].tokens.size() == 4) && integer(lines[1].tokens.back(), n) &&
         lines[2].tokens.size() == 10 && number(lines[2].tokens[0], f);
}

}  // namespace marrow::formats::warband
