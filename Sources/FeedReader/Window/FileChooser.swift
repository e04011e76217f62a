import AppSignals
import CGtk
import FeedCore
import RefreshGtk

/// The desktop's file chooser (a portal's in a sandbox), for one OPML file to open or save.
///
/// The chosen file is handed over by the bytes of its path, which need not be UTF-8.
@MainActor
enum FileChooser {
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, title: String, accept: String, saving: Bool,
                        suggestedName: String? = nil, _ chosen: @escaping @MainActor (LocalFile) -> Void) {
        let chooser = gtk_file_chooser_native_new(title, cast(parent), saving ? GTK_FILE_CHOOSER_ACTION_SAVE : GTK_FILE_CHOOSER_ACTION_OPEN,
                                                  accept, tr("_Cancel"))!
        gtk_native_dialog_set_modal(cast(chooser), 1)
        if let suggestedName { gtk_file_chooser_set_current_name(cast(chooser), suggestedName) }
        let opml = gtk_file_filter_new()!
        gtk_file_filter_set_name(opml, tr("Subscription lists (OPML)"))
        for pattern in ["*.opml", "*.xml"] { gtk_file_filter_add_pattern(opml, pattern) }
        gtk_file_chooser_add_filter(cast(chooser), opml)
        let everything = gtk_file_filter_new()!
        gtk_file_filter_set_name(everything, tr("All files"))
        gtk_file_filter_add_pattern(everything, "*")
        gtk_file_chooser_add_filter(cast(chooser), everything)
        Signal.connectInt(cast(chooser), "response") { response in
            defer { g_object_unref(cast(chooser)) }
            guard response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(cast(chooser)) else { return }
            defer { g_object_unref(cast(file)) }
            guard let local = LocalFile(file) else { return }
            chosen(local)
        }
        gtk_native_dialog_show(cast(chooser))
    }
}
