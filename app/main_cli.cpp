#include <cstring>

#include "app/cli/cli.h"
#include "app/huge_pages.h"

int main(int argc, char** argv) {
  // `render` draws with software GL where there is no GPU: llvmpipe's memory in huge pages, as
  // the viewer's (app/huge_pages.h). Other commands are left alone: a restart costs a few ms.
  if (argc > 1 && std::strcmp(argv[1], "render") == 0) marrow::app::restartWithHugePages(argv);
  return marrow::app::cli::main(argc, argv);
}
