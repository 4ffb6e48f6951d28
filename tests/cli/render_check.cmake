# Runs `marrow-cli render` on the demo and checks a PNG of the requested size came out.
execute_process(COMMAND ${CLI} render :demo -o ${OUT} --size 320x240 --time 0.5
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "marrow-cli render failed (${rc}): ${err}")
endif()
file(READ ${OUT} header LIMIT 24 HEX)
string(SUBSTRING "${header}" 0 16 magic)
string(SUBSTRING "${header}" 32 8 width)
string(SUBSTRING "${header}" 40 8 height)
if(NOT magic STREQUAL "89504e470d0a1a0a" OR NOT width STREQUAL "00000140" OR NOT height STREQUAL "000000f0")
  message(FATAL_ERROR "not a 320x240 PNG: ${header}")
endif()
