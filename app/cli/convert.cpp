// marrow-cli convert: any model Marrow reads, written in another format.
#include <cstdio>
#include <fstream>

#include <QFileInfo>

#include "app/cli/common.h"
#include "formats/omf/omf.h"

namespace marrow::app::cli {

int runConvert(const Args& args) {
  const std::string* out = args.option("-o");
  if (!out) return usageError("convert", "no output given (-o OUTPUT)");
  const QString ext = QFileInfo(QString::fromStdString(*out)).suffix().toLower();
  if (ext != QLatin1String("omf"))
    return usageError("convert", "cannot write '." + ext.toStdString() +
                                     "' files yet; the output formats are: .omf");
  auto doc = loadInputs(args);
  if (!doc) return kLoadError;
  formats::Diagnostics diag;
  auto bytes = formats::writeOmf(*doc->scene, diag);
  for (auto& d : diag.items)
    if (d.file.empty()) d.file = *out;  // what the writer could not keep, said of the output
  printDiagnostics(diag);
  if (!bytes) {
    std::fprintf(stderr, "marrow-cli: %s\n", bytes.error().describe().c_str());
    return kLoadError;
  }
  std::ofstream f(*out, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
  f.close();
  if (!f) {
    std::fprintf(stderr, "marrow-cli: %s: could not be written\n", out->c_str());
    return kLoadError;
  }
  std::fprintf(stderr, "wrote %s (%zu bytes)\n", out->c_str(), bytes->size());
  return kOk;
}

}  // namespace marrow::app::cli
