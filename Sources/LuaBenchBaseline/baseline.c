#include "LuaBenchBaseline.h"
