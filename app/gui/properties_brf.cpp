// The Properties dock for BRF records that are not part of a model on their own: textures and
// shaders (materials show as the model's materials, meshes and the rest as the model).
#include <QLabel>
#include <QTreeWidget>

#include "app/gui/docks.h"

namespace marrow::app {

namespace brf = formats::brf;

namespace {

constexpr int kThumbnail = 128;

QString str(const std::string& s) { return QString::fromStdString(s); }
QString hex(std::uint32_t v) { return QStringLiteral("0x%1").arg(v, 0, 16); }

}  // namespace

void PropertiesDock::addThumbnail(QTreeWidgetItem* item, const QImage& image) {
  auto* row = new QTreeWidgetItem(item, {tr("%1 × %2").arg(image.width()).arg(image.height())});
  auto* label = new QLabel;
  label->setPixmap(QPixmap::fromImage(
      image.scaled(kThumbnail, kThumbnail, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
  label->setToolTip(item->text(1));
  tree_->setItemWidget(row, 1, label);
}

void PropertiesDock::showBrfRecord(const Document& doc, const brf::RecordRef& r) {
  tree_->clear();
  if (r.source >= doc.brf.size()) return;
  const brf::Source& src = doc.brf[r.source];
  const auto add = [this](const QString& name, const QString& value, QTreeWidgetItem* under = nullptr) {
    return under ? new QTreeWidgetItem(under, {name, value}) : new QTreeWidgetItem(tree_, {name, value});
  };
  add(tr("File"), str(src.name));
  add(tr("Kind"), QString::fromLatin1(brf::kindName(r.kind)));
  if (r.kind == brf::Section::Texture && r.index < src.doc->textures.size()) {
    const brf::Texture& t = src.doc->textures[r.index];
    add(tr("Name"), str(t.name));
    add(tr("Flags"), hex(t.flags));
    add(tr("Frames"), t.frames() > 0 ? tr("%1 (animated: %2_0.dds …)").arg(t.frames()).arg(str(t.name).chopped(4))
                                     : tr("none"));
    // The model's materials fetched the image if any of them names it.
    const auto& textures = doc.scene->textures;
    auto* image = add(tr("Image"), tr("not used by the model's materials"));
    for (std::size_t i = 0; i < textures.size(); ++i) {
      if (textures[i].name != t.name) continue;
      const bool decoded = i < doc.textures.size() && !doc.textures[i].isNull();
      image->setText(1, textures[i].data.empty() ? tr("not found") : str(textures[i].path));
      if (decoded) addThumbnail(image, doc.textures[i]);
      break;
    }
  } else if (r.kind == brf::Section::Shader && r.index < src.doc->shaders.size()) {
    const brf::Shader& s = src.doc->shaders[r.index];
    add(tr("Name"), str(s.name));
    add(tr("Technique"), str(s.technique));
    add(tr("Fallback"), s.fallback ? str(*s.fallback) : tr("none"));
    add(tr("Flags"), hex(s.flags));
    add(tr("Requires"), hex(s.requirements));
    auto* stages = add(tr("Texture stages"), QString::number(s.stages.size()));
    for (std::size_t k = 0; k < s.stages.size(); ++k) {
      const brf::ShaderStage& st = s.stages[k];
      add(tr("Stage %1").arg(k),
          tr("map %1, colour op %2, alpha op %3, flags %4")
              .arg(st.map).arg(hex(st.colorOp), hex(st.alphaOp), hex(st.flags)),
          stages);
    }
  } else {
    add(tr("Name"), str(brf::recordName(src, r.kind, r.index)));
  }
  tree_->expandAll();
}

}  // namespace marrow::app
