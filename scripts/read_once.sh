#!/usr/bin/env bash
# Command to model on one file, as a user meets it: each read in a fresh process (its first big
# allocations and page faults included), Marrow's (formats::loadFile, what `marrow-cli info`
# waits for) and assimp's plain ReadFile (no post-processing) taking turns, RUNS times each
# (default 5); then the medians, their ratio and the peak resident memory against the file's
# size. Needs a Release build (scripts/build.sh marrow_read_once marrow-cli).
# Usage: scripts/read_once.sh FILE [RUNS]      scripts/read_once.sh tube [RUNS]
# "tube" writes the generated skinned tube of issue 18 (500,000 vertices, 64 bones) first.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/tests/bench/marrow_read_once
cli=build/app/marrow-cli
[[ -x $bin && -x $cli ]] || { echo "build first: scripts/build.sh marrow_read_once marrow-cli" >&2; exit 2; }
file=${1:?usage: scripts/read_once.sh FILE|tube [RUNS]}
runs=${2:-5}
if [[ $file == tube ]]; then
  file=${TMPDIR:-/tmp}/marrow_read_once_tube.glb
  [[ -f $file ]] || "$bin" tube "$file"
fi
[[ -f $file ]] || { echo "no such file: $file" >&2; exit 2; }

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
declare -A ms kb
wall=()
for ((i = 0; i < runs; ++i)); do
  for reader in marrow assimp; do
    read -r _ t _ m _ < <("$bin" "$reader" "$file")
    ms[$reader]+="$t "
    kb[$reader]+="$m "
  done
  start=$(date +%s%N)
  "$cli" info "$file" > /dev/null
  wall+=("$(( ($(date +%s%N) - start) / 1000000 ))")
done
size=$(stat -c %s "$file")
mm=$(tr ' ' '\n' <<< "${ms[marrow]}" | grep . | median)
am=$(tr ' ' '\n' <<< "${ms[assimp]}" | grep . | median)
mk=$(tr ' ' '\n' <<< "${kb[marrow]}" | grep . | median)
ak=$(tr ' ' '\n' <<< "${kb[assimp]}" | grep . | median)
wm=$(printf '%s\n' "${wall[@]}" | median)
echo "$file ($size bytes), median of $runs fresh processes each:"
echo "  marrow  ${mm} ms to the model, peak ${mk} kB ($(awk -v k="$mk" -v s="$size" 'BEGIN {printf "%.2f", k * 1024 / s}')× the file)   runs: ${ms[marrow]}"
echo "  assimp  ${am} ms to the scene, peak ${ak} kB ($(awk -v k="$ak" -v s="$size" 'BEGIN {printf "%.2f", k * 1024 / s}')× the file)   runs: ${ms[assimp]}"
echo "  marrow / assimp: $(awk -v a="$mm" -v b="$am" 'BEGIN {printf "%.2f", a / b}')× the time"
echo "  marrow-cli info, the whole command: ${wm} ms wall   runs: ${wall[*]}"
