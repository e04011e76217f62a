/// The rules of a component, whichever they are: one event in, the effects to perform out.
public protocol RefreshLogic: Sendable {
    var state: RefreshState { get }
    /// How far the content is displaced for the component, in pixels.
    var offset: Double { get }
    var pullingPercent: Double { get }
    /// The component's extent along its axis: the one place it is kept.
    var extent: Double { get }
    var alpha: Double { get }
    var isInteracting: Bool { get }
    /// Another component of the view is refreshing (see ``RefreshExclusivity``): input starts nothing.
    var isBlocked: Bool { get }
    var animation: RefreshAnimation? { get }
    /// Takes one event and returns the effects the host performs, in order.
    mutating func handle(_ event: RefreshEvent) -> [RefreshEffect]
}

extension RefreshMachine: RefreshLogic {}
extension AutoFooterMachine: RefreshLogic {}
