#include "app/frame_output.h"

#include <zlib.h>

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>

#include "formats/image/png_writer.h"

namespace marrow::app {

namespace {

// In frames: a duration read as a float (1.1 s is 1.10000002 s) must not give a frame more.
constexpr double kSlack = 1e-4;

void put32(std::vector<std::byte>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::byte>((v >> s) & 0xff));
}
void put16(std::vector<std::byte>& out, std::uint16_t v) {
  out.push_back(static_cast<std::byte>(v >> 8));
  out.push_back(static_cast<std::byte>(v & 0xff));
}
std::uint32_t get32(std::span<const std::byte> b, std::size_t at) {
  return (std::to_integer<std::uint32_t>(b[at]) << 24) |
         (std::to_integer<std::uint32_t>(b[at + 1]) << 16) |
         (std::to_integer<std::uint32_t>(b[at + 2]) << 8) |
         std::to_integer<std::uint32_t>(b[at + 3]);
}

// A chunk: length, type, data, CRC-32 of type and data (PNG §5.3).
void chunk(std::vector<std::byte>& out, const char type[5], std::span<const std::byte> data) {
  put32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t typeAt = out.size();
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(type[i]));
  out.insert(out.end(), data.begin(), data.end());
  const auto* p = reinterpret_cast<const Bytef*>(out.data() + typeAt);
  put32(out, static_cast<std::uint32_t>(crc32(0L, p, static_cast<uInt>(4 + data.size()))));
}

// The frame delay as the fraction APNG stores (two 16-bit numbers): 1/fps seconds.
void delayOf(double fps, std::uint16_t& num, std::uint16_t& den) {
  if (!(fps > 0.0)) fps = 30.0;
  const double whole = std::round(fps);
  if (std::abs(fps - whole) < 1e-6 && whole >= 1.0 && whole <= 65535.0) {
    num = 1;
    den = static_cast<std::uint16_t>(whole);
    return;
  }
  num = 100;
  den = static_cast<std::uint16_t>(std::clamp(std::round(fps * 100.0), 1.0, 65535.0));
}

}  // namespace

FramePlanResult planFrames(double duration, anim::PlayMode mode, int frames, double fps,
                           double start) {
  FramePlanResult r;
  if (frames == 0 && fps == 0.0) {
    r.error = "give a number of frames (--frames N) or a frame rate (--fps F)";
    return r;
  }
  if (frames < 0 || frames > kMaxFrames) {
    r.error = "the number of frames is 1 to " + std::to_string(kMaxFrames);
    return r;
  }
  if (fps != 0.0 && !(fps > 0.0 && fps <= 1000.0)) {
    r.error = "the frame rate is above 0 and at most 1000 per second";
    return r;
  }
  if (!(duration > 0.0) || !std::isfinite(duration)) {
    r.error = "the clip has no duration to take frames of";
    return r;
  }
  if (!std::isfinite(start)) start = 0.0;
  const bool cyclic = mode != anim::PlayMode::Once;
  const double cycle = mode == anim::PlayMode::PingPong ? 2.0 * duration : duration;
  if (!cyclic) start = std::clamp(start, 0.0, duration);
  double step = 0.0;
  int count = frames;
  if (fps > 0.0) {
    step = 1.0 / fps;
    if (count == 0) {
      const double span = cyclic ? cycle : duration - start;
      const double n =
          cyclic ? std::ceil(span * fps - kSlack) : std::floor(span * fps + kSlack) + 1.0;
      if (n > kMaxFrames) {
        r.error = "that is " + std::to_string(static_cast<long long>(n)) + " frames; at most " +
                  std::to_string(kMaxFrames);
        return r;
      }
      count = std::max(1, static_cast<int>(n));
    }
  } else if (cyclic) {
    step = cycle / count;
  } else {
    step = count > 1 ? (duration - start) / (count - 1) : 0.0;
  }
  r.plan.fps = fps > 0.0 ? fps : step > 0.0 ? 1.0 / step : 30.0;
  r.plan.playheads.reserve(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) r.plan.playheads.push_back(start + k * step);
  return r;
}

QString framePath(const QString& output, int index) {
  const QFileInfo info(output);
  const QString suffix = info.suffix().isEmpty() ? QStringLiteral("png") : info.suffix();
  const QString base =
      info.suffix().isEmpty() ? output : output.left(output.size() - suffix.size() - 1);
  return QStringLiteral("%1_%2.%3").arg(base).arg(index, 4, 10, QLatin1Char('0')).arg(suffix);
}

bool isAnimatedPngPath(const QString& output) {
  return output.endsWith(QStringLiteral(".apng"), Qt::CaseInsensitive);
}

ApngWriter::ApngWriter(double fps) : fps_(fps) {}

bool ApngWriter::add(const QImage& frame, std::string* error) {
  const QImage rgba = frame.convertToFormat(QImage::Format_RGBA8888);
  const auto w = static_cast<std::uint32_t>(rgba.width()),
             h = static_cast<std::uint32_t>(rgba.height());
  if (rgba.isNull() || w == 0 || h == 0) {
    if (error) *error = "a frame is empty";
    return false;
  }
  if (!frames_.empty() && (w != width_ || h != height_)) {
    if (error)
      *error = "frame " + std::to_string(frames_.size() + 1) + " is " + std::to_string(w) + "×" +
               std::to_string(h) + ", the first " + std::to_string(width_) + "×" +
               std::to_string(height_);
    return false;
  }
  std::vector<std::uint8_t> pixels(std::size_t{w} * h * 4);
  for (std::uint32_t y = 0; y < h; ++y)
    std::memcpy(pixels.data() + std::size_t{y} * w * 4, rgba.constScanLine(static_cast<int>(y)),
                std::size_t{w} * 4);
  const std::vector<std::byte> png = formats::encodePng(pixels, w, h);
  if (png.size() < 8) {
    if (error) *error = "the PNG encoder failed";
    return false;
  }
  // Take the encoder's IHDR and its IDAT data (one zlib stream, maybe over several chunks).
  std::vector<std::byte> ihdr, data;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t len = get32(png, at);
    if (len > png.size() - at - 12) break;
    const std::string type(reinterpret_cast<const char*>(png.data() + at + 4), 4);
    const auto body = std::span(png).subspan(at + 8, len);
    if (type == "IHDR") ihdr.assign(body.begin(), body.end());
    if (type == "IDAT") data.insert(data.end(), body.begin(), body.end());
    at += 12 + std::size_t{len};
  }
  if (ihdr.size() != 13 || data.empty()) {
    if (error) *error = "the PNG encoder wrote no image data";
    return false;
  }
  if (frames_.empty()) {
    width_ = w;
    height_ = h;
    ihdr_ = std::move(ihdr);
  }
  frames_.push_back(std::move(data));
  return true;
}

std::vector<std::byte> ApngWriter::finish() const {
  std::vector<std::byte> out;
  static constexpr unsigned char kSignature[] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
  for (unsigned char c : kSignature) out.push_back(static_cast<std::byte>(c));
  if (frames_.empty()) return {};
  chunk(out, "IHDR", ihdr_);
  std::vector<std::byte> actl;
  put32(actl, static_cast<std::uint32_t>(frames_.size()));
  put32(actl, 0);  // plays forever
  chunk(out, "acTL", actl);
  std::uint16_t num = 1, den = 30;
  delayOf(fps_, num, den);
  std::uint32_t sequence = 0;
  for (std::size_t f = 0; f < frames_.size(); ++f) {
    std::vector<std::byte> fctl;
    put32(fctl, sequence++);
    put32(fctl, width_);
    put32(fctl, height_);
    put32(fctl, 0);  // x offset
    put32(fctl, 0);  // y offset
    put16(fctl, num);
    put16(fctl, den);
    fctl.push_back(std::byte{0});  // dispose: none
    fctl.push_back(std::byte{0});  // blend: source (every frame is whole)
    chunk(out, "fcTL", fctl);
    if (f == 0) {
      chunk(out, "IDAT", frames_[0]);  // the default image is the first frame
    } else {
      std::vector<std::byte> fdat;
      fdat.reserve(frames_[f].size() + 4);
      put32(fdat, sequence++);
      fdat.insert(fdat.end(), frames_[f].begin(), frames_[f].end());
      chunk(out, "fdAT", fdat);
    }
  }
  chunk(out, "IEND", {});
  return out;
}

}  // namespace marrow::app
