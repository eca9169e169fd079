#include "waymark_media.h"
extern "C" int wm_version(void) { return 1; }
