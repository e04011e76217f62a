import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Asks for a sync account (service, server address, user name, password), logs in once to check
/// it, and adds it; every failure stays in the dialog in words, and nothing is added.
@MainActor
final class AddAccountDialog {
    /// A service the dialog offers, as people know it: its name, and the servers that speak it.
    struct Choice {
        let kind: SyncServiceKind
        let label: String
        /// Shown below the name in the list of services; empty when the name says it all.
        let servers: String
        let help: String
    }

    static var choices: [Choice] {
        [
            Choice(kind: TinyTinyRSSService.kind, label: TinyTinyRSSService.kind.displayName, servers: "",
                   // TRANSLATORS: keep the example address as it is.
                   help: tr("The address Tiny Tiny RSS is served at, such as https://example.org/tt-rss/")),
            Choice(kind: GoogleReaderService.kind, label: GoogleReaderService.kind.displayName,
                   // TRANSLATORS: the servers that speak the Google Reader API, below its name in the list of services; keep the product names.
                   servers: tr("FreshRSS, Miniflux, Inoreader, The Old Reader"),
                   // TRANSLATORS: keep the example address as it is.
                   help: tr("The address of the Google Reader API, such as https://example.org/api/greader.php; for FreshRSS its own address will do.")),
            Choice(kind: FeverService.kind, label: FeverService.kind.displayName,
                   // TRANSLATORS: the servers that speak the Fever API, below its name in the list of services; keep the product names.
                   servers: tr("FreshRSS, Miniflux"),
                   // TRANSLATORS: keep the example address as it is.
                   help: tr("The address of the Fever API, such as https://example.org/api/fever.php. With Fever, subscribe to feeds on the server: the Fever API cannot.")),
        ]
    }

    private let shell: AddDialogShell
    private let serviceRow: UnsafeMutablePointer<GtkWidget>
    private let serverRow: UnsafeMutablePointer<GtkWidget>
    private let userRow: UnsafeMutablePointer<GtkWidget>
    private let passwordRow: UnsafeMutablePointer<GtkWidget>
    private let help: UnsafeMutablePointer<GtkWidget>
    private let message: UnsafeMutablePointer<GtkWidget>
    private let accounts: AccountSync
    private let onAdded: @MainActor (SyncAccount) -> Void
    private var logIn: Task<Void, Never>?
    /// The widgets of each item of the service row's list.
    private var listed: [gpointer: (name: UnsafeMutablePointer<GtkWidget>, servers: UnsafeMutablePointer<GtkWidget>,
                                    check: UnsafeMutablePointer<GtkWidget>)] = [:]
    private var retainedSelf: AddAccountDialog?

    /// Shows the dialog over `parent`; `onAdded` gets the account once it is added.
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, accounts: AccountSync,
                        onAdded: @escaping @MainActor (SyncAccount) -> Void) {
        let dialog = AddAccountDialog(parent: parent, accounts: accounts, onAdded: onAdded)
        dialog.retainedSelf = dialog
        gtk_window_present(cast(dialog.shell.window))
    }

    private init(parent: UnsafeMutablePointer<GtkWidget>, accounts: AccountSync, onAdded: @escaping @MainActor (SyncAccount) -> Void) {
        self.accounts = accounts
        self.onAdded = onAdded
        shell = AddDialogShell(title: tr("Add Account"), width: 480, over: parent, busyLabel: tr("Logging in"))

        serviceRow = adw_combo_row_new()
        adw_preferences_row_set_title(cast(serviceRow), tr("Service"))
        let model = withCStringArray(Self.choices.map(\.label)) { gtk_string_list_new($0) }!
        adw_combo_row_set_model(cast(serviceRow), cast(model))
        g_object_unref(cast(model))
        serverRow = Self.entryRow(tr("Server Address"), purpose: GTK_INPUT_PURPOSE_URL)
        // An address reads left to right in every language.
        gtk_widget_set_direction(serverRow, GTK_TEXT_DIR_LTR)
        userRow = Self.entryRow(tr("User Name"), purpose: GTK_INPUT_PURPOSE_FREE_FORM)
        passwordRow = adw_password_entry_row_new()
        adw_preferences_row_set_title(cast(passwordRow), tr("Password"))
        adw_entry_row_set_activates_default(cast(passwordRow), 1)
        let rows = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(cast(rows), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(rows, "boxed-list")
        for row in [serviceRow, serverRow, userRow, passwordRow] { gtk_list_box_append(cast(rows), row) }
        help = Widgets.label("", classes: ["dim-label", "caption"])
        gtk_label_set_wrap(cast(help), 1)
        message = AddDialogShell.messageLabel()
        shell.setContent(Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [rows, help, message]), focus: serverRow)

        // The row shows the service's name whole; its list names the servers that speak each too,
        // with a check mark at the one chosen as the row's own list has.
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectObject(cast(factory), "setup") { [weak self] item in
            let name = Widgets.label(""), servers = Widgets.label("", classes: ["dim-label", "caption"])
            let check = gtk_image_new_from_icon_name("object-select-symbolic")!
            let texts = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 2, [name, servers])
            gtk_widget_set_hexpand(texts, 1)
            gtk_list_item_set_child(cast(item), Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [texts, check]))
            self?.listed[item] = (name, servers, check)
        }
        Signal.connectObject(cast(factory), "bind") { [weak self] item in self?.showChoice(in: item) }
        Signal.connectObject(cast(factory), "teardown") { [weak self] item in self?.listed[item] = nil }
        adw_combo_row_set_list_factory(cast(serviceRow), factory)
        g_object_unref(cast(factory))
        Signal.connect(cast(shell.addButton), "clicked") { [weak self] in self?.add() }
        Signal.connectIgnoringArgument(cast(serviceRow), "notify::selected") { [weak self] in
            guard let self else { return }
            for item in self.listed.keys { self.showChoice(in: item) }
            self.validate()
        }
        for row in [serverRow, userRow, passwordRow] {
            Signal.connect(cast(row), "changed") { [weak self] in self?.validate() }
        }
        // Closed while logging in: the login stops and nothing is added.
        Signal.connect(cast(shell.window), "destroy") { [weak self] in
            self?.logIn?.cancel()
            self?.retainedSelf = nil
        }
        validate()
    }

    /// Fills an item of the service row's list with its choice, checked when it is the one chosen.
    private func showChoice(in item: gpointer) {
        let choices = Self.choices
        let position = Int(gtk_list_item_get_position(cast(item)))
        guard let widgets = listed[item], choices.indices.contains(position) else { return }
        gtk_label_set_text(cast(widgets.name), choices[position].label)
        gtk_label_set_text(cast(widgets.servers), choices[position].servers)
        gtk_widget_set_visible(widgets.servers, (!choices[position].servers.isEmpty).gboolean)
        gtk_widget_set_opacity(widgets.check, adw_combo_row_get_selected(cast(serviceRow)) == position ? 1 : 0)
    }

    private static func entryRow(_ title: String, purpose: GtkInputPurpose) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_entry_row_new()!
        adw_preferences_row_set_title(cast(row), title)
        adw_entry_row_set_input_purpose(cast(row), purpose)
        adw_entry_row_set_activates_default(cast(row), 1)
        return row
    }

    private var choice: Choice {
        let choices = Self.choices
        return choices[min(Int(adw_combo_row_get_selected(cast(serviceRow))), choices.count - 1)]
    }

    private static func text(of row: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_editable_get_text(cast(row)))
    }

    /// The server address typed, with https:// when no scheme was given; nil when it is not a web address.
    static func serverURL(from text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let full = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard let url = URL(string: full), ["http", "https"].contains(url.scheme?.lowercased()), url.host?.isEmpty == false else { return nil }
        return url
    }

    /// Whether the dialog is logging in now.
    private var isBusy: Bool { gtk_widget_get_visible(shell.spinner) != 0 }

    private func validate() {
        gtk_label_set_text(cast(help), choice.help)
        let complete = Self.serverURL(from: Self.text(of: serverRow)) != nil && !Self.text(of: userRow).isEmpty
            && !Self.text(of: passwordRow).isEmpty
        gtk_widget_set_sensitive(shell.addButton, complete.gboolean)
        for row in [serverRow, userRow, passwordRow] { gtk_widget_remove_css_class(row, "error") }
        let unencrypted = Self.serverURL(from: Self.text(of: serverRow)).map(ServerAddress.sendsPasswordInClear) == true
        say(unencrypted ? tr("With an http:// address the password crosses the network unencrypted: use https:// if the server has it.") : nil)
    }

    /// Shows `text` under the rows, or nothing.
    private func say(_ text: String?) {
        gtk_label_set_text(cast(message), text ?? "")
        gtk_widget_set_visible(message, (text != nil).gboolean)
    }

    /// Logs in with what was typed; adds the account and closes, or says why not.
    private func add() {
        let kind = choice.kind
        guard !isBusy, let server = Self.serverURL(from: Self.text(of: serverRow)) else { return }
        let user = Self.text(of: userRow), password = Self.text(of: passwordRow)
        guard !user.isEmpty, !password.isEmpty else { return }
        setBusy(true)
        logIn = Task { @MainActor [weak self, accounts] in
            do throws(SyncFailure) {
                let account = try await accounts.add(kind: kind, server: server, user: user, password: password)
                guard let self else { return }
                self.logIn = nil
                self.onAdded(account)
                self.shell.close()
            } catch {
                self?.logIn = nil
                self?.fail(error, kind: kind)
            }
        }
    }

    /// Says why the account was not added and puts the keyboard where the fix goes.
    private func fail(_ failure: SyncFailure, kind: SyncServiceKind) {
        setBusy(false)
        say(tr("The account could not be added.") + " " + failure.message(for: kind))
        let culprit: UnsafeMutablePointer<GtkWidget>? = switch failure {
        case let .server(error) where error.code == .wrongCredentials: passwordRow
        case let .server(error) where [.notThisKindOfServer, .unreachable, .tls, .moved].contains(error.code): serverRow
        case .credentialsInAddress: serverRow
        default: nil
        }
        if let culprit {
            gtk_widget_add_css_class(culprit, "error")
            gtk_widget_grab_focus(culprit)
        }
    }

    private func setBusy(_ busy: Bool) {
        for row in [serviceRow, serverRow, userRow, passwordRow] { gtk_widget_set_sensitive(row, (!busy).gboolean) }
        shell.setBusy(busy)
        if busy { say(nil) }
    }
}
