// The demo character's skin: closed, smooth parts (torso, neck, head, arms, hands, legs, shoes,
// face details) swept around the rest-pose rig, coloured per vertex and weighted so that joints
// bend smoothly (two to four bones blend around each joint).
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <numbers>

#include "resources/demo/demo_character.h"
#include "resources/demo/demo_rig.h"
#include "resources/demo/demo_shapes.h"

namespace marrow::demo {
namespace {

constexpr glm::vec4 kSkin{0.96f, 0.76f, 0.62f, 1.0f};
constexpr glm::vec4 kSkinShade{0.93f, 0.66f, 0.55f, 1.0f};
constexpr glm::vec4 kBlush{0.97f, 0.60f, 0.56f, 1.0f};
constexpr glm::vec4 kHair{0.36f, 0.22f, 0.13f, 1.0f};
constexpr glm::vec4 kShirt{0.93f, 0.42f, 0.25f, 1.0f};
constexpr glm::vec4 kTrousers{0.22f, 0.33f, 0.55f, 1.0f};
constexpr glm::vec4 kBelt{0.30f, 0.20f, 0.13f, 1.0f};
constexpr glm::vec4 kSock{0.95f, 0.94f, 0.90f, 1.0f};
constexpr glm::vec4 kShoe{0.80f, 0.22f, 0.20f, 1.0f};
constexpr glm::vec4 kSole{0.96f, 0.95f, 0.91f, 1.0f};
constexpr glm::vec4 kEye{0.10f, 0.08f, 0.08f, 1.0f};
constexpr glm::vec4 kEyeLight{1.0f, 1.0f, 1.0f, 1.0f};
constexpr glm::vec4 kMouth{0.62f, 0.26f, 0.23f, 1.0f};

constexpr glm::vec3 kX{1.0f, 0.0f, 0.0f};
constexpr glm::vec3 kY{0.0f, 1.0f, 0.0f};
constexpr glm::vec3 kZ{0.0f, 0.0f, 1.0f};

// Head: an ellipsoid (slightly narrower at the jaw) whose latitude rings are tilted back, so that
// one ring runs along the hairline and the hair edge can be sharp.
constexpr glm::vec3 kHeadCenter{0.0f, kHeadCenterY, 0.012f};
constexpr glm::vec3 kHeadRadii{0.106f, 0.118f, 0.112f};
constexpr float kJaw = 0.10f;  // how much narrower the jaw is than the temples
constexpr float kHairTiltDeg = 20.0f;
constexpr float kHairline = 0.17f;  // sin of the hairline's latitude about the tilted axis

glm::vec3 headFromUnit(glm::vec3 q) {
  const float jaw = 1.0f - kJaw * std::max(0.0f, -q.y);
  return kHeadCenter + glm::vec3(q.x * kHeadRadii.x * jaw, q.y * kHeadRadii.y, q.z * kHeadRadii.z);
}

// The face surface's z at (x, y), for placing eyes, nose and mouth on it.
float faceZ(float x, float y) {
  const float qy = (y - kHeadCenter.y) / kHeadRadii.y;
  const float rx = kHeadRadii.x * (1.0f - kJaw * std::max(0.0f, -qy));
  const float q = 1.0f - (x / rx) * (x / rx) - qy * qy;
  return kHeadCenter.z + kHeadRadii.z * std::sqrt(std::max(q, 0.0f));
}

Weights single(int bone) {
  Weights w;
  w.add(bone, 1.0f);
  return w;
}

void addTorso(MeshBuilder& mb) {
  // y, half width, half depth, z of the centre.
  struct Row {
    float y, w, d, z;
  };
  constexpr Row kRows[] = {{0.850f, 0.060f, 0.048f, 0.000f},  {0.875f, 0.112f, 0.074f, 0.000f},
                           {0.915f, 0.158f, 0.104f, -0.002f}, {0.960f, 0.171f, 0.117f, -0.004f},
                           {1.010f, 0.160f, 0.111f, -0.004f}, {1.080f, 0.146f, 0.104f, 0.000f},
                           {1.170f, 0.151f, 0.112f, 0.006f},  {1.260f, 0.166f, 0.121f, 0.010f},
                           {1.330f, 0.173f, 0.117f, 0.006f},  {1.390f, 0.170f, 0.106f, -0.004f},
                           {1.430f, 0.150f, 0.090f, -0.012f}, {1.455f, 0.105f, 0.068f, -0.016f},
                           {1.476f, 0.052f, 0.048f, -0.018f}};
  constexpr float kY0 = 0.850f;
  constexpr float kBeltLow = 0.985f, kBeltHigh = 1.033f, kBeltOut = 0.005f, kEdge = 0.002f;
  std::vector<ProfileKey> base;
  for (const Row& r : kRows) base.push_back({r.y - kY0, r.w, r.d, kShirt, r.z});

  auto key = [&](float y) {
    ProfileKey k = sampleProfile(base, y - kY0);
    const bool belt = y > kBeltLow && y < kBeltHigh;
    k.color = belt ? kBelt : y < kBeltLow ? kTrousers : kShirt;
    if (belt) {
      k.ru += kBeltOut;
      k.rv += kBeltOut;
    }
    return k;
  };
  std::vector<ProfileKey> keys;
  for (const Row& r : kRows)
    if (std::fabs(r.y - kBeltLow) > 0.01f && std::fabs(r.y - kBeltHigh) > 0.01f)
      keys.push_back(key(r.y));
  for (float y : {kBeltLow - kEdge, kBeltLow + kEdge, kBeltHigh - kEdge, kBeltHigh + kEdge})
    keys.push_back(key(y));
  std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.s < b.s; });

  TubeStyle style;
  style.spacing = 0.024f;
  style.hint = kX;
  style.roundness = 2.3f;
  style.capStart = 0.018f;
  style.capEnd = 0.012f;
  style.capRings = 3;
  style.offsetDir = kZ;
  const Polyline path({{0.0f, kY0, 0.0f}, {0.0f, 1.6f, 0.0f}});
  const Surface s = sweep(tubeSections(path, keys, style), ringAngles(28));

  mb.add(s, [](const glm::vec3& p, std::size_t) {
    // The spine bends evenly: hat functions over the spine joints' heights.
    constexpr int kChain[] = {kPelvis, kSpine1, kSpine2, kChest};
    constexpr float kCentres[] = {0.96f, 1.07f, 1.18f, 1.31f};
    float spine[4] = {};
    if (p.y <= kCentres[0]) {
      spine[0] = 1.0f;
    } else if (p.y >= kCentres[3]) {
      spine[3] = 1.0f;
    } else {
      int i = 0;
      while (p.y > kCentres[i + 1]) ++i;
      const float f = (p.y - kCentres[i]) / (kCentres[i + 1] - kCentres[i]);
      spine[i] = 1.0f - f;
      spine[i + 1] = f;
    }
    const float side = p.x >= 0.0f ? kLeft : kRight;
    const float ax = std::fabs(p.x);
    Weights w;
    // Around the hip sockets the trousers follow the thighs a little; around the shoulders the
    // shirt follows the clavicle and the arm: the blends that keep those joints from creasing.
    const float thigh = 0.35f * smoothstep(0.97f, 0.86f, p.y) * smoothstep(0.02f, 0.10f, ax);
    const float clav = 0.55f * smoothstep(0.07f, 0.15f, ax) * smoothstep(1.31f, 1.40f, p.y);
    const float arm = 0.35f * smoothstep(0.14f, 0.19f, ax) * smoothstep(1.33f, 1.41f, p.y);
    const float neck = 0.7f * smoothstep(1.44f, 1.49f, p.y);
    const float extra = std::min(1.0f, thigh + clav + arm + neck);
    w.add(legBones(side).thigh, thigh);
    w.add(armBones(side).clavicle, clav);
    w.add(armBones(side).upperArm, arm);
    w.add(kNeck, neck);
    for (int i = 0; i < 4; ++i) w.add(kChain[i], spine[i] * (1.0f - extra));
    return w;
  });
}

void addNeck(MeshBuilder& mb) {
  std::vector<ProfileKey> keys = {{0.0f, 0.056f, 0.054f, kSkin},
                                  {0.08f, 0.051f, 0.050f, kSkin},
                                  {0.20f, 0.050f, 0.050f, kSkin}};
  TubeStyle style;
  style.spacing = 0.03f;
  style.capStart = 0.02f;
  style.capEnd = 0.02f;
  style.capRings = 2;
  const Polyline path({{0.0f, 1.41f, -0.022f}, {0.0f, 1.61f, -0.006f}});
  mb.add(sweep(tubeSections(path, keys, style), ringAngles(14)),
         [](const glm::vec3& p, std::size_t) {
           const float head = smoothstep(1.53f, 1.59f, p.y);
           const float neck = smoothstep(1.41f, 1.49f, p.y) * (1.0f - head);
           Weights w;
           w.add(kHead, head);
           w.add(kNeck, neck);
           w.add(kChest, 1.0f - head - neck);
           return w;
         });
}

void addHead(MeshBuilder& mb) {
  const float tilt = glm::radians(kHairTiltDeg);
  const glm::vec3 axis(0.0f, std::cos(tilt), -std::sin(tilt));
  Section base;
  crossFrame(axis, kX, base.u, base.v);
  const float hairLat = std::asin(kHairline);
  constexpr float kEdge = 0.006f;  // half the latitude gap (radians) of the hairline pair
  std::vector<float> lats;
  constexpr int kRings = 24;
  for (int i = 1; i < kRings; ++i) {
    const float lat = std::numbers::pi_v<float> * (static_cast<float>(i) / kRings - 0.5f);
    if (std::fabs(lat - hairLat) > 0.05f) lats.push_back(lat);
  }
  lats.push_back(hairLat - kEdge);
  lats.push_back(hairLat + kEdge);
  std::sort(lats.begin(), lats.end());

  // Unit-sphere sections; the hair sits a little proud of the scalp and fuller on top.
  auto hairScale = [&](float lat) {
    if (lat < hairLat) return 1.0f;
    return 1.06f + 0.03f * smoothstep(hairLat, 1.2f, lat);
  };
  std::vector<Section> sections;
  Section pole = base;
  pole.center = -axis;
  sections.push_back(pole);
  for (float lat : lats) {
    Section s = base;
    const float k = hairScale(lat);
    s.center = axis * (std::sin(lat) * k);
    s.ru = s.rv = std::cos(lat) * k;
    s.color = lat > hairLat ? kHair : kSkin;
    sections.push_back(s);
  }
  pole.center = axis * hairScale(0.5f * std::numbers::pi_v<float>);
  pole.color = kHair;
  sections.push_back(pole);

  Surface s = sweep(sections, ringAngles(32));
  for (std::size_t v = 0; v < s.positions.size(); ++v) {
    s.positions[v] = headFromUnit(s.positions[v]);
    if (s.colors[v] == kSkin) {
      // Rosy cheeks: a soft spot under each eye.
      for (float side : {kLeft, kRight}) {
        const glm::vec3 cheek(side * 0.062f, 1.616f, faceZ(0.062f, 1.616f));
        const float f = smoothstep(0.026f, 0.008f, glm::length(s.positions[v] - cheek));
        s.colors[v] = glm::mix(s.colors[v], kBlush, 0.7f * f);
      }
    }
  }
  mb.add(s, [](const glm::vec3&, std::size_t) { return single(kHead); });
}

void addFace(MeshBuilder& mb) {
  auto head = [](const glm::vec3&, std::size_t) { return single(kHead); };
  for (float side : {kLeft, kRight}) {
    const float ex = side * 0.039f, ey = 1.648f;
    mb.add(
        ellipsoid({ex, ey, faceZ(ex, ey) - 0.004f}, kZ, kX, 0.008f, 0.0105f, 0.0145f, 6, 12, kEye),
        head);
    const float lx = ex + side * 0.003f, ly = ey + 0.005f;
    mb.add(ellipsoid({lx, ly, faceZ(ex, ey) + 0.0035f}, kZ, kX, 0.0015f, 0.003f, 0.0035f, 2, 6,
                     kEyeLight),
           head);
    const float bx = side * 0.039f, by = 1.684f;
    const float browTilt = glm::radians(10.0f) * side;
    mb.add(ellipsoid({bx, by, faceZ(bx, by) - 0.002f}, kZ,
                     {std::cos(browTilt), std::sin(browTilt), 0.0f}, 0.005f, 0.016f, 0.0045f, 4, 10,
                     kHair),
           head);
    mb.add(ellipsoid({side * 0.105f, 1.632f, -0.004f}, {side, 0.0f, 0.0f}, kZ, 0.014f, 0.018f,
                     0.027f, 6, 12, kSkinShade),
           head);
  }
  // A soft fringe swept to one side, so the hair reads as hair rather than a cap.
  {
    const glm::vec3 normal = glm::normalize(glm::vec3(0.1f, 0.62f, 0.78f));
    const glm::vec3 across = glm::normalize(glm::vec3(1.0f, -0.28f, 0.0f));
    mb.add(ellipsoid(kHeadCenter + glm::vec3(0.018f, 0.062f, 0.078f), normal, across, 0.026f,
                     0.068f, 0.036f, 10, 18, kHair),
           head);
  }
  mb.add(ellipsoid({0.0f, 1.624f, faceZ(0.0f, 1.624f) - 0.003f}, kZ, kX, 0.013f, 0.011f, 0.013f, 6,
                   12, kSkinShade),
         head);
  // A smile: a thin tube along an upward-curving arc on the face.
  std::vector<glm::vec3> arc;
  for (int i = 0; i <= 8; ++i) {
    const float x = -0.026f + 0.052f * static_cast<float>(i) / 8.0f;
    const float y = 1.591f + 0.012f * (x / 0.026f) * (x / 0.026f);
    arc.push_back({x, y, faceZ(x, y) - 0.0015f});
  }
  const Polyline smile(arc);
  TubeStyle style;
  style.spacing = 0.006f;
  style.hint = kZ;
  style.capStart = style.capEnd = 0.0035f;
  style.capRings = 2;
  const std::vector<ProfileKey> keys = {{0.0f, 0.0035f, 0.0035f, kMouth},
                                        {smile.length(), 0.0035f, 0.0035f, kMouth}};
  mb.add(sweep(tubeSections(smile, keys, style), ringAngles(8)), head);
}

void addArm(MeshBuilder& mb, float side) {
  const ArmGeometry g = armGeometry(side);
  const ArmBones b = armBones(side);
  constexpr float kHem = 0.125f, kEdge = 0.002f;
  const std::vector<ProfileKey> keys = {
      {0.0f, 0.054f, 0.054f, kShirt},         {0.06f, 0.054f, 0.054f, kShirt},
      {kHem - kEdge, 0.053f, 0.053f, kShirt}, {kHem + kEdge, 0.044f, 0.045f, kSkin},
      {0.19f, 0.042f, 0.044f, kSkin},         {0.27f, 0.036f, 0.038f, kSkin},
      {0.33f, 0.036f, 0.041f, kSkin},         {0.42f, 0.029f, 0.035f, kSkin},
      {0.515f, 0.021f, 0.028f, kSkin}};
  TubeStyle style;
  style.spacing = 0.026f;
  style.hint = g.palm;
  style.capStart = 0.054f;
  style.capEnd = 0.022f;
  style.capRings = 5;
  const Polyline path({g.shoulder, g.elbow, g.wrist});
  const float upperLen = glm::length(g.elbow - g.shoulder);
  const float armLen = upperLen + glm::length(g.wrist - g.elbow);
  mb.add(sweep(tubeSections(path, keys, style), ringAngles(16)),
         [&](const glm::vec3& p, std::size_t) {
           const float s = glm::dot(p - g.shoulder, g.dir);
           const float fore = smoothstep(upperLen - 0.045f, upperLen + 0.045f, s);
           const float hand = smoothstep(armLen - 0.03f, armLen + 0.01f, s);
           const float clav = 0.3f * smoothstep(0.0f, -0.05f, s);
           Weights w;
           w.add(b.clavicle, clav);
           w.add(b.upperArm, (1.0f - fore) * (1.0f - clav));
           w.add(b.forearm, fore * (1.0f - hand));
           w.add(b.hand, hand);
           return w;
         });
}

void addHand(MeshBuilder& mb, float side) {
  const ArmGeometry g = armGeometry(side);
  const ArmBones b = armBones(side);
  const float palmLen = glm::length(g.knuckles - g.wrist);
  {
    const std::vector<ProfileKey> keys = {{0.0f, 0.017f, 0.031f, kSkin},
                                          {0.027f, 0.020f, 0.042f, kSkin},
                                          {0.060f, 0.020f, 0.047f, kSkin},
                                          {0.085f, 0.017f, 0.046f, kSkin}};
    TubeStyle style;
    style.spacing = 0.012f;
    style.hint = g.palm;
    style.roundness = 2.6f;
    style.capStart = 0.014f;
    style.capEnd = 0.016f;
    style.capRings = 3;
    const Polyline path({g.wrist, g.wrist + g.dir * 0.2f});
    mb.add(sweep(tubeSections(path, keys, style), ringAngles(16)),
           [&](const glm::vec3& p, std::size_t) {
             const float s = glm::dot(p - g.wrist, g.dir);
             const float fore = 0.5f * smoothstep(0.02f, -0.015f, s);
             const float fingers = 0.5f * smoothstep(palmLen - 0.015f, palmLen + 0.01f, s);
             Weights w;
             w.add(b.forearm, fore);
             w.add(b.fingers, fingers);
             w.add(b.hand, 1.0f - fore - fingers);
             return w;
           });
  }
  const glm::vec3 front = kZ;
  struct Finger {
    float across, length, radius;
  };
  constexpr Finger kFingers[] = {{0.031f, 0.080f, 0.0112f},
                                 {0.0105f, 0.089f, 0.0115f},
                                 {-0.0105f, 0.084f, 0.0111f},
                                 {-0.030f, 0.068f, 0.0100f}};
  // A relaxed hand: each finger bends a little towards the palm halfway along.
  const glm::quat bend = glm::angleAxis(glm::radians(22.0f), g.curl);
  for (const Finger& f : kFingers) {
    const glm::vec3 dir = glm::normalize(g.dir + front * (f.across * 0.9f));
    const glm::vec3 root = g.wrist + g.dir * (palmLen - 0.012f) + front * f.across;
    const glm::vec3 mid = root + dir * (0.012f + f.length * 0.5f);
    const glm::vec3 tip = mid + (bend * dir) * (f.length * 0.5f);
    const Polyline path({root, mid, tip});
    const std::vector<ProfileKey> keys = {
        {0.0f, f.radius, f.radius, kSkin},
        {path.length(), f.radius * 0.85f, f.radius * 0.85f, kSkin}};
    TubeStyle style;
    style.spacing = 0.02f;
    style.hint = g.palm;
    style.capStart = 0.006f;
    style.capEnd = f.radius * 0.85f;
    style.capRings = 2;
    mb.add(sweep(tubeSections(path, keys, style), ringAngles(8)),
           [&](const glm::vec3& p, std::size_t) {
             const float s = glm::dot(p - g.wrist, g.dir);
             const float fingers = smoothstep(palmLen - 0.008f, palmLen + 0.008f, s);
             Weights w;
             w.add(b.fingers, fingers);
             w.add(b.hand, 1.0f - fingers);
             return w;
           });
  }
  {
    const glm::quat thumbBend = glm::angleAxis(glm::radians(18.0f), g.curl);
    const glm::vec3 root = g.thumbBase - g.thumbDir * 0.01f;
    const glm::vec3 mid = g.thumbBase + g.thumbDir * 0.034f;
    const glm::vec3 tip = mid + (thumbBend * g.thumbDir) * 0.032f;
    const Polyline path({root, mid, tip});
    const std::vector<ProfileKey> keys = {{0.0f, 0.0145f, 0.0145f, kSkin},
                                          {path.length(), 0.011f, 0.011f, kSkin}};
    TubeStyle style;
    style.spacing = 0.012f;
    style.hint = g.palm;
    style.capStart = 0.008f;
    style.capEnd = 0.011f;
    style.capRings = 2;
    mb.add(sweep(tubeSections(path, keys, style), ringAngles(8)),
           [&](const glm::vec3& p, std::size_t) {
             const float s = glm::dot(p - g.thumbBase, g.thumbDir);
             const float thumb = smoothstep(-0.004f, 0.014f, s);
             Weights w;
             w.add(b.thumb, thumb);
             w.add(b.hand, 1.0f - thumb);
             return w;
           });
  }
}

void addLeg(MeshBuilder& mb, float side) {
  const LegGeometry g = legGeometry(side);
  const LegBones b = legBones(side);
  constexpr float kHem = 0.79f, kEdge = 0.002f;
  const std::vector<ProfileKey> keys = {{0.0f, 0.088f, 0.088f, kTrousers},
                                        {0.08f, 0.086f, 0.085f, kTrousers},
                                        {0.20f, 0.078f, 0.075f, kTrousers},
                                        {0.33f, 0.067f, 0.065f, kTrousers},
                                        {0.43f, 0.061f, 0.060f, kTrousers},
                                        {0.53f, 0.061f, 0.061f, kTrousers},
                                        {0.66f, 0.059f, 0.058f, kTrousers},
                                        {kHem - 0.025f, 0.060f, 0.059f, kTrousers},
                                        {kHem - kEdge, 0.062f, 0.061f, kTrousers},
                                        {kHem + kEdge, 0.038f, 0.038f, kSock},
                                        {0.845f, 0.036f, 0.037f, kSock}};
  TubeStyle style;
  style.spacing = 0.03f;
  style.hint = kX;
  style.capStart = 0.088f;
  style.capEnd = 0.03f;
  style.capRings = 5;
  const Polyline path({g.hip, g.knee, g.ankle});
  mb.add(sweep(tubeSections(path, keys, style), ringAngles(16)),
         [&](const glm::vec3& p, std::size_t) {
           const float shin = smoothstep(g.knee.y + 0.05f, g.knee.y - 0.05f, p.y);
           const float foot = smoothstep(0.125f, 0.095f, p.y);
           Weights w;
           w.add(b.thigh, 1.0f - shin);
           w.add(b.shin, shin * (1.0f - foot));
           w.add(b.foot, foot);
           return w;
         });
}

void addShoe(MeshBuilder& mb, float side) {
  const LegGeometry g = legGeometry(side);
  const LegBones b = legBones(side);
  constexpr float kRoundness = 3.5f;
  // z, width, height; the section's centre sits at half the height so the sole is at y = 0.
  struct Row {
    float z, w, h;
  };
  constexpr Row kRows[] = {{-0.066f, 0.082f, 0.100f}, {-0.040f, 0.090f, 0.112f},
                           {0.000f, 0.094f, 0.112f},  {0.040f, 0.100f, 0.094f},
                           {0.080f, 0.104f, 0.076f},  {0.120f, 0.106f, 0.066f},
                           {0.160f, 0.102f, 0.062f},  {0.185f, 0.094f, 0.060f}};
  std::vector<ProfileKey> keys;
  for (const Row& r : kRows)
    keys.push_back({r.z - kRows[0].z, r.w * 0.5f, r.h * 0.5f, kShoe, r.h * 0.5f});
  TubeStyle style;
  style.spacing = 0.022f;
  style.hint = kX;
  style.roundness = kRoundness;
  style.capStart = 0.016f;
  style.capEnd = 0.028f;
  style.capRings = 3;
  style.offsetDir = kY;
  const float x = g.ankle.x + side * 0.002f;
  const Polyline path({{x, 0.0f, kRows[0].z}, {x, 0.0f, 0.3f}});
  // The sole is the band below 62% of the half-height; its edge angles get sharp pairs.
  const float soleSin = std::pow(0.62f, kRoundness * 0.5f);
  const float soleAngle = std::asin(soleSin);
  const float pi = std::numbers::pi_v<float>;
  Surface s = sweep(tubeSections(path, keys, style),
                    ringAngles(18, {pi + soleAngle, 2.0f * pi - soleAngle}));
  for (std::size_t v = 0; v < s.positions.size(); ++v)
    if (std::sin(s.angle[v]) < -soleSin - 0.001f) s.colors[v] = kSole;
  // Poles take their colour from their ring's colouring: the heel and toe tips stay shoe-red.
  mb.add(s, [&](const glm::vec3& p, std::size_t) {
    const float toe = smoothstep(0.085f, 0.15f, p.z);
    Weights w;
    w.add(b.toe, toe);
    w.add(b.foot, 1.0f - toe);
    return w;
  });
}

}  // namespace

formats::Mesh makeDemoMesh() {
  MeshBuilder mb;
  addTorso(mb);
  addNeck(mb);
  addHead(mb);
  addFace(mb);
  for (float side : {kLeft, kRight}) {
    addArm(mb, side);
    addHand(mb, side);
    addLeg(mb, side);
    addShoe(mb, side);
  }
  formats::Mesh m = mb.finish("mannequin");
  m.material = 0;
  return m;
}

}  // namespace marrow::demo
