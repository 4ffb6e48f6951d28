// A clip as pictures: which moments an image sequence shows, the names of its files, and an
// animated PNG (APNG) assembled from frames the project's own PNG encoder wrote. For
// `marrow-cli render --frames/--fps` and the Timeline's Render Frames….
#pragma once

#include <QImage>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "render/anim/pose.h"

namespace marrow::app {

inline constexpr int kMaxFrames = 10000;

struct FramePlan {
  std::vector<double> playheads;  // seconds since the start, before clipTime(…, mode)
  double fps = 0.0;               // the rate the frames are apart (and an animation plays at)
};

// The frames of a clip of `duration` seconds played in `mode` from `start`:
// - fps only: every 1/fps seconds to the end of the clip (once) or of one cycle (loop: its end
//   is its start again and is left out; ping-pong: there and back);
// - frames only: that many, evenly over the clip (once: first and last included) or the cycle;
// - both: that many, 1/fps apart.
// Errors (as messages for a usage error): neither given, a count outside 1–kMaxFrames, an fps not
// in (0, 1000], a clip with no duration.
struct FramePlanResult {
  FramePlan plan;
  std::string error;
};
FramePlanResult planFrames(double duration, anim::PlayMode mode, int frames, double fps,
                           double start = 0.0);

// "out.png" → "out_0001.png" (index from 1; at least 4 digits); a name without a suffix gets
// ".png".
QString framePath(const QString& output, int index);

// Whether `output` names an animated PNG (".apng"): one file instead of a sequence.
bool isAnimatedPngPath(const QString& output);

// An animated PNG built frame by frame: each frame is encoded as it comes (only its compressed
// data is kept). Every frame must have the first frame's size.
class ApngWriter {
 public:
  explicit ApngWriter(double fps);
  bool add(const QImage& frame, std::string* error);
  std::size_t frames() const { return frames_.size(); }
  // The whole file: PNG signature, IHDR, acTL, then fcTL + IDAT / fdAT per frame, IEND. The
  // animation loops forever; a viewer without APNG support shows the first frame.
  std::vector<std::byte> finish() const;

 private:
  double fps_;
  std::uint32_t width_ = 0, height_ = 0;
  std::vector<std::byte> ihdr_;                 // the IHDR chunk's data
  std::vector<std::vector<std::byte>> frames_;  // each frame's zlib stream (its IDAT data)
};

}  // namespace marrow::app
