# Project-wide warning flags, applied per target through marrow_warnings().
function(marrow_warnings target)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                                             -Wnon-virtual-dtor)
  else()
    # clang (the fuzz build) has no -Wshadow=local.
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wnon-virtual-dtor)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12's optimiser reports std::string concatenation inside libstdc++ as overlapping
    # memcpy / freeing a non-heap pointer (GCC bugs 105329, 105651): false positives.
    target_compile_options(${target} PRIVATE -Wno-restrict -Wno-free-nonheap-object)
  endif()
endfunction()
