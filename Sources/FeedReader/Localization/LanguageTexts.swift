import CGtk
import RefreshGtk

/// The texts the window's parts show of their own, each written once where its widget is made (in
/// the part's .ui, which BuilderFile reads, or in Swift), and shown again in the new language by
/// a language switch.
///
/// One path for every part: the widgets stay, so what they hold (the selection, the scroll
/// position, the search typed, the open article, the focus) stays with them, and a part has no
/// code of its own to set its texts again. Texts that depend on the data (a feed's title, the
/// list's state) are the model's items' and the parts' to show again (``LanguageSwitch``).
@MainActor
enum LanguageTexts {
    /// Where a text goes on its object.
    enum Place: Equatable {
        /// A string property, such as a label's `label` or an entry's `placeholder-text`.
        case property(String)
        /// The name screen readers read.
        case accessibleLabel
        /// The description screen readers read after the name.
        case accessibleDescription
    }

    /// A text on one object, held weakly: it goes when its object does.
    private final class Text {
        let object: UnsafeMutablePointer<GWeakRef>
        let place: Place
        let text: () -> String

        init(_ object: gpointer, _ place: Place, _ text: @escaping () -> String) {
            self.object = .allocate(capacity: 1)
            self.object.initialize(to: GWeakRef())
            g_weak_ref_init(self.object, object)
            (self.place, self.text) = (place, text)
        }

        deinit {
            g_weak_ref_clear(object)
            object.deallocate()
        }
    }

    private static var texts: [Text] = []

    /// Shows `text` at `place` on `object` now and after each language switch, as long as `object` lives.
    static func keep(_ object: gpointer, _ place: Place, _ text: @escaping () -> String) {
        let kept = Text(object, place, text)
        show(kept, on: object)
        texts.append(kept)
    }

    /// Shows `text` both as `widget`'s tooltip and as its name for screen readers, kept as ``keep(_:_:_:)`` keeps it.
    static func name(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: @escaping () -> String) {
        keep(widget, .property("tooltip-text"), text)
        keep(widget, .accessibleLabel, text)
    }

    /// Shows every kept text again in the current language, forgetting those whose objects are gone.
    static func showAll() {
        texts.removeAll { text in
            guard let object = g_weak_ref_get(text.object) else { return true }
            defer { g_object_unref(object) }
            show(text, on: object)
            return false
        }
    }

    private static func show(_ text: Text, on object: gpointer) {
        switch text.place {
        case let .property(name): ObjectProperty.set(object, name, text.text())
        case .accessibleLabel: cgtk_accessible_set_label(cast(object), text.text())
        case .accessibleDescription: cgtk_accessible_set_description(cast(object), text.text())
        }
    }
}
