// Every model exported as .glb passes the Khronos glTF validator (npm gltf-validator) with no
// error. The validator is installed into the build tree on first use; the test skips, saying so,
// only when node or npm is missing or the registry cannot be reached.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "formats/gltf/gltf_writer.h"
#include "gltf_models.h"

namespace marrow {
namespace {

namespace fs = std::filesystem;
const std::string kTools = MARROW_GLTF_TOOLS_DIR;

std::string run(const std::string& command, int& status) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) {
    status = -1;
    return out;
  }
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  status = pclose(p);
  return out;
}

// Installs gltf-validator under kTools once (a lock keeps parallel tests from racing); empty
// when it is there, else why it cannot be.
std::string ensureValidator() {
  int status = 0;
  if (run("command -v node >/dev/null && command -v npm >/dev/null", status), status != 0)
    return "node or npm is not installed (scripts/deps.sh test installs them)";
  fs::create_directories(kTools);
  const std::string log = kTools + "/npm-install.log";
  run("cd '" + kTools + "' && flock .lock sh -c 'test -d node_modules/gltf-validator || "
      "timeout 300 npm install --prefix . --no-audit --no-fund gltf-validator' > '" + log +
          "' 2>&1",
      status);
  if (fs::exists(kTools + "/node_modules/gltf-validator/package.json")) return {};
  std::ifstream f(log);
  std::string why((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return "npm could not install gltf-validator (is the registry reachable?): " + why;
}

class GltfValidator : public testing::TestWithParam<const char*> {};

TEST_P(GltfValidator, ExportedGlbHasNoErrors) {
  std::string skip;
  auto scene = gltf_testing::loadExportModel(GetParam(), skip);
  if (!scene) GTEST_SKIP() << skip;
  ASSERT_TRUE(scene->ok()) << scene->error().describe();
  formats::Diagnostics diagnostics;
  auto glb = formats::writeGlb(**scene, diagnostics);
  ASSERT_TRUE(glb) << glb.error().describe();

  if (const std::string why = ensureValidator(); !why.empty()) GTEST_SKIP() << why;
  const std::string path = kTools + "/" + GetParam() + ".glb";
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(glb->data()), static_cast<std::streamsize>(glb->size()));
  }
  int status = 0;
  const std::string report =
      run("node '" MARROW_GLTF_VALIDATE_JS "' '" + kTools + "' '" + path + "' 2>&1", status);
  std::printf("[ validator ] %s: %s\n", GetParam(), report.substr(0, 400).c_str());
  ASSERT_EQ(status, 0) << report;
  EXPECT_NE(report.find("\"errors\":0,"), std::string::npos) << report;
}

INSTANTIATE_TEST_SUITE_P(Models, GltfValidator, testing::ValuesIn(gltf_testing::kExportModels));

}  // namespace
}  // namespace marrow
