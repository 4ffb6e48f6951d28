#include "formats/io/glob.h"

#include <algorithm>
#include <vector>

namespace marrow::formats {

bool hasGlob(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

bool matchGlob(std::string_view pattern, std::string_view text) {
  // The text positions reachable after each pattern element, element by element: linear in the
  // text per element, never exponential whatever the pattern. `*` and `?` stay within a folder
  // name, `**` crosses folders, `**/` is any number of whole folders (none included: "a/**/b"
  // matches "a/b"), `[a-z]` and `[!a-z]` are classes.
  const std::size_t n = text.size();
  std::vector<char> row(n + 1, 0), next(n + 1, 0);
  row[0] = 1;
  for (std::size_t p = 0; p < pattern.size();) {
    std::fill(next.begin(), next.end(), 0);
    const char c = pattern[p];
    const bool deep = c == '*' && p + 1 < pattern.size() && pattern[p + 1] == '*';
    if (deep && p + 2 < pattern.size() && pattern[p + 2] == '/') {
      bool reached = false;  // some position at or before t-1 was reachable
      for (std::size_t t = 0; t <= n; ++t) {
        next[t] = row[t] || (t > 0 && reached && text[t - 1] == '/');
        reached = reached || row[t];
      }
      p += 3;
    } else if (c == '*') {
      for (std::size_t t = 0; t <= n; ++t)
        next[t] = row[t] || (t > 0 && next[t - 1] && (deep || text[t - 1] != '/'));
      p += deep ? 2 : 1;
    } else if (const std::size_t close = c == '[' ? pattern.find(']', p + 2) : std::string_view::npos;
               close != std::string_view::npos) {
      std::string_view set = pattern.substr(p + 1, close - p - 1);
      const bool negate = set[0] == '!' || set[0] == '^';
      if (negate) set.remove_prefix(1);
      for (std::size_t t = 1; t <= n; ++t) {
        const char ch = text[t - 1];
        if (!row[t - 1] || ch == '/') continue;
        bool in = false;
        for (std::size_t k = 0; k < set.size(); ++k) {
          if (k + 2 < set.size() && set[k + 1] == '-') {
            in = in || (ch >= set[k] && ch <= set[k + 2]);
            k += 2;
          } else {
            in = in || ch == set[k];
          }
        }
        next[t] = in != negate;
      }
      p = close + 1;
    } else {  // a literal character ('[' without its ']' included), or '?'
      for (std::size_t t = 1; t <= n; ++t)
        next[t] = row[t - 1] && (c == '?' ? text[t - 1] != '/' : text[t - 1] == c);
      ++p;
    }
    row.swap(next);
  }
  return row[n] != 0;
}

}  // namespace marrow::formats
