// marrow-cli render: the viewport's image of a model, offscreen.
#include <unistd.h>

#include <QGuiApplication>
#include <QImageWriter>
#include <QSaveFile>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "app/cli/animations.h"
#include "app/cli/common.h"
#include "app/frame_output.h"
#include "render/anim/morph.h"
#include "render/anim/springs.h"
#include "render/gl/offscreen.h"

namespace marrow::app::cli {
namespace {

bool hasDisplay() {
  return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") || std::getenv("QT_QPA_PLATFORM");
}

// OpenGL needs a display server; on a headless machine the render runs under xvfb-run.
void reexecUnderXvfb(int argc, char** argv) {
  if (hasDisplay() || std::getenv("MARROW_XVFB_CHILD")) return;
  setenv("MARROW_XVFB_CHILD", "1", 1);
  std::vector<std::string> storage = {"xvfb-run", "-a", "-s", "-screen 0 1280x1024x24"};
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  storage.push_back(n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string(argv[0]));
  for (int i = 1; i < argc; ++i) storage.emplace_back(argv[i]);
  std::vector<char*> cargv;
  for (auto& s : storage) cargv.push_back(s.data());
  cargv.push_back(nullptr);
  execvp("xvfb-run", cargv.data());
  // Only reached when xvfb-run is missing: carry on and let context creation report it.
}

bool parseSize(const std::string& s, int& w, int& h) {
  const auto x = s.find('x');
  if (x == std::string::npos) return false;
  try {
    std::size_t used = 0;
    w = std::stoi(s.substr(0, x), &used);
    if (used != x) return false;
    h = std::stoi(s.substr(x + 1), &used);
    if (used != s.size() - x - 1) return false;
  } catch (...) {
    return false;
  }
  return w >= 16 && h >= 16 && w <= 16384 && h <= 16384;
}

}  // namespace

int runRender(int argc, char** argv, const Args& args) {
  const std::string* out = args.option("-o");
  if (!out) return usageError("render", "no output image given (-o OUT.png)");
  int width = 1280, height = 720;
  if (const std::string* s = args.option("--size"); s && !parseSize(*s, width, height))
    return usageError("render", "--size is WIDTHxHEIGHT (16–16384), not '" + *s + "'");
  double time = 0.0, yaw = 25.0, pitch = 12.0, lod = 1.0;
  if (!numberOption(args, "--time", time) || !numberOption(args, "--yaw", yaw) ||
      !numberOption(args, "--pitch", pitch) || !numberOption(args, "--lod", lod))
    return kUsage;
  if (lod < 0.0 || lod > 1.0) return usageError("render", "--lod is between 0 and 1");

  anim::PlayMode mode;
  if (!playModeOption(args, mode)) return kUsage;
  // An image sequence (or an animated PNG) of the clip: --frames N and/or --fps F.
  double frameCount = 0.0, fps = 0.0;
  if (!numberOption(args, "--frames", frameCount) || !numberOption(args, "--fps", fps))
    return kUsage;
  const bool sequence = args.option("--frames") || args.option("--fps");
  if (sequence &&
      (frameCount != std::floor(frameCount) || frameCount < 0 || frameCount > kMaxFrames))
    return usageError("render",
                      "--frames is a whole number from 1 to " + std::to_string(kMaxFrames));
  if (args.option("--frames") && frameCount < 1)
    return usageError("render",
                      "--frames is a whole number from 1 to " + std::to_string(kMaxFrames));
  if (args.option("--fps") && !(fps > 0.0 && fps <= 1000.0))
    return usageError("render", "--fps is above 0 and at most 1000");
  const QString output = QString::fromStdString(*out);
  if (isAnimatedPngPath(output) && !sequence)
    return usageError("render", "an animated PNG (.apng) needs --frames N or --fps F");

  reexecUnderXvfb(argc, argv);
  render::setDefaultSurfaceFormat();
  int qtArgc = 1;
  char* qtArgv[] = {argv[0], nullptr};
  QGuiApplication app(qtArgc, qtArgv);

  auto doc = loadInputs(args, Textures::Decode);
  if (!doc) return kLoadError;
  Retargeting retargeting;
  if (!applyAnimationOptions(args, *doc, retargeting)) return kLoadError;
  const formats::Scene& s = *doc->scene;
  int clipIndex = -1;
  if (!chooseClip(args, s, clipIndex)) return kUsage;
  if (!args.option("--clip") && firstRetargetedClip(retargeting) >= 0)
    clipIndex = firstRetargetedClip(retargeting);
  const formats::Clip* clip = clipIndex >= 0 ? &s.clips[clipIndex] : nullptr;
  std::vector<double> playheads = {time};
  FramePlan plan;
  if (sequence) {
    if (!clip) return usageError("render", "--frames and --fps need a clip; the model has none");
    FramePlanResult r = planFrames(clip->duration, mode, static_cast<int>(frameCount), fps, time);
    if (!r.error.empty()) return usageError("render", r.error);
    plan = std::move(r.plan);
    playheads = plan.playheads;
  }
  const auto clipTimeAt = [&](double playhead) {
    return clip ? anim::clipTime(static_cast<float>(playhead), clip->duration, mode) : 0.0f;
  };
  const bool looping = mode == anim::PlayMode::Loop;

  render::OffscreenGL gl;
  std::string error;
  if (!gl.create(&error)) {
    std::fprintf(stderr, "marrow-cli: render: %s\n", error.c_str());
    return kLoadError;
  }
  render::Renderer renderer;
  if (!renderer.initialize(gl.context(), &error)) {
    std::fprintf(stderr, "marrow-cli: render: %s\n", error.c_str());
    return kLoadError;
  }
  renderer.setScene(doc->scene, doc->textures);
  // --springs: cal3d cloth simulated along the clip (afresh for the first image, continued from
  // one image of a sequence to the next), as the viewer's View › Simulate Springs plays it.
  std::optional<anim::ClothPlayback> cloth;
  if (args.has("--springs")) cloth.emplace(s);
  const auto poseAt = [&](float t) {
    renderer.setPose(anim::evaluate(s.skeleton, clip, t, looping));
    if (cloth) {
      cloth->moveTo(t, clip ? clip->duration : 0.0f, looping,
                    [&](float x) { return anim::evaluate(s.skeleton, clip, x, looping); });
      for (std::size_t k = 0; k < cloth->meshes().size(); ++k)
        renderer.setPlacedVertices(cloth->meshes()[k], cloth->positions(k), cloth->normals(k));
    }
    if (clip) {
      std::vector<std::vector<float>> weights;
      anim::sampleMorphWeights(*clip, t, s.meshes, weights);
      for (std::size_t m = 0; m < weights.size(); ++m)
        if (!weights[m].empty()) renderer.setMorphWeights(m, weights[m]);
    }
  };
  renderer.setBodiesVisible(!args.has("--no-bodies"));
  for (std::size_t m = 0; m < s.meshes.size() && lod < 1.0; ++m)
    renderer.setLevelOfDetail(m, static_cast<float>(lod));
  std::vector<bool> drawn;
  if (!levelOption(args, s, drawn)) return kUsage;
  for (std::size_t m = 0; m < drawn.size(); ++m) renderer.setMeshVisible(m, drawn[m]);

  render::ViewOptions view;
  view.wireframe = args.has("--wireframe");
  view.showGrid = !args.has("--no-grid");
  // As the viewer shows it: the overlay off, except for a model of bones only.
  view.showSkeleton = args.has("--skeleton");
  view.skeletonWhenNoMeshes = !args.has("--no-skeleton");
  if (const std::string* b = args.option("--bone")) {
    view.selectedBone = s.skeleton.find(*b);
    view.showSkeleton = true;
  }
  // One camera for every frame, framing all of them: a sequence does not jump about.
  render::Bounds b;
  for (double p : playheads) {
    poseAt(clipTimeAt(p));
    const render::Bounds f = renderer.poseBounds();
    if (!f.valid) continue;
    b.lo = b.valid ? glm::min(b.lo, f.lo) : f.lo;
    b.hi = b.valid ? glm::max(b.hi, f.hi) : f.hi;
    b.valid = true;
  }
  render::Camera camera;
  camera.setAngles(static_cast<float>(yaw), static_cast<float>(pitch));
  camera.frame(b.center(), b.radius());
  if (cloth) cloth->restart();  // the images start afresh, not from where framing left the cloth

  const bool animated = sequence && isAnimatedPngPath(output);
  ApngWriter apng(plan.fps);
  for (std::size_t k = 0; k < playheads.size(); ++k) {
    poseAt(clipTimeAt(playheads[k]));
    const QImage image = gl.render(renderer, camera, width, height, view);
    if (image.isNull()) {
      renderer.release();
      std::fprintf(stderr, "marrow-cli: render: frame %zu could not be drawn\n", k + 1);
      return kLoadError;
    }
    if (animated) {
      std::string why;
      if (!apng.add(image, &why)) {
        renderer.release();
        std::fprintf(stderr, "marrow-cli: %s: %s\n", out->c_str(), why.c_str());
        return kLoadError;
      }
      continue;
    }
    const QString path = sequence ? framePath(output, static_cast<int>(k) + 1) : output;
    QImageWriter writer(path);
    if (!writer.write(image)) {
      renderer.release();
      std::fprintf(stderr, "marrow-cli: %s: %s\n", path.toStdString().c_str(),
                   writer.errorString().toStdString().c_str());
      return kLoadError;
    }
  }
  renderer.release();
  if (animated) {
    const std::vector<std::byte> bytes = apng.finish();
    QSaveFile file(output);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<qint64>(bytes.size())) != static_cast<qint64>(bytes.size()) ||
        !file.commit()) {
      std::fprintf(stderr, "marrow-cli: %s: %s\n", out->c_str(),
                   file.errorString().toStdString().c_str());
      return kLoadError;
    }
  }
  if (sequence)
    std::printf("%zu frames at %g fps: %s\n", playheads.size(), plan.fps,
                animated ? out->c_str()
                         : (framePath(output, 1) + QStringLiteral(" … ") +
                            framePath(output, static_cast<int>(playheads.size())))
                               .toStdString()
                               .c_str());
  printDiagnostics(s.diagnostics);
  return kOk;
}

}  // namespace marrow::app::cli
