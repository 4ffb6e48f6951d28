#include "app/export.h"
