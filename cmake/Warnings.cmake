# Project-wide warning flags, applied per target through marrow_warnings().
function(marrow_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                                           -Wnon-virtual-dtor)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12's optimiser reports std::string concatenation inside libstdc++ as overlapping
    # memcpy / freeing a non-heap pointer (GCC bugs 105329, 105651): false positives.
    target_compile_options(${target} PRIVATE -Wno-restrict -Wno-free-nonheap-object)
  endif()
endfunction()
