#ifndef CGTK_SHIM_H
#define CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <libintl.h>
#include <locale.h>
#include <sys/eventfd.h>

/* libdispatch's main-queue hooks: GLib watches this fd so DispatchQueue.main and
 * @MainActor work while g_application_run owns the main thread. */
int _dispatch_get_main_queue_handle_4CF(void);
void _dispatch_main_queue_callback_4CF(void *msg);

/* Swift cannot call variadic C functions: these wrap the few the toolkit needs. */

static inline void cgtk_accessible_set_label(GtkAccessible *accessible, const char *label) {
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void cgtk_accessible_set_description(GtkAccessible *accessible, const char *text) {
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static inline void cgtk_accessible_set_busy(GtkAccessible *accessible, gboolean busy) {
    gtk_accessible_update_state(accessible, GTK_ACCESSIBLE_STATE_BUSY, busy, -1);
}

static inline void cgtk_accessible_set_expanded(GtkAccessible *accessible, gboolean expanded) {
    gtk_accessible_update_state(accessible, GTK_ACCESSIBLE_STATE_EXPANDED, expanded, -1);
}

static inline GtkWidget *cgtk_drawing_area_new_with_role(GtkAccessibleRole role) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", role, NULL));
}

/* A new widget of `type` (a GtkWidget subclass) with `role`, which can only be set at construction. */
static inline GtkWidget *cgtk_widget_new_with_role(GType type, GtkAccessibleRole role) {
    return GTK_WIDGET(g_object_new(type, "accessible-role", role, NULL));
}

/* NULL when the accessible's label is `expected`, else a description of the mismatch (free it). */
static inline char *cgtk_accessible_check_label(GtkAccessible *accessible, const char *expected) {
    return gtk_test_accessible_check_property(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, expected);
}

/* NULL when the accessible's description is `expected`, else a description of the mismatch (free it). */
static inline char *cgtk_accessible_check_description(GtkAccessible *accessible, const char *expected) {
    return gtk_test_accessible_check_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);
}

/* NULL when the accessible's expanded state is `expanded`, else a description of the mismatch (free it). */
static inline char *cgtk_accessible_check_expanded(GtkAccessible *accessible, gboolean expanded) {
    return gtk_test_accessible_check_state(accessible, GTK_ACCESSIBLE_STATE_EXPANDED, expanded);
}

static inline gboolean cgtk_settings_get_boolean(const char *name) {
    gboolean value = FALSE;
    g_object_get(gtk_settings_get_default(), name, &value, NULL);
    return value;
}

static inline int cgtk_settings_get_int(const char *name) {
    int value = 0;
    g_object_get(gtk_settings_get_default(), name, &value, NULL);
    return value;
}

static inline void cgtk_settings_set_boolean(const char *name, gboolean value) {
    g_object_set(gtk_settings_get_default(), name, value, NULL);
}

static inline gboolean cgtk_emit_scroll(GtkEventController *controller, double dx, double dy) {
    gboolean handled = FALSE;
    g_signal_emit_by_name(controller, "scroll", dx, dy, &handled);
    return handled;
}

static inline void cgtk_emit_by_name(gpointer instance, const char *signal) {
    g_signal_emit_by_name(instance, signal);
}

/* The GdkDisplay subclass's name ("GdkWaylandDisplay", "GdkX11Display"): the backend in use,
 * without the backend-specific headers. */
static inline const char *cgtk_display_type_name(GdkDisplay *display) {
    return G_OBJECT_TYPE_NAME(display);
}

static inline void cgtk_log_warning(const char *domain, const char *message) {
    g_log(domain, G_LOG_LEVEL_WARNING, "%s", message);
}

static inline void cgtk_log_critical(const char *domain, const char *message) {
    g_log(domain, G_LOG_LEVEL_CRITICAL, "%s", message);
}

#endif
