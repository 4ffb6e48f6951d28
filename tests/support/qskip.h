// Skipping a Qt Test slot for a missing input: MARROW_QSKIP("why") skips it (QSKIP) normally and
// fails it (QFAIL) under CI=true (ci.h). Every skip is counted, so that main() (gui_fixture.h,
// MARROW_QTEST_MAIN) returns 77, which the tests' SKIP_RETURN_CODE makes "skipped" in ctest,
// when a slot skipped and none failed: QTest::qExec itself returns 0 then.
#pragma once

#include <QString>
#include <QTest>

#include "tests/support/ci.h"

namespace marrow::testing {

inline int& qtestSkips() {
  static int skips = 0;
  return skips;
}

// The exit code of a Qt Test executable: QTest::qExec's, or 77 when it passed with skips.
inline int qtestExitCode(int qexecResult) {
  return qexecResult == 0 && qtestSkips() > 0 ? 77 : qexecResult;
}

}  // namespace marrow::testing

#define MARROW_QSKIP(reason)                                                                  \
  do {                                                                                        \
    if (::marrow::testing::underCi())                                                         \
      QFAIL(qPrintable(QString::fromUtf8(::marrow::testing::kFailedSkip) + QLatin1Char(' ') + \
                       QString::fromUtf8(reason)));                                           \
    ++::marrow::testing::qtestSkips();                                                        \
    QSKIP(reason);                                                                            \
  } while (false)
