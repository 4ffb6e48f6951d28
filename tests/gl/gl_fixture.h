// A GL 3.3 core context for tests; tests skip (with the reason) where none can be made.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "render/gl/offscreen.h"

#include "tests/support/skip.h"

namespace marrow::testing {

class GlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    gl_ = std::make_unique<render::OffscreenGL>();
    std::string error;
    if (!gl_->create(&error)) MARROW_SKIP() << "no OpenGL 3.3 core context: " << error;
    ASSERT_TRUE(renderer_.initialize(gl_->context(), &error)) << error;
  }
  void TearDown() override {
    if (gl_ && gl_->makeCurrent()) renderer_.release();
  }

  std::unique_ptr<render::OffscreenGL> gl_;
  render::Renderer renderer_;
};

}  // namespace marrow::testing
