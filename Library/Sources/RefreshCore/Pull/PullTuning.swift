/// Every tuning value of pull tracking, named in one place.
public enum PullTuning {
    /// Past the component's extent, the pull follows the finger with this iOS-like coefficient.
    public static let rubberBandCoefficient = 0.55
    /// How much of the recent motion the release velocity is measured over, in seconds.
    public static let velocityWindow = 0.15
    /// A touchpad pull with no event for this long has ended (X11 synaptics/evdev send no scroll-end).
    public static let scrollPause = 0.2
    /// How often a pull from a source without scroll-end is checked for a pause, in seconds.
    public static let pauseCheckInterval = 0.05
    /// The most one pause check counts as quiet time: a main loop stalled behind a slow frame
    /// has input queued that it has not seen yet, so the stall itself is no pause.
    public static let longestQuietStep = 2 * pauseCheckInterval
    /// An event stamped longer ago than this, in seconds, has a stamp from another clock.
    public static let maximumEventAge = 10.0
    /// How close to the edge, in pixels, still counts as at the edge (adjustments stop at 1e-14, not 0).
    public static let edgeTolerance = 0.5
    /// Pixels a pull must travel before the gesture is claimed, when the platform gives no threshold.
    public static let defaultDragThreshold = 8.0
    /// The least release speed, in pixels per second along the pull, that counts as a flick:
    /// slower, where the content was let go alone decides (libadwaita's velocity threshold).
    public static let flickVelocity = 300.0
    /// How far a flick must have pulled, as a fraction of the extent, before it can refresh:
    /// a quick flick near the edge is no refresh, one just short of the threshold is.
    public static let flickReach = 0.5
    /// Seconds a flick's velocity is projected onwards to decide whether it passes the threshold.
    public static let flickProjection = 0.05
    /// The shortest motion after a release, in seconds, however fast the content was let go.
    public static let shortestReleaseAnimation = 0.1
    /// Exponent GTK applies to the page size to turn wheel-unit smooth deltas into pixels.
    public static let wheelStepExponent = 2.0 / 3.0
}
