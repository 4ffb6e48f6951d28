#!/usr/bin/env python3
"""Marrow -> glTF -> Blender -> glTF -> Marrow, in Debian's real Blender (headless).

usage: round_trip_test.py MARROW_CLI BLENDER FIXTURES_DIR WORK_DIR

For each model (the demo character, and fixtures: a cal3d character, BRF armour on Warband's
skeleton, a Dragon Nest character) Marrow writes a .glb, Blender's own importer reads it with the
scene at the clips' frame rate and Blender's own exporter writes it back, and Marrow reads that.
What comes back must have the source's bones (names, parents, order), its clips (names,
durations) and its poses: every bone where the source has it, within 1e-4 of the model's size, at
frames and between them. A table of the figures is printed. Exit 77 (skipped) when Blender or a
fixture is missing, unless CI=true, where that fails.
"""
import json
import math
import os
import subprocess
import sys

CLI, BLENDER, FIXTURES, WORK = sys.argv[1:5]
HERE = os.path.dirname(os.path.abspath(__file__))
IN_CI = os.environ.get("CI") == "true"
TOLERANCE = 1e-4  # of the model's size

# name, inputs (fixtures relative to FIXTURES), the clips to write (None: all; else named with
# --clip, which must restrict the .glb to them: the whole of Warband's anim_human lasts 3,333 s)
MODELS = [
    ("demo", [":demo"], None),
    ("paladin", ["cal3d/paladin/paladin.cfg"], None),
    ("boots on skel_human", ["brf/wfas_boots_a.brf", "brf/wfas_skeletons.brf", "brf/wfas_ani_walk_backward.brf"],
     ["walk_backward", "anim_human:0-120", "anim_human:270-290"]),
]

failures = []
# Debian's Blender runs the system's Python, whose home it finds through the first python3 on
# PATH: another python3 first (a pyenv or a virtual environment) hides the system's numpy.
BLENDER_ENV = dict(os.environ, PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))


def fail(message):
    failures.append(message)
    print("FAIL: " + message, flush=True)


def skip(message):
    print("SKIP: " + message, flush=True)
    sys.exit(1 if IN_CI else 77)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s exited %d:\n%s\n%s" % (" ".join(cmd), r.returncode, r.stdout[-3000:], r.stderr[-3000:]))
    return r.stdout


def info(inputs):
    return json.loads(run([CLI, "info", "--json"] + inputs))


def pose(inputs, clip, time):
    out = json.loads(run([CLI, "pose", "--json", "--space", "display", "--clip", clip, "--time", repr(time)] + inputs))
    return out


def bone_positions(p):
    return {b["name"]: b["model"][12:15] for b in p["bones"]}


def size_of(p):
    lo = [math.inf] * 3
    hi = [-math.inf] * 3
    for m in p["meshes"]:
        for v in m["vertices"]:
            pos = v["position"] if isinstance(v, dict) else v[:3]
            for k in range(3):
                lo[k] = min(lo[k], pos[k])
                hi[k] = max(hi[k], pos[k])
    return math.dist(lo, hi) if lo[0] <= hi[0] else 1.0


def main():
    if not os.path.exists(BLENDER):
        skip("Blender is not installed (Debian: blender; scripts/deps.sh test installs it)")
    os.makedirs(WORK, exist_ok=True)
    rows = []
    for name, relative, keep in MODELS:
        inputs = [i if i.startswith(":") else os.path.join(FIXTURES, i) for i in relative]
        missing = [i for i in inputs if not i.startswith(":") and not os.path.exists(i)]
        if missing:
            skip("fixture %s is absent" % missing[0])
        source = info(inputs)
        clips = [c for c in source["clips"] if keep is None or c["name"] in keep]
        if keep is not None and len(clips) != len(keep):
            fail("%s: the source has %d of the clips %s" % (name, len(clips), keep))
        stem = os.path.join(WORK, name.replace(" ", "_"))
        convert = [CLI, "convert"] + inputs + ["-o", stem + ".glb"]
        for c in clips if keep is not None else []:
            convert += ["--clip", c["name"]]
        run(convert)
        fps = clips[0]["frame_rate"] if clips else 30.0
        # The times posed: frames, and between frames (where the keys put in between for
        # component-wise interpolation matter).
        times = {}
        for c in clips[:3]:
            frames = max(1, round(c["duration"] * c["frame_rate"]))
            on = sorted({0.0, (frames // 2) / c["frame_rate"], (frames - 1) / c["frame_rate"]})
            between = sorted({(frames // 3 + 0.5) / c["frame_rate"], (frames // 5 + 0.25) / c["frame_rate"]})
            times[c["name"]] = (on, between)
        with open(stem + ".poses.json", "w") as f:
            json.dump([{"clip": c, "times": on + between} for c, (on, between) in times.items()], f)
        out = run([BLENDER, "-b", "--factory-startup", "--python", os.path.join(HERE, "blender_gltf.py"), "--",
                   stem + ".glb", stem + ".blender.glb", repr(fps), stem + ".poses.json"], env=BLENDER_ENV)
        line = next((l for l in out.splitlines() if l.startswith("BLENDER ")), None)
        if line is None:
            fail("%s: Blender printed no report:\n%s" % (name, out[-2000:]))
            continue
        in_blender = json.loads(line[len("BLENDER "):])
        back = info([stem + ".blender.glb"])

        # The skeleton: the same bones, names, parents and order.
        src_bones = [(b["name"], b["parent"]) for b in source["skeleton"]["bones"]]
        back_bones = [(b["name"], b["parent"]) for b in back["skeleton"]["bones"]]
        if src_bones != back_bones:
            extra = [b for b in back_bones if b not in src_bones][:5]
            lost = [b for b in src_bones if b not in back_bones][:5]
            fail("%s: %d bones came back for %d (extra %s, lost %s)" % (name, len(back_bones), len(src_bones), extra, lost))
        blender_bones = in_blender["armatures"][0]["bones"] if in_blender["armatures"] else []
        if sorted(blender_bones) != sorted(b for b, _ in src_bones):
            fail("%s: Blender's armature has %d bones for %d" % (name, len(blender_bones), len(src_bones)))

        # The clips: those written and no others, their names and durations (half a frame at most,
        # as Blender samples on frames).
        back_clips = {c["name"]: c for c in back["clips"]}
        if len(back_clips) != len(clips):
            fail("%s: %d clips came back for the %d written" % (name, len(back_clips), len(clips)))
        worst_duration = 0.0
        for c in clips:
            b = back_clips.get(c["name"])
            if b is None:
                fail("%s: clip '%s' did not come back (back: %s)" % (name, c["name"], sorted(back_clips)[:8]))
                continue
            worst_duration = max(worst_duration, abs(b["duration"] - c["duration"]))
            if abs(b["duration"] - c["duration"]) > 0.5 / c["frame_rate"] + 1e-5:
                fail("%s: clip '%s' lasts %.4f s, the source %.4f s" % (name, c["name"], b["duration"], c["duration"]))

        # The poses, as Blender plays the import (frames and between), and as Marrow plays what
        # Blender exported (on frames: the export samples frames, and between them it is its own
        # interpolation of those samples, which is reported).
        sources = {}
        size = 1.0
        for c, (on, between) in times.items():
            for t in on + between:
                a = pose(inputs, c, t)
                sources[(c, t)] = bone_positions(a)
                size = max(size if size != 1.0 else 0.0, size_of(a))

        def worst_of(positions, keys, label):
            w, where = 0.0, None
            for key in keys:
                for bone, p in sources[key].items():
                    if bone in positions.get(key, {}):
                        d = math.dist(p, positions[key][bone]) / size
                        if d > w:
                            w, where = d, (key[0], round(key[1], 5), bone)
            if where:
                print("%s, %s: worst %.2g at clip '%s', %s s, bone '%s'" % (name, label, w, *where))
            return w

        played = {}
        for p in in_blender["poses"]:
            if p.get("missing"):
                fail("%s: Blender has no action for clip '%s'" % (name, p["clip"]))
            else:
                played[(p["clip"], p["time"])] = p["bones"]
        worst_in_blender = worst_of(played, [k for k in sources if k in played], "posed in Blender")
        if len(played) != len(sources):
            fail("%s: Blender posed %d of %d times" % (name, len(played), len(sources)))
        returned = {}
        for c, (on, between) in times.items():
            if c in back_clips:
                for t in on + between:
                    returned[(c, t)] = bone_positions(pose([stem + ".blender.glb"], c, t))
        worst_back = worst_of(returned, [(c, t) for c, (on, _) in times.items() for t in on if (c, t) in returned], "back, on frames")
        worst_back_between = worst_of(returned, [(c, t) for c, (_, between) in times.items() for t in between if (c, t) in returned],
                                      "back, between frames")
        if worst_in_blender > TOLERANCE:
            fail("%s: Blender plays the bones %.2g of the model's size from Marrow's pose" % (name, worst_in_blender))
        if worst_back > TOLERANCE:
            fail("%s: on frames, what Blender exported poses %.2g of the model's size from the source" % (name, worst_back))
        rows.append((name, len(src_bones), len(blender_bones), len(back_bones), len(clips), worst_duration,
                     worst_in_blender, worst_back, worst_back_between))

    print("| model | bones | in Blender | back | clips | worst duration change (s) | posed in Blender | back, on frames | back, between frames |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %d | %d | %d | %d | %.2g | %.2g | %.2g | %.2g |" % r)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
