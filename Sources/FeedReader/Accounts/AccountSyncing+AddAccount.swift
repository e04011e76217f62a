import CGtk
import RefreshGtk

extension AccountSyncing {
    /// Adds `win.add-account`, which opens Add Account over the window (the first run's welcome
    /// offers it); a new account syncs at once, as one added in Preferences.
    func addActions() {
        Widgets.addAction(to: window, "add-account") { [weak self] _ in
            guard let self else { return }
            AddAccountDialog.present(over: self.window, accounts: self.accountSync) { [weak self] account in
                self?.accountsChanged(.added(account))
            }
        }
    }
}
