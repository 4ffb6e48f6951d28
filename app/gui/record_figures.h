// The key figures of a BRF record, as the archive tree shows them beside its name.
#pragma once

#include <QStringList>

#include <cstddef>

#include "formats/brf/brf.h"

namespace marrow::app {

// The figure columns after the name: size, animation, what the record uses.
enum RecordColumn { kSizeColumn = 1, kAnimationColumn = 2, kUsesColumn = 3, kRecordColumns = 4 };

// One text per figure column (kSizeColumn.. in order) for record `index` of kind `kind`.
QStringList recordFigures(const formats::brf::Source& source, formats::brf::Section kind,
                          std::size_t index);

// "Meshes", "Skeletons", … as the group rows name them.
QString kindTitle(formats::brf::Section kind);

}  // namespace marrow::app
