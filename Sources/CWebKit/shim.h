#ifndef CWEBKIT_SHIM_H
#define CWEBKIT_SHIM_H

/* WebKitGTK 6.0 for the feed reader's article view only: RefreshGtk never links it. */
#include <webkit/webkit.h>

/* GtkSettings' gtk-font-name (free it), which g_object_get returns through a variadic call. */
static inline char *cwebkit_gtk_font_name(void) {
    char *name = NULL;
    g_object_get(gtk_settings_get_default(), "gtk-font-name", &name, NULL);
    return name;
}

#endif
