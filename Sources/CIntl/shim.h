// glibc's gettext (libintl.h), which Swift's Glibc module leaves out: the launcher's one message.
#include <libintl.h>
