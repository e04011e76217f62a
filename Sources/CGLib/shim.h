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

/* glibc's count of catalogs loaded, part of each cached translation's key: raised after LANGUAGE
   changes so that gettext looks the translations up again, as GNU gettext's manual says. */
extern int _nl_msg_cat_cntr;
static inline void cglib_gettext_forget_translations(void) {
    ++_nl_msg_cat_cntr;
}

#endif
