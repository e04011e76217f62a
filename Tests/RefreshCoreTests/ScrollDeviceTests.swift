import RefreshCore
import Testing

/// One device as GDK describes it, and how its deltas pull.
struct DeviceCase: Sendable, CustomTestStringConvertible {
    var name: String
    var device: ScrollDevice
    var source: ScrollSource

    var testDescription: String { name }
}

private func device(_ backend: ScrollDevice.Backend, _ kind: ScrollDevice.Kind, discrete: Bool = false,
                    wheelSteps: Bool = false) -> ScrollDevice {
    ScrollDevice(backend: backend, kind: kind, isDiscrete: discrete, countsWheelSteps: wheelSteps)
}

@Suite("ScrollDevice: which sources end a pull with scroll-end, decided from the device")
struct ScrollDeviceTests {
    static let cases: [DeviceCase] = [
        DeviceCase(name: "Wayland finger scrolling ends with axis_stop",
                   device: device(.wayland, .touchpad), source: .continuous(reportsEnd: true)),
        DeviceCase(name: "Wayland continuous scrolling (trackpoint) ends with axis_stop",
                   device: device(.wayland, .trackpoint), source: .continuous(reportsEnd: true)),
        DeviceCase(name: "a Wayland wheel click is a wheel",
                   device: device(.wayland, .mouse, discrete: true, wheelSteps: true), source: .wheel),
        DeviceCase(name: "smooth Wayland wheel steps are a wheel",
                   device: device(.wayland, .mouse, wheelSteps: true), source: .wheel),
        DeviceCase(name: "an X11 touchpad through libinput sends a zero delta on lift",
                   device: device(.x11, .touchpad, wheelSteps: true), source: .continuous(reportsEnd: true)),
        DeviceCase(name: "an X11 mouse wheel's smooth wheel-unit events are a wheel",
                   device: device(.x11, .mouse, wheelSteps: true), source: .wheel),
        DeviceCase(name: "an X11 discrete wheel click is a wheel",
                   device: device(.x11, .mouse, discrete: true), source: .wheel),
        DeviceCase(name: "an X11 trackpoint may never send scroll-end",
                   device: device(.x11, .trackpoint, wheelSteps: true), source: .continuous(reportsEnd: false)),
        DeviceCase(name: "pixel deltas from an unknown kind of device may never end",
                   device: device(.wayland, .other), source: .continuous(reportsEnd: false)),
        DeviceCase(name: "another backend's touchpad is not trusted to end",
                   device: device(.other, .touchpad), source: .continuous(reportsEnd: false)),
    ]

    @Test("classification", arguments: cases)
    func classification(_ scenario: DeviceCase) {
        #expect(scenario.device.source == scenario.source)
    }

    @Test("only a continuous source that reports its end is ended by scroll-end alone")
    func reportsEnd() {
        #expect(ScrollSource.continuous(reportsEnd: true).reportsEnd)
        #expect(!ScrollSource.continuous(reportsEnd: false).reportsEnd)
        #expect(!ScrollSource.wheel.reportsEnd)
    }
}

@Suite("EventTime: 32-bit millisecond stamps on the pull clock")
struct EventTimeTests {
    @Test("a stamp is placed back by its age", arguments: [
        (stamp: UInt32(1_000_000), now: 1_000.0, expected: 1_000.0),
        (stamp: UInt32(999_700), now: 1_000.0, expected: 999.7),
        (stamp: UInt32(999_990), now: 1_000.005, expected: 999.99),
    ])
    func age(stamp: UInt32, now: Double, expected: Double) {
        #expect(abs(EventTime.seconds(stampMilliseconds: stamp, now: now) - expected) < 0.0015)
    }

    @Test("the stamp wraps at 2^32 milliseconds")
    func wrap() {
        let now = (Double(UInt32.max) + 101) / 1000  // the clock's millisecond count has wrapped to 100
        let stamp = UInt32.max - 199                  // 300 ms earlier, before the wrap
        #expect(abs(EventTime.seconds(stampMilliseconds: stamp, now: now) - (now - 0.3)) < 0.0015)
    }

    @Test("a stamp from another clock (the future, or too old) is taken as now", arguments: [
        UInt32(1_000_500), UInt32(900_000), UInt32(0),
    ])
    func foreignClock(stamp: UInt32) {
        #expect(EventTime.seconds(stampMilliseconds: stamp, now: 1_000.0) == 1_000.0)
    }
}
