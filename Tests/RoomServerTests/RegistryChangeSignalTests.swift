@testable import RoomServer
import SignalingSupport
import Testing

@Suite struct RegistryChangeSignalTests {
    /// The address of a local variable of the observer: how deep in the stack the observer runs.
    static func stackDepthMarker() -> UInt {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// Firing must not wrap the observer again each time: the observer runs at the same stack depth after
    /// 10,000 changes as after the first (it ran 2 thunk frames deeper per change before the fix).
    @Test func theObserverRunsAtTheSameDepthAfterManyChanges() {
        let signal = RegistryChangeSignal()
        let depth = LockedValue<UInt>(0)
        signal.observe { depth.withLock { $0 = Self.stackDepthMarker() } }
        signal.fire()
        let first = depth.withLock { $0 }
        for _ in 0..<10_000 { signal.fire() }
        let later = depth.withLock { $0 }
        #expect(first != 0)
        #expect(later == first, "the observer ran \(Int(first) - Int(later)) bytes deeper after 10,000 changes")
    }
}
