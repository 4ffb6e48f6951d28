// marrow-demo-preview OUTDIR: software-rendered previews of the demo character (a developer
// tool, not shipped). Skins the mesh on the CPU with render/anim, rasterises it with a z-buffer
// into QImages (Gouraud-shaded vertex colours, one key and one fill light; back faces magenta,
// so a wrongly wound part stands out), and writes contact sheets of the rest pose and each clip.
#include <QColor>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QString>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "formats/model/validate.h"
#include "render/anim/pose.h"
#include "render/anim/skinning.h"
#include "resources/demo/demo_character.h"

namespace {

using marrow::formats::Clip;
using marrow::formats::Mesh;
using marrow::formats::Scene;

struct View {
  float yawDeg = 0.0f;    // 0: from the front (+Z); 90: from the character's right (-X)
  float pitchDeg = 6.0f;  // positive: looking slightly down
  float pixelsPerMetre = 280.0f;
  glm::vec2 centre{0.0f, 0.9f};  // model (x, y) at the panel centre, in view space
  const char* label = "";
};

struct Skinned {
  std::vector<glm::vec3> positions, normals;
};

Skinned skinAt(const Scene& scene, const Clip* clip, float t) {
  const Mesh& mesh = scene.meshes.front();
  const auto pose = marrow::anim::evaluate(scene.skeleton, clip, t);
  std::vector<glm::mat4> palette;
  marrow::anim::skinPalette(scene.skeleton, mesh, pose, palette);
  Skinned s;
  marrow::anim::skin(mesh, marrow::anim::packInfluences(mesh), palette, s.positions, &s.normals);
  return s;
}

glm::vec3 shade(const glm::vec3& n, const glm::vec4& c) {
  const glm::vec3 key = glm::normalize(glm::vec3(0.5f, 0.8f, 0.6f));
  const glm::vec3 fill = glm::normalize(glm::vec3(-0.6f, 0.2f, 0.3f));
  const float l =
      0.35f + 0.65f * std::max(0.0f, glm::dot(n, key)) + 0.2f * std::max(0.0f, glm::dot(n, fill));
  return glm::min(glm::vec3(c) * l, glm::vec3(1.0f));
}

// Renders one panel (supersampled twice) and returns it at its final size.
QImage renderPanel(const Mesh& mesh, const Skinned& s, const View& view, int w, int h) {
  const int ss = 2;
  const int W = w * ss, H = h * ss;
  QImage img(W, H, QImage::Format_RGB32);
  for (int y = 0; y < H; ++y) {
    const float f = static_cast<float>(y) / static_cast<float>(H);
    const QRgb c = qRgb(static_cast<int>(236 - 30 * f), static_cast<int>(240 - 30 * f),
                        static_cast<int>(246 - 24 * f));
    auto* line = reinterpret_cast<QRgb*>(img.scanLine(y));
    std::fill(line, line + W, c);
  }
  std::vector<float> depth(static_cast<std::size_t>(W) * H, -std::numeric_limits<float>::max());

  const glm::quat rot = glm::angleAxis(glm::radians(view.pitchDeg), glm::vec3(1, 0, 0)) *
                        glm::angleAxis(glm::radians(view.yawDeg), glm::vec3(0, 1, 0));
  const float scale = view.pixelsPerMetre * ss;
  auto project = [&](const glm::vec3& p) {
    const glm::vec3 v = rot * p;
    return glm::vec3(W * 0.5f + (v.x - view.centre.x) * scale,
                     H * 0.5f - (v.y - view.centre.y) * scale, v.z);
  };

  // Ground: a line where y = 0 crosses the view's centre plane, and a soft shadow blob.
  {
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    const glm::vec3 g0 = project({-3.0f, 0.0f, 0.0f}), g1 = project({3.0f, 0.0f, 0.0f});
    const glm::vec3 g2 = project({0.0f, 0.0f, -3.0f}), g3 = project({0.0f, 0.0f, 3.0f});
    p.setPen(QPen(QColor(170, 175, 185), 1.5 * ss));
    const bool sideways = std::fabs(g1.x - g0.x) < std::fabs(g3.x - g2.x);
    const glm::vec3 a = sideways ? g2 : g0, b = sideways ? g3 : g1;
    p.drawLine(QPointF(a.x, a.y), QPointF(b.x, b.y));
  }

  std::vector<glm::vec3> sp(s.positions.size());
  std::vector<glm::vec3> col(s.positions.size());
  for (std::size_t i = 0; i < sp.size(); ++i) {
    sp[i] = project(s.positions[i]);
    col[i] = shade(s.normals[i], mesh.colors[i]);
  }
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint32_t ia = mesh.indices[t], ib = mesh.indices[t + 1], ic = mesh.indices[t + 2];
    const glm::vec3 a = sp[ia], b = sp[ib], c = sp[ic];
    // Screen y points down, so a counter-clockwise (front) face has negative area here.
    const float area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    if (area == 0.0f) continue;
    const bool back = area > 0.0f;
    const int x0 = std::max(0, static_cast<int>(std::floor(std::min({a.x, b.x, c.x}))));
    const int x1 = std::min(W - 1, static_cast<int>(std::ceil(std::max({a.x, b.x, c.x}))));
    const int y0 = std::max(0, static_cast<int>(std::floor(std::min({a.y, b.y, c.y}))));
    const int y1 = std::min(H - 1, static_cast<int>(std::ceil(std::max({a.y, b.y, c.y}))));
    for (int y = y0; y <= y1; ++y) {
      auto* line = reinterpret_cast<QRgb*>(img.scanLine(y));
      for (int x = x0; x <= x1; ++x) {
        const float px = x + 0.5f, py = y + 0.5f;
        float w0 = (b.x - px) * (c.y - py) - (b.y - py) * (c.x - px);
        float w1 = (c.x - px) * (a.y - py) - (c.y - py) * (a.x - px);
        float w2 = (a.x - px) * (b.y - py) - (a.y - py) * (b.x - px);
        if (area < 0) {
          w0 = -w0;
          w1 = -w1;
          w2 = -w2;
        }
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const float sum = w0 + w1 + w2;
        w0 /= sum;
        w1 /= sum;
        w2 /= sum;
        const float z = a.z * w0 + b.z * w1 + c.z * w2;
        float& d = depth[static_cast<std::size_t>(y) * W + x];
        if (z <= d) continue;
        d = z;
        glm::vec3 rgb =
            back ? glm::vec3(1.0f, 0.0f, 1.0f) : col[ia] * w0 + col[ib] * w1 + col[ic] * w2;
        line[x] =
            qRgb(static_cast<int>(rgb.r * 255.0f + 0.5f), static_cast<int>(rgb.g * 255.0f + 0.5f),
                 static_cast<int>(rgb.b * 255.0f + 0.5f));
      }
    }
  }
  QImage out = img.scaled(w, h, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  QPainter p(&out);
  p.setPen(QColor(60, 60, 70));
  p.drawText(QRect(6, 4, w - 12, 20), Qt::AlignLeft | Qt::AlignTop, QString::fromUtf8(view.label));
  return out;
}

// Panels in a grid: rows of views, columns of times.
void sheet(const std::string& path, const Scene& scene, const Clip* clip,
           const std::vector<float>& times, std::vector<View> views, int w, int h) {
  const int cols = static_cast<int>(times.size());
  const int rows = static_cast<int>(views.size());
  QImage img(cols * w, rows * h, QImage::Format_RGB32);
  img.fill(Qt::white);
  QPainter p(&img);
  for (int c = 0; c < cols; ++c) {
    const Skinned s = skinAt(scene, clip, times[c]);
    for (int r = 0; r < rows; ++r) {
      View v = views[r];
      const std::string label =
          std::string(v.label) + (clip ? " t=" + std::to_string(times[c]).substr(0, 4) : "");
      v.label = label.c_str();
      p.drawImage(c * w, r * h, renderPanel(scene.meshes.front(), s, v, w, h));
    }
  }
  p.end();
  if (!img.save(QString::fromStdString(path)))
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
  else
    std::printf("wrote %s\n", path.c_str());
}

const Clip* findClip(const Scene& scene, std::string_view name) {
  for (const auto& c : scene.clips)
    if (c.name == name) return &c;
  return nullptr;
}

// Walk diagnostics: for each frame, the lowest point of each foot and where its heel is.
void footReport(const Scene& scene, const Clip& clip) {
  const Mesh& mesh = scene.meshes.front();
  const int footL = scene.skeleton.find("foot_l"), toeL = scene.skeleton.find("toe_l");
  const int footR = scene.skeleton.find("foot_r"), toeR = scene.skeleton.find("toe_r");
  auto isFoot = [&](std::size_t v, int foot, int toe) {
    float w = 0;
    for (const auto& i : mesh.influencesOf(v))
      if (static_cast<int>(i.bone) == foot || static_cast<int>(i.bone) == toe) w += i.weight;
    return w > 0.99f && mesh.positions[v].y < 0.05f;
  };
  const int frames = static_cast<int>(std::lround(clip.duration * clip.frameRate));
  std::printf("frame   minY_L   heelZ_L   minY_R   heelZ_R\n");
  for (int f = 0; f <= frames; ++f) {
    const Skinned s = skinAt(scene, &clip, static_cast<float>(f) / clip.frameRate);
    float minL = 1e9f, minR = 1e9f, heelL = 1e9f, heelR = 1e9f;
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
      if (isFoot(v, footL, toeL)) {
        minL = std::min(minL, s.positions[v].y);
        heelL = std::min(heelL, s.positions[v].z);
      } else if (isFoot(v, footR, toeR)) {
        minR = std::min(minR, s.positions[v].y);
        heelR = std::min(heelR, s.positions[v].z);
      }
    }
    std::printf("%5d  %7.4f  %8.4f  %7.4f  %8.4f\n", f, minL, heelL, minR, heelR);
  }
}

// Each closed part: its triangle count and signed volume (positive when faces point out).
void partReport(const Mesh& mesh) {
  std::vector<std::uint32_t> parent(mesh.vertexCount());
  for (std::uint32_t i = 0; i < parent.size(); ++i) parent[i] = i;
  auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    parent[find(mesh.indices[t])] = find(mesh.indices[t + 1]);
    parent[find(mesh.indices[t + 1])] = find(mesh.indices[t + 2]);
  }
  std::map<std::uint32_t, std::pair<int, float>> parts;
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const glm::vec3 a = mesh.positions[mesh.indices[t]], b = mesh.positions[mesh.indices[t + 1]],
                    c = mesh.positions[mesh.indices[t + 2]];
    auto& p = parts[find(mesh.indices[t])];
    ++p.first;
    p.second += glm::dot(a, glm::cross(b, c)) / 6.0f;
  }
  for (const auto& [root, p] : parts)
    std::printf("part at (%.3f %.3f %.3f): %5d triangles, volume %.6f m3\n", mesh.positions[root].x,
                mesh.positions[root].y, mesh.positions[root].z, p.first, p.second);
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const Scene scene = marrow::demo::makeDemoCharacter();
  for (const auto& p : marrow::formats::validate(scene))
    std::fprintf(stderr, "invalid: %s\n", p.c_str());
  const Mesh& mesh = scene.meshes.front();
  std::printf("%zu bones, %zu vertices, %zu triangles, %zu clips\n", scene.skeleton.bones.size(),
              mesh.vertexCount(), mesh.triangleCount(), scene.clips.size());
  partReport(mesh);
  for (const auto& c : scene.clips)
    std::printf("  %s: %.3f s, %zu tracks, %zu keys\n", c.name.c_str(), c.duration, c.tracks.size(),
                c.keyCount());

  const View front{0.0f, 4.0f, 280.0f, {0.0f, 0.9f}, "front"};
  const View threeQuarter{-35.0f, 8.0f, 280.0f, {0.0f, 0.9f}, "3/4"};
  const View side{90.0f, 4.0f, 280.0f, {0.0f, 0.9f}, "side"};
  const View back{180.0f, 4.0f, 280.0f, {0.0f, 0.9f}, "back"};
  sheet(dir + "/rest.png", scene, nullptr, {0.0f}, {front}, 380, 560);
  {
    // Rest pose, four ways, side by side.
    QImage img(4 * 300, 560, QImage::Format_RGB32);
    QPainter p(&img);
    const Skinned s = skinAt(scene, nullptr, 0.0f);
    int i = 0;
    for (const View& v : {front, threeQuarter, side, back})
      p.drawImage(300 * i++, 0, renderPanel(mesh, s, v, 300, 560));
    p.end();
    img.save(QString::fromStdString(dir + "/rest4.png"));
  }
  const View face{0.0f, 2.0f, 1400.0f, {0.0f, 1.64f}, "face"};
  const View face34{-35.0f, 6.0f, 1400.0f, {0.0f, 1.64f}, "face 3/4"};
  sheet(dir + "/face.png", scene, nullptr, {0.0f}, {face}, 400, 400);
  sheet(dir + "/face34.png", scene, nullptr, {0.0f}, {face34}, 400, 400);
  const View handView{0.0f, 0.0f, 1100.0f, {0.55f, 0.98f}, "left hand"};
  sheet(dir + "/hand.png", scene, nullptr, {0.0f}, {handView}, 300, 300);

  if (const Clip* walk = findClip(scene, marrow::demo::kWalkClip)) {
    std::vector<float> times;
    for (int i = 0; i < 8; ++i) times.push_back(walk->duration * static_cast<float>(i) / 8.0f);
    View sideS = side;
    sideS.pixelsPerMetre = 230.0f;
    View frontS = threeQuarter;
    frontS.pixelsPerMetre = 230.0f;
    sheet(dir + "/walk.png", scene, walk, times, {sideS, frontS}, 230, 470);
    View frontOnly = front;
    frontOnly.pixelsPerMetre = 230.0f;
    View backOnly = back;
    backOnly.pixelsPerMetre = 230.0f;
    sheet(dir + "/walk_front.png", scene, walk, times, {frontOnly, backOnly}, 230, 470);
    const View hips{-30.0f, 8.0f, 600.0f, {0.0f, 0.75f}, "3/4"};
    sheet(dir + "/walk_close.png", scene, walk, {0.0f, 0.2f, 0.4f}, {hips}, 420, 560);
    footReport(scene, *walk);
  }
  if (const Clip* wave = findClip(scene, marrow::demo::kWaveClip)) {
    std::vector<float> times = {0.0f, 0.3f, 0.55f, 0.8f, 1.05f, 1.3f, 2.0f, 2.5f};
    View frontS = front;
    frontS.pixelsPerMetre = 230.0f;
    View tq = threeQuarter;
    tq.pixelsPerMetre = 230.0f;
    sheet(dir + "/wave.png", scene, wave, times, {frontS, tq}, 300, 470);
    const View upperBody{0.0f, 4.0f, 560.0f, {-0.2f, 1.5f}, "front"};
    const View upperBack{150.0f, 10.0f, 560.0f, {0.2f, 1.5f}, "back"};
    sheet(dir + "/wave_close.png", scene, wave, {0.3f, 0.8f, 1.05f, 2.45f}, {upperBody, upperBack},
          420, 420);
  }
  if (const Clip* idle = findClip(scene, marrow::demo::kIdleClip)) {
    std::vector<float> times = {0.0f, 0.75f, 1.5f, 2.25f};
    View frontS = front;
    frontS.pixelsPerMetre = 230.0f;
    View sideS = side;
    sideS.pixelsPerMetre = 230.0f;
    sheet(dir + "/idle.png", scene, idle, times, {frontS, sideS}, 260, 470);
  }
  return 0;
}
