import CGtk
import RefreshGtk

/// The gallery's window: a sidebar listing the variants, and a stack with one page each.
@MainActor
final class GalleryWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let stack: UnsafeMutablePointer<GtkWidget>
    let pages: [GalleryPage]

    init(application: UnsafeMutablePointer<GtkApplication>, initial: GalleryVariant) {
        window = gtk_application_window_new(application)
        gtk_window_set_title(cast(window), "RefreshGtk Gallery")
        gtk_window_set_default_size(cast(window), 860, 640)
        stack = gtk_stack_new()
        gtk_stack_set_transition_type(cast(stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_widget_set_hexpand(stack, 1)
        pages = GalleryVariant.allCases.map { $0.makePage() }
        for page in pages {
            gtk_stack_add_titled(cast(stack), page.widget, page.variant.rawValue, page.variant.title)
        }
        gtk_stack_set_visible_child_name(cast(stack), initial.rawValue)
        let sidebar = gtk_stack_sidebar_new()!
        gtk_stack_sidebar_set_stack(cast(sidebar), cast(stack))
        gtk_widget_set_size_request(sidebar, 190, -1)
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_append(cast(box), sidebar)
        gtk_box_append(cast(box), gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        gtk_box_append(cast(box), stack)
        gtk_window_set_child(cast(window), box)
    }
}
