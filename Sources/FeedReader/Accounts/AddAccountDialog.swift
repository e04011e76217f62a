import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Asks for a sync account (service, server address, user name, password), logs in once to check
/// it, and adds it; every failure stays in the dialog in words, and nothing is added.
@MainActor
final class AddAccountDialog {
    /// The dialog's actions, as its buttons name them (`add-account.add`).
    enum Action: String, PartAction {
        case add
    }

    static let file = "accounts/add-account-dialog.ui"
    static let itemFile = "accounts/service-item.ui"

    /// A service the dialog offers, as people know it: its name, the servers that speak it and
    /// what its address looks like (both from the dialog's file).
    struct Choice {
        let kind: SyncServiceKind
        let label: String
        /// Shown below the name in the list of services; empty when the name says it all.
        let servers: String
        let help: String
    }

    /// The services offered, in the order of the file's `service_servers` and `service_help`.
    static let services = [TinyTinyRSSService.kind, GoogleReaderService.kind, FeverService.kind]

    let window: UnsafeMutablePointer<GtkWidget>
    private let serviceRow: UnsafeMutablePointer<GtkWidget>
    private let serverRow: UnsafeMutablePointer<GtkWidget>
    private let userRow: UnsafeMutablePointer<GtkWidget>
    private let passwordRow: UnsafeMutablePointer<GtkWidget>
    /// The chosen service's hint under the fields, or in its place what is wrong.
    private(set) var message: DialogMessage!
    private let spinner: UnsafeMutablePointer<GtkWidget>
    /// The services offered, with their texts in the current language.
    let choices: [Choice]
    private var actions: PartActions<Action>!
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
        let dialog = AddAccountDialog(accounts: accounts, onAdded: onAdded)
        dialog.retainedSelf = dialog
        gtk_window_set_transient_for(cast(dialog.window), cast(parent))
        gtk_window_present(cast(dialog.window))
    }

    /// Builds the dialog from its file, not yet shown; `present` shows it over a window.
    init(accounts: AccountSync, onAdded: @escaping @MainActor (SyncAccount) -> Void) {
        self.accounts = accounts
        self.onAdded = onAdded
        let file = BuilderFile(Self.file)
        window = file.widget("window")
        serviceRow = file.widget("service_row")
        serverRow = file.widget("server_row")
        userRow = file.widget("user_row")
        passwordRow = file.widget("password_row")
        spinner = file.widget("spinner")
        // A widget's direction is no property a file can set.
        Widgets.setLeftToRight(address: serverRow)
        choices = Self.services.enumerated().map { index, kind in
            Choice(kind: kind, label: kind.displayName, servers: Self.item(index, of: file.opaque("service_servers")),
                   help: Self.item(index, of: file.opaque("service_help")))
        }
        withCStringArray(choices.map(\.label)) { gtk_string_list_splice(file.opaque("service_names"), 0, 0, $0) }
        message = DialogMessage(label: file.widget("message"), place: file.widget("message_place")) { [weak self] in self?.choice.help ?? "" }

        // The row shows the service's name whole; its list names the servers that speak each too,
        // with a check mark at the one chosen as the row's own list has.
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectObject(cast(factory), "setup") { [weak self] item in
            let file = BuilderFile(Self.itemFile)
            gtk_list_item_set_child(cast(item), file.widget("item"))
            self?.listed[item] = (file.widget("name"), file.widget("servers"), file.widget("check"))
        }
        Signal.connectObject(cast(factory), "bind") { [weak self] item in self?.showChoice(in: item) }
        Signal.connectObject(cast(factory), "teardown") { [weak self] item in self?.listed[item] = nil }
        adw_combo_row_set_list_factory(cast(serviceRow), factory)
        g_object_unref(cast(factory))
        actions = PartActions(on: window, prefix: "add-account") { [weak self] action in
            switch action {
            case .add: self?.add()
            }
        }
        Signal.connectIgnoringArgument(cast(serviceRow), "notify::selected") { [weak self] in
            guard let self else { return }
            for item in self.listed.keys { self.showChoice(in: item) }
            self.validate()
        }
        for row in [serverRow, userRow, passwordRow] {
            Signal.connect(cast(row), "changed") { [weak self] in self?.validate() }
        }
        // Closed while logging in: the login stops and nothing is added.
        Signal.connect(cast(window), "destroy") { [weak self] in
            self?.logIn?.cancel()
            self?.retainedSelf = nil
        }
        validate()
    }

    /// Whether Add can be chosen now.
    var canAdd: Bool { actions.isEnabled(.add) }

    /// The `index`th string of `list`, empty when it has none.
    private static func item(_ index: Int, of list: OpaquePointer) -> String {
        gtk_string_list_get_string(list, guint(index)).map { String(cString: $0) } ?? ""
    }

    /// Fills an item of the service row's list with its choice, checked when it is the one chosen.
    private func showChoice(in item: gpointer) {
        let position = Int(gtk_list_item_get_position(cast(item)))
        guard let widgets = listed[item], choices.indices.contains(position) else { return }
        gtk_label_set_text(cast(widgets.name), choices[position].label)
        gtk_label_set_text(cast(widgets.servers), choices[position].servers)
        gtk_widget_set_visible(widgets.servers, (!choices[position].servers.isEmpty).gboolean)
        gtk_widget_set_opacity(widgets.check, adw_combo_row_get_selected(cast(serviceRow)) == position ? 1 : 0)
    }

    private var choice: Choice {
        choices[min(Int(adw_combo_row_get_selected(cast(serviceRow))), choices.count - 1)]
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
    private var isBusy: Bool { gtk_widget_get_visible(spinner) != 0 }

    private func validate() {
        let complete = Self.serverURL(from: Self.text(of: serverRow)) != nil && !Self.text(of: userRow).isEmpty
            && !Self.text(of: passwordRow).isEmpty
        actions.setEnabled(.add, complete)
        for row in [serverRow, userRow, passwordRow] { gtk_widget_remove_css_class(row, "error") }
        let unencrypted = Self.serverURL(from: Self.text(of: serverRow)).map(ServerAddress.sendsPasswordInClear) == true
        say(unencrypted ? tr("With an http:// address the password crosses the network unencrypted: use https:// if the server has it.") : nil)
    }

    /// Shows `text` under the rows, else the service's hint.
    private func say(_ text: String?) { message.show(text, isProblem: text != nil) }

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
                gtk_window_destroy(cast(self.window))
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
        actions.setEnabled(.add, !busy)
        gtk_widget_set_visible(spinner, busy.gboolean)
        gtk_spinner_set_spinning(cast(spinner), busy.gboolean)
        if busy { say(nil) }
    }
}
