# Project-wide warning flags, applied per target through marrow_warnings().
function(marrow_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                                           -Wnon-virtual-dtor)
endfunction()
