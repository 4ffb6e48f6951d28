# Runs inside Blender: blender -b --factory-startup --python blender_gltf.py -- IN.glb OUT.glb FPS [POSES.json]
# Imports IN.glb with Blender's own glTF importer with the scene at FPS frames per second (the
# clips' rate, so that the export samples them on their own frames), exports OUT.glb with Blender's
# own glTF exporter at its defaults, then poses the armature as Blender plays each clip asked for
# in POSES.json ([{"clip": NAME, "times": [seconds...]}]). Prints one line "BLENDER {json}":
# armatures and their bones, actions and their frame ranges, and per clip and time each bone's
# head in glTF's coordinates (Y up: Blender's (x, y, z) is glTF's (x, z, -y)).
import json
import math
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
source, target, fps = argv[0], argv[1], float(argv[2])
requests = json.load(open(argv[3])) if len(argv) > 3 else []

scene = bpy.context.scene
scene.render.fps = max(1, round(fps))
scene.render.fps_base = scene.render.fps / fps
# Debian's Blender 3.4.1 with numpy 1.24: the importer's default shading path calls np.bool,
# which numpy removed; the smooth path does not.
bpy.ops.import_scene.gltf(filepath=source, import_shading="SMOOTH")

report = {"armatures": [], "actions": [], "poses": []}
armature = None
for obj in bpy.data.objects:
    if obj.type == "ARMATURE":
        armature = armature or obj
        report["armatures"].append({"name": obj.name, "bones": [b.name for b in obj.data.bones]})
for action in bpy.data.actions:
    report["actions"].append({"name": action.name, "frames": list(action.frame_range)})

bpy.ops.export_scene.gltf(filepath=target, export_format="GLB")

# The importer gives each glTF animation an NLA track of its name, holding the action.
if armature is not None and armature.animation_data is not None:
    tracks = {t.name: t for t in armature.animation_data.nla_tracks}
    for t in armature.animation_data.nla_tracks:
        t.mute = True
    for request in requests:
        track = tracks.get(request["clip"])
        if track is None or not track.strips:
            report["poses"].append({"clip": request["clip"], "missing": True})
            continue
        armature.animation_data.action = track.strips[0].action
        for time in request["times"]:
            frame = time * fps
            whole = math.floor(frame)
            scene.frame_set(int(whole), subframe=frame - whole)
            heads = {}
            for pb in armature.pose.bones:
                p = armature.matrix_world @ pb.head
                heads[pb.name] = [p.x, p.z, -p.y]
            report["poses"].append({"clip": request["clip"], "time": time, "bones": heads})
print("BLENDER " + json.dumps(report))
