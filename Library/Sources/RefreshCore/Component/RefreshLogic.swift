/// What a component's host reads from its state machine, whichever rules it follows.
public protocol RefreshLogic: Sendable {
    var state: RefreshState { get }
    /// How far the content is displaced for the component, in pixels.
    var offset: Double { get }
    var pullingPercent: Double { get }
    var extent: Double { get }
    var alpha: Double { get }
    var isInteracting: Bool { get }
    var animation: RefreshAnimation? { get }
}

extension RefreshMachine: RefreshLogic {}
extension AutoFooterMachine: RefreshLogic {}
