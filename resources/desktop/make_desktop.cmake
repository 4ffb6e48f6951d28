# Writes the desktop entry: its MimeType= list is the format table's (`marrow-cli formats
# --mime-types`), so that a format added to the table is claimed without editing this folder.
# Usage: cmake -DCLI=marrow-cli -DIN=org.marrow.Marrow.desktop.in -DOUT=… -P make_desktop.cmake
execute_process(COMMAND ${CLI} formats --mime-types OUTPUT_VARIABLE MARROW_MIME_TYPES
                RESULT_VARIABLE result OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT result EQUAL 0 OR MARROW_MIME_TYPES STREQUAL "")
  message(FATAL_ERROR "${CLI} formats --mime-types failed (${result})")
endif()
configure_file(${IN} ${OUT} @ONLY)
