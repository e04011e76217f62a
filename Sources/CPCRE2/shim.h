// PCRE2 for the 8-bit (UTF-8) code unit, the one rules match titles and texts in.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
