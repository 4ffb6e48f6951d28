#include "app/cli/cli.h"

int main(int argc, char** argv) { return marrow::app::cli::main(argc, argv); }
