// An open model: the files it came from, the merged scene, its decoded textures. Loading is a
// plain function so that the GUI can run it off the GUI thread and the CLI can run it directly.
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

#include "formats/format.h"
#include "formats/io/result.h"
#include "formats/io/vfs.h"
#include "formats/model/scene.h"
#include "render/anim/skinning.h"

namespace marrow::app {

// The demo character compiled into the programs (written by the project's OMF writer).
inline const QString kDemoPath = QStringLiteral(":/demo/demo.omf");

struct Document {
  QStringList paths;                               // as given: disk paths or ":/" resources
  std::shared_ptr<const formats::Scene> scene;
  std::vector<QImage> textures;                    // one per scene->textures entry; null if absent
  // What of the files can be browsed (formats/io/vfs.h): the archives given (paks, one file
  // system), the BRF files read with all their records.
  formats::vfs::FileSystem archives;
  // Read as the frames of one vertex animation (LoadOptions::asFrames): a reload reads them so.
  bool asFrames = false;
  // The skeleton (an address: "skeletons.brf::skel_human") the model was rigged onto (File ›
  // Rig onto Skeleton, app/rig.h): the scene is made from the files, no longer their records,
  // and a reload rigs it again. Empty: the files as read.
  QString rig;
  // The scene's skin influences packed for drawing (anim::packScene), made by the load when
  // LoadOptions::packInfluences asks; null: whoever draws packs them.
  std::shared_ptr<const anim::PackedScene> packed;
  QString title() const;                           // "cally.csf + 3 more"
  // What writers write from: the scene, the archives, the paths as given (a rigged model or
  // files joined as frames: the scene alone).
  formats::WriteSource writeSource() const;
};

// Reads every file (disk paths, or Qt resource paths starting with ":/"), merges them into one
// model (files with a skeleton first) and decodes the textures the materials name, looking
// beside the file that named them. Safe to call from any thread.
// How much of the textures a caller needs: none (posing, converting), the files found (info
// says which are missing), or decoded images (drawing).
enum class Textures { Skip, Find, Decode };

// Where files in a format whose descriptor says readInChildProcess (everything assimp reads) are
// read. assimp (Debian's 5.2.5) has known memory-safety bugs, so the viewer never runs it on a
// user's file in its own process: `marrow-cli import-child` reads the file, fetching its textures by the
// same rules, and hands back a lossless snapshot of the scene (formats/snapshot/snapshot.h); a
// crash, a hang or a failure there is a load error naming the file, and nothing else changes.
enum class AssimpImport {
  Auto,       // Child in the viewer (the application is a QApplication), else InProcess
  InProcess,  // marrow-cli itself, which is the child, and the libraries' tests
  Child,
};

struct LoadOptions {
  Textures textures = Textures::Decode;
  AssimpImport assimp = AssimpImport::Auto;
  // Polled while an import process runs (a few times a second): true kills it and the load
  // fails with "cancelled".
  std::function<bool()> cancelled;
  // An import process that has not finished by then is killed and the load fails.
  int importTimeoutMs = 10 * 60 * 1000;
  // The code page of names in archives and legacy files (formats::LoadOptions::codepage); empty:
  // detected.
  std::string codepage{};
  // Damaged files give what was read before the damage (formats::LoadOptions::partial).
  bool partial = false;
  // The paths are the frames of one vertex animation (formats::LoadOptions::asFrames), their
  // numbers counting frames at framesPerSecond.
  bool asFrames = false;
  float framesPerSecond = 30.0f;
  // Packs the scene's skin influences too (Document::packed): the viewer's load does, off the
  // GUI thread, so that showing the model only uploads them.
  bool packInfluences = false;
};

formats::Result<Document> loadDocument(const QStringList& paths, Textures textures = Textures::Decode);
formats::Result<Document> loadDocument(const QStringList& paths, const LoadOptions& options);

// The program that imports assimp formats for the viewer: $MARROW_CLI when set, else marrow-cli
// beside the running program, else marrow-cli on PATH; empty when there is none.
QString importProgram();

// What `marrow-cli import-child` runs: the one model file `paths` name (a disk file, or an
// ARCHIVE.pak::entry with the .pak files of its file system) read in this process exactly as
// loadDocument reads it, validated.
formats::Result<formats::Scene> readImportInput(const QStringList& paths, Textures textures);

// The scene's textures decoded as loadDocument does (one per scene.textures entry, null where
// absent or undecodable, with a diagnostic in scene.diagnostics): for a scene made after loading,
// such as the records of an open BRF file.
std::vector<QImage> decodeTextures(formats::Scene& scene);
// One texture decoded so (null when absent or undecodable, with a diagnostic in `diagnostics`).
QImage decodeTexture(const formats::Texture& texture, formats::Diagnostics& diagnostics);

// The model one node of the archives makes on its own (formats::readNode: a record as its
// archive shows it picked, an entry with its lookups in every archive), read in this process or,
// for formats read in a child process, as loadDocument reads them; its textures fetched, not
// decoded.
formats::Result<formats::Scene> readNode(const formats::vfs::FileSystem& archives, std::size_t archive,
                                         const std::string& path, const LoadOptions& options = {});

}  // namespace marrow::app
