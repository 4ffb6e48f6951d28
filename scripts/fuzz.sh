#!/usr/bin/env bash
# The fuzz targets (tests/fuzz, README there) and the sanitizer run of the reader tests.
#
#   scripts/fuzz.sh build             configure (clang, -DMARROW_FUZZ=ON) and build BUILD (build-fuzz)
#   scripts/fuzz.sh seed              (re)build the seed corpora (tests/fuzz/seeds.sh)
#   scripts/fuzz.sh run SECONDS [T..] run each target (all, or the T named: omf, caf, pak_index…)
#                                     for SECONDS, one after another, and print a summary
#   scripts/fuzz.sh ci [SECONDS]      what .ci/run does: a sanitized build (ASan + UBSan,
#                                     -fno-sanitize-recover=all) of the reader tests and the fuzz
#                                     targets in build-sanitize/, ctest -L "unit|reference" there,
#                                     then every target for SECONDS (default 25) from its seeds
#
# Environment: BUILD (build dir for build/seed/run), JOBS (default 2), FUZZ_MAX_LEN (131072),
# STATS (the summary file, default BUILD/fuzz/stats.tsv; give each of two runs at once its own).
# New corpus inputs accumulate in BUILD/fuzz/corpus/<target>; crashes are written to
# BUILD/fuzz/artifacts/; per-target figures to BUILD/fuzz/stats.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
build=${BUILD:-build-fuzz}

# The dictionary of each target (tests/fuzz/dict); the registry gets all of them.
dict_of() {
  case "$1" in
    omf) echo omf ;;
    gltf) echo gltf ;;
    csf | cmf | caf | crf | cpf) echo cal3d_binary ;;
    xsf | xmf | xaf | xrf | xpf) echo cal3d_xml ;;
    cfg) echo cal3d_cfg ;;
    brf | brf_document) echo brf ;;
    pak_index | pak_entry) echo pak ;;
    archives) echo pak ;;
    msh | skn | ani) echo dragonnest_models ;;
    dnt | ext) echo dragonnest_tables ;;
    dds) echo dds ;;
    snapshot) echo snapshot ;;
    tga) echo tga ;;
    warband_text) echo warband ;;
    registry) echo all ;;
    *) echo "" ;;
  esac
}

targets_in() {
  local dir=$1/tests/fuzz
  for f in "$dir"/marrow_fuzz_*; do
    local name=${f##*/marrow_fuzz_}
    [[ -x $f && $name != seeds ]] && echo "$name"
  done
}

# clang and its libFuzzer / sanitizer runtimes (Debian 12: clang-14, libclang-rt-14-dev), installed
# the way scripts/deps.sh installs the rest when they are missing.
ensure_clang() {
  local missing=()
  command -v clang++ >/dev/null 2>&1 || missing+=(clang)
  compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null ||
    missing+=(libclang-rt-14-dev)
  [[ ${#missing[@]} -eq 0 ]] && return
  echo "Installing: ${missing[*]}"
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
}

# The test programs of labels unit and reference, as tests/*/CMakeLists.txt declare them: gtest
# programs and plain add_test(NAME n COMMAND program). The desktop tests are left out: they
# install the GUI, which is no reader test and would be built for them.
test_programs() {
  {
    grep -ohE "gtest_discover_tests\((\w+) PROPERTIES LABELS (unit|reference)\b" tests/*/CMakeLists.txt |
      sed -E 's/gtest_discover_tests\((\w+).*/\1/'
    local f n
    for f in tests/*/CMakeLists.txt; do
      for n in $(grep -ohE "set_tests_properties\(\S+ PROPERTIES LABELS (unit|reference)\b" "$f" |
        sed -E 's/set_tests_properties\((\S+).*/\1/'); do
        grep -ohE "add_test\(NAME $n COMMAND \w+" "$f" | awk '{print $4}'
      done
    done
  } | sort -u | grep -v desktop
}

configure() {  # BUILD_DIR FUZZ_ONLY
  ensure_clang
  if [[ ! -f $1/build.ninja ]]; then
    CC=clang CXX=clang++ cmake -S . -B "$1" -G Ninja -DMARROW_FUZZ=ON -DMARROW_FUZZ_ONLY="$2"
  fi
}

# Runs every target of BUILD_DIR for SECONDS; returns non-zero when one found something.
run_targets() {  # BUILD_DIR SECONDS [TARGET...]
  local dir=$1 seconds=$2
  shift 2
  local list=("$@")
  [[ ${#list[@]} -eq 0 ]] && mapfile -t list < <(targets_in "$dir")
  local fz=$dir/fuzz
  mkdir -p "$fz/artifacts" "$fz/logs"
  cat tests/fuzz/dict/*.dict > "$fz/all.dict"
  local stats=${STATS:-$fz/stats.tsv}
  printf 'target\truns\texec/s\tcov\tft\tcorpus\tresult\n' > "$stats"
  local failed=()
  for t in "${list[@]}"; do
    local exe=$dir/tests/fuzz/marrow_fuzz_$t
    [[ -x $exe ]] || { echo "no target $t in $dir"; return 2; }
    local corpus=$fz/corpus/$t seeds=$fz/seeds/$t
    mkdir -p "$corpus" "$seeds"
    local dict=$(dict_of "$t") opts=()
    if [[ $dict == all ]]; then
      opts+=(-dict="$fz/all.dict")
    elif [[ -n $dict ]]; then
      opts+=(-dict=tests/fuzz/dict/$dict.dict)
    fi
    local log=$fz/logs/$t.log result=ok
    echo "== $t (${seconds}s)"
    if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$exe" "${opts[@]}" -max_total_time="$seconds" -max_len="${FUZZ_MAX_LEN:-131072}" \
        -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 \
        -print_final_stats=1 -artifact_prefix="$fz/artifacts/$t-" "$corpus" "$seeds" \
        > "$log" 2>&1; then
      result=FINDING
      failed+=("$t")
      grep -E "ERROR|finding|SUMMARY|Test unit written" "$log" | head -8 || true
    fi
    # The last status line: "#N  REDUCE cov: C ft: F corp: K/…b … exec/s: E …".
    local status=$(grep -E "^#[0-9]+" "$log" | tail -1)
    local runs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<< "$status")
    local cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<< "$status")
    local ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<< "$status")
    local corp=$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<< "$status")
    local eps=$(sed -nE 's/.*stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "${runs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" \
      "${corp:-?}" "$result" >> "$stats"
  done
  column -t -s $'\t' "$stats"
  if [[ ${#failed[@]} -gt 0 ]]; then
    echo "findings in: ${failed[*]} (logs in $fz/logs, inputs in $fz/artifacts)"
    return 1
  fi
}

cmd=${1:-}
shift || true
case "$cmd" in
  build)
    configure "$build" ON
    cmake --build "$build" --target marrow_fuzz -- -j"$jobs"
    ;;
  seed)
    JOBS=$jobs tests/fuzz/seeds.sh "$build"
    ;;
  run)
    seconds=${1:?"usage: scripts/fuzz.sh run SECONDS [TARGET...]"}
    shift
    run_targets "$build" "$seconds" "$@"
    ;;
  ci)
    seconds=${1:-25}
    dir=build-sanitize
    configure "$dir" OFF
    mapfile -t tests < <(test_programs)
    cmake --build "$dir" -- -j"$jobs" marrow_fuzz "${tests[@]}"
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export LSAN_OPTIONS=suppressions=$(pwd)/tests/fuzz/lsan.supp
    # marrow_cli_tests run marrow-cli, whose GL path leaves Mesa driver state behind (freed with
    # a module unloaded at exit, so no suppression can name it): leak checking is off for them
    # alone, as scripts/sanitize.sh has it off for the gl and gui labels.
    cli=$("$dir/tests/cli/marrow_cli_tests" --gtest_list_tests | sed -nE 's/^([A-Za-z0-9_]+)\.$/\1/p' |
      paste -sd'|')
    ctest_cmd=(ctest --test-dir "$dir" --output-on-failure --parallel "$jobs")
    run=()
    [[ -z "${DISPLAY:-}" ]] && run=(xvfb-run -a -s "-screen 0 1400x900x24 -noreset")
    status=0
    ASAN_OPTIONS=detect_leaks=1 "${run[@]}" "${ctest_cmd[@]}" -L "unit|reference" -E "^($cli)\." ||
      status=1
    ASAN_OPTIONS=detect_leaks=0 "${run[@]}" "${ctest_cmd[@]}" -L "unit|reference" -R "^($cli)\." ||
      status=1
    [[ $status -eq 0 ]] || { echo "sanitized reader tests failed"; exit 1; }
    JOBS=$jobs tests/fuzz/seeds.sh "$dir"
    run_targets "$dir" "$seconds"
    ;;
  *)
    sed -n '2,17p' "$0"
    exit 2
    ;;
esac
