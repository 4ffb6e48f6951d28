// GL tests need a QGuiApplication and a display (test.sh runs them under xvfb-run). Without a
// display they start on Qt's offscreen platform, find no OpenGL and skip with the reason.
#include <gtest/gtest.h>

#include <QGuiApplication>

#include <cstdlib>
#include <memory>

#include "render/gl/offscreen.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();  // test discovery needs no display
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
  marrow::render::setDefaultSurfaceFormat();
  QGuiApplication app(argc, argv);
  return RUN_ALL_TESTS();
}
