// Comparing pictures in the Qt tests: how many pixels differ, and by how much on average; where
// they are red.
#pragma once

#include <QColor>
#include <QImage>
#include <algorithm>
#include <cstdlib>
#include <limits>

namespace marrow::testing {

// Pixels whose red, green and blue differ by more than 30 in sum; every pixel when the sizes
// differ.
inline int differingPixels(const QImage& a, const QImage& b) {
  if (a.size() != b.size()) return a.width() * a.height();
  int n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      const QColor p = a.pixelColor(x, y), q = b.pixelColor(x, y);
      n += std::abs(p.red() - q.red()) + std::abs(p.green() - q.green()) +
               std::abs(p.blue() - q.blue()) >
           30;
    }
  return n;
}

// Where a picture is clearly red (the test models' colour, whatever the lighting): how many
// pixels, and the box around them.
struct RedArea {
  int left = 1 << 30, right = -1, top = 1 << 30, bottom = -1, count = 0;
  int width() const { return right - left + 1; }
  int height() const { return bottom - top + 1; }
};
inline RedArea redPixels(const QImage& img) {
  RedArea e;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      if (c.red() > 60 && c.red() > 2 * c.green() && c.red() > 2 * c.blue()) {
        e.left = std::min(e.left, x), e.right = std::max(e.right, x);
        e.top = std::min(e.top, y), e.bottom = std::max(e.bottom, y);
        ++e.count;
      }
    }
  return e;
}

// The mean absolute difference of the RGBA channels (0 to 255); NaN, which passes no comparison,
// when the sizes differ or the pictures are null.
inline double meanDifference(const QImage& a, const QImage& b) {
  if (a.size() != b.size() || a.isNull()) return std::numeric_limits<double>::quiet_NaN();
  const QImage x = a.convertToFormat(QImage::Format_RGBA8888),
               y = b.convertToFormat(QImage::Format_RGBA8888);
  double sum = 0;
  for (int r = 0; r < x.height(); ++r)
    for (int c = 0; c < x.width() * 4; ++c)
      sum += std::abs(x.constScanLine(r)[c] - y.constScanLine(r)[c]);
  return sum / (x.width() * x.height() * 4.0);
}

}  // namespace marrow::testing
