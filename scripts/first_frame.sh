#!/usr/bin/env bash
# The viewer's first frame counted from the command, as a user meets it: `marrow FILE
# --screenshot PICTURE --after 0` (the process's start, the window, the read, the model's first
# frame, the picture saved, the exit), RUNS times (default 7), taking turns with assimp's plain
# ReadFile of the same file in a fresh process (`marrow_read_once assimp`); then the medians and
# their ratio (issue 18 asks for at most 2×), and the ratio within each turn (its median and
# worst: this machine's speed drifts, the runs of one turn share a minute). A second viewer
# (another build's) takes turns too.
# Needs a Release build (scripts/build.sh marrow marrow_read_once) and an X display: without
# DISPLAY one Xvfb is started for the whole run, so that its start is not counted. Each run has
# settings of its own (a fresh XDG_CONFIG_HOME): the default window, no recent files.
# Usage: scripts/first_frame.sh FILE|tube [RUNS] [OTHER_VIEWER]
# "tube" writes the generated skinned tube of issue 18 (500,000 vertices, 64 bones) first.
set -euo pipefail
export LC_ALL=C  # EPOCHREALTIME and awk agree on the decimal point
file=${1:?usage: scripts/first_frame.sh FILE|tube [RUNS] [OTHER_VIEWER]}
runs=${2:-7}
other=${3:-}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number: $runs" >&2; exit 2; }
[[ $file == tube ]] || file=$(realpath -- "$file")  # paths as given, from where the script was run
if [[ -n $other ]]; then
  other=$(realpath -- "$other")
  [[ -x $other ]] || { echo "not a program: $other" >&2; exit 2; }
fi
cd "$(dirname "$0")/.."
viewer=$PWD/build/app/marrow
reader=$PWD/build/tests/bench/marrow_read_once
[[ -x $viewer && -x $reader ]] || { echo "build first: scripts/build.sh marrow marrow_read_once" >&2; exit 2; }
if [[ $file == tube ]]; then
  file=${TMPDIR:-/tmp}/marrow_read_once_tube.glb
  [[ -f $file ]] || "$reader" tube "$file"
fi
[[ -f $file ]] || { echo "no such file: $file" >&2; exit 2; }

work=$(mktemp -d)
xvfb=
cleanup() {
  if [[ -n $xvfb ]]; then kill "$xvfb" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
if [[ -z ${DISPLAY:-} ]]; then
  command -v Xvfb > /dev/null || { echo "no DISPLAY and no Xvfb (scripts/deps.sh test installs it)" >&2; exit 2; }
  # Xvfb picks a free display itself and says which once it listens.
  Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp 3> "$work/display" > /dev/null 2>&1 &
  xvfb=$!
  for _ in $(seq 100); do [[ -s $work/display ]] && break; sleep 0.1; done
  [[ -s $work/display ]] || { echo "Xvfb did not start" >&2; exit 2; }
  export DISPLAY=":$(head -1 "$work/display")"
fi

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# Milliseconds of one command, started and waited for here.
wall() {
  local start=$EPOCHREALTIME
  "$@" > "$work/out" 2>&1 || { echo "failed: $*" >&2; cat "$work/out" >&2; exit 1; }
  awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN {printf "%d", (e - s) * 1000}'
}
viewers=("$viewer")
[[ -n $other ]] && viewers+=("$other")
declare -A ms turn
for ((i = 0; i < runs; ++i)); do
  declare -A this=()
  for v in "${viewers[@]}"; do
    rm -rf "$work/config"  # every run as the first: no recent files, the default window
    this[$v]=$(XDG_CONFIG_HOME=$work/config wall "$v" "$file" --screenshot "$work/shot.png" --after 0)
    ms[$v]+="${this[$v]} "
  done
  read -r _ t _ < <("$reader" assimp "$file")
  ms[assimp]+="$t "
  for v in "${viewers[@]}"; do turn[$v]+="$(awk -v a="${this[$v]}" -v b="$t" 'BEGIN {printf "%.2f", a / b}') "; done
done
am=$(tr ' ' '\n' <<< "${ms[assimp]}" | grep . | median)
echo "$file ($(stat -c %s "$file") bytes), $runs runs each, taking turns:"
echo "  assimp ReadFile, fresh process: median ${am} ms   runs: ${ms[assimp]}"
for v in "${viewers[@]}"; do
  vm=$(tr ' ' '\n' <<< "${ms[$v]}" | grep . | median)
  tm=$(tr ' ' '\n' <<< "${turn[$v]}" | grep . | median)
  tw=$(tr ' ' '\n' <<< "${turn[$v]}" | grep . | sort -n | tail -1)
  echo "  $v, command to picture: median ${vm} ms, $(awk -v a="$vm" -v b="$am" 'BEGIN {printf "%.2f", a / b}')× assimp's median"
  echo "      runs: ${ms[$v]}"
  echo "      against assimp's run of the same turn: median ${tm}×, worst ${tw}×   (${turn[$v]})"
done
