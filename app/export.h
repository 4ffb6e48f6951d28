// Writing a loaded model to a file of another format (shared by marrow-cli convert and the GUI's
// File › Export…). Filled in by the export work; see app/export.cpp.
#pragma once
