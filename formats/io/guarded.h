// The one way a reader's entry point turns what its bounds-checked cursor throws into a Result:
// a FormatException becomes its error; running out of memory on counts too large to hold
// becomes an error naming the file. Readers never throw past their entry point.
#pragma once

#include <new>
#include <stdexcept>

#include "formats/io/read_context.h"
#include "formats/io/result.h"

namespace marrow::formats {

template <class T, class Fn>
Result<T> guarded(const ReadContext& ctx, Fn&& fn) {
  try {
    return fn();
  } catch (const FormatException& e) {
    return e.error();
  } catch (const std::bad_alloc&) {
    return FormatError{ctx.name, "", kNoOffset, "ran out of memory while reading"};
  } catch (const std::length_error&) {
    return FormatError{ctx.name, "", kNoOffset, "a count is too large to hold in memory"};
  }
}

}  // namespace marrow::formats
