// Skipping a GoogleTest test for a missing input (a fixture folder, a tool, a display, a CLI
// option): MARROW_SKIP() << "why"; skips the test (GTEST_SKIP) normally and fails it (FAIL) under
// CI=true (ci.h). Like GTEST_SKIP it returns from the function it is used in. ctest reports a
// skipped test as skipped: gtest_discover_tests sets SKIP_REGULAR_EXPRESSION "[  SKIPPED ]".
//
// MARROW_EXPECT_ALL_USED(used, total) ends a loop over fixed inputs that passes over the absent
// ones: all `total` were used, or the test skips saying how many (fails under CI).
#pragma once

#include <gtest/gtest.h>

#include "tests/support/ci.h"

namespace marrow::testing {

inline ::testing::TestPartResult::Type skipResult() {
  return underCi() ? ::testing::TestPartResult::kFatalFailure : ::testing::TestPartResult::kSkip;
}

inline const char* skipSummary() {
  return underCi() ? kFailedSkip : "";
}

}  // namespace marrow::testing

#define MARROW_SKIP()                                                            \
  return GTEST_MESSAGE_AT_(__FILE__, __LINE__, ::marrow::testing::skipSummary(), \
                           ::marrow::testing::skipResult())

#define MARROW_EXPECT_ALL_USED(used, total)                          \
  do {                                                               \
    ASSERT_LE((used), (total)) << "more inputs used than there are"; \
    if ((used) < (total))                                            \
      MARROW_SKIP() << "used " << (used) << " of the " << (total)    \
                    << " inputs: the others are absent";             \
  } while (false)
