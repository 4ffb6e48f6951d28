// Comparing pictures in the Qt tests: how many pixels differ, and by how much on average.
#pragma once

#include <QColor>
#include <QImage>
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
