#ifndef CGLIB_SHIM_H
#define CGLIB_SHIM_H

#include <glib.h>
#include <glib/gstdio.h>
#include <libintl.h>
#include <locale.h>

/* Swift cannot call variadic C functions. */
static inline void cglib_log_warning(const char *domain, const char *message) {
    g_log(domain, G_LOG_LEVEL_WARNING, "%s", message);
}

#endif
