// Whether the tests run under CI: `CI=true` in the environment, as .ci/run sets it. There every
// input a test needs (the fixtures, assimp-testmodels, a display, the tools scripts/deps.sh test
// installs) must be present, so a test that would skip for a missing one fails instead
// (skip.h for GoogleTest, qskip.h for Qt Test).
#pragma once

#include <cstdlib>
#include <string_view>

namespace marrow::testing {

inline bool underCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

// What a skip that fails under CI says before its reason.
inline constexpr const char* kFailedSkip =
    "CI=true: this test must run, but it would skip (every input is present under CI):";

}  // namespace marrow::testing
