# MARROW_FUZZ: libFuzzer targets (tests/fuzz) over the readers, with ASan and UBSan.
#
# Everything compiled in this configuration carries libFuzzer's coverage instrumentation
# (-fsanitize=fuzzer-no-link) and the sanitizers (MARROW_SANITIZE is turned on), so that the
# fuzz targets see coverage inside marrow_formats and the tests built beside them run sanitized.
# Only clang has libFuzzer. MARROW_FUZZ_ONLY (the default) configures marrow_formats and the fuzz
# targets alone: no Qt, no GUI.
set(MARROW_FUZZ_BUILDS_ONLY_FORMATS OFF)
if(NOT MARROW_FUZZ)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "MARROW_FUZZ needs clang (libFuzzer): configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ (Debian: clang-14)")
endif()
# A normal variable: the option's cache entry stays as the user set it, while this configuration
# (and tests/reference, which keys its libcal3d exemption on it) sees the sanitizers on.
set(MARROW_SANITIZE ON)
add_compile_options(-fsanitize=fuzzer-no-link)
set(MARROW_FUZZ_BUILDS_ONLY_FORMATS ${MARROW_FUZZ_ONLY})
