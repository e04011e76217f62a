/// The physical edge of the scrolled content a component sits on.
public enum RefreshEdge: Sendable, Hashable {
    case top, bottom, left, right

    /// The trailing edge: right in left-to-right layouts, left in right-to-left ones.
    public static func trailing(rightToLeft: Bool) -> RefreshEdge { rightToLeft ? .left : .right }

    public var isVertical: Bool { self == .top || self == .bottom }

    /// A drag's translation split into the pull axis (positive pulls the component open) and across it.
    public func dragComponents(dx: Double, dy: Double) -> (along: Double, across: Double) {
        switch self {
        case .top: (dy, dx)
        case .bottom: (-dy, dx)
        case .left: (dx, dy)
        case .right: (-dx, dy)
        }
    }

    /// A scroll delta along the pull axis: scrolling towards the edge pulls it open.
    public func scrollComponent(dx: Double, dy: Double) -> Double {
        switch self {
        case .top: -dy
        case .bottom: dy
        case .left: -dx
        case .right: dx
        }
    }

    /// How the content moves when the component is pulled open by `offset` pixels.
    public func contentDisplacement(_ offset: Double) -> (x: Double, y: Double) {
        switch self {
        case .top: (0, offset)
        case .bottom: (0, -offset)
        case .left: (offset, 0)
        case .right: (-offset, 0)
        }
    }
}
