import RefreshCore

/// A component's state machine, held by reference: ``RefreshComponent`` feeds it events and
/// reads it as ``RefreshLogic``, while the subclass that chose the machine reaches its settings.
@MainActor
final class Rules<Machine: RefreshLogic> {
    var machine: Machine

    init(_ machine: Machine) {
        self.machine = machine
    }
}

/// Rules of any kind, as ``RefreshComponent`` sees them.
@MainActor
protocol ComponentRules: AnyObject {
    var logic: any RefreshLogic { get }
    func handle(_ event: RefreshEvent) -> [RefreshEffect]
}

extension Rules: ComponentRules {
    var logic: any RefreshLogic { machine }

    func handle(_ event: RefreshEvent) -> [RefreshEffect] {
        machine.handle(event)
    }
}
