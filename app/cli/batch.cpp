// marrow-cli convert in batch: many models, each converted on its own (see runBatchConvert).
#include "app/cli/cli.h"
