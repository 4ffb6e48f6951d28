// `--animations FILE[,FILE…]` and `--bone-map FILE` for pose, info and render: the clips of other
// files (a model of their own: a skeleton and its clips) retargeted onto the model, names found
// through the map, exactly, then loosely (app/retarget.h).
#pragma once

#include "app/cli/cli.h"
#include "formats/io/json_writer.h"
#include "app/document.h"
#include "app/retarget.h"

namespace marrow::app::cli {

using formats::JsonWriter;

// When either option is given, doc.scene becomes the model with the retargeted clips and `out`
// says what was retargeted; otherwise nothing changes. False (after printing why) when a file
// cannot be read: a load error.
bool applyAnimationOptions(const Args& args, Document& doc, Retargeting& out);

// The clip a command uses when --clip is not given: the first retargeted from --animations when
// there is one, else -1 (the command's own default).
int firstRetargetedClip(const Retargeting& r);

// How a clip binds to the skeleton, added to a clip's JSON object: "matched_tracks",
// "unmatched_tracks" (tracks without a bone), "bones_without_track", and for a retargeted clip
// "retargeted": {"from", "rest_corrected", "size_ratio", "tracks": [{"track", "bone", "by"}]}.
// `withUnmatchedTracks` false leaves out "unmatched_tracks" (info writes it already).
void writeBinding(JsonWriter& j, const formats::Clip& clip, const formats::Skeleton& skeleton,
                  const RetargetedClip* retargeted, bool withUnmatchedTracks = true);

}  // namespace marrow::app::cli
