@testable import JSONRPC
import SignalingSupport
import Testing
import TestSupport

/// A session's binding and its expiry timer change together (docs/architecture.md#server-sessions): a resume that
/// lands while a dropped connection is being unbound never leaves the expiry armed on the live session.
@Suite struct SessionExpiryRaceTests {
    /// A manual clock that runs `hook` each time a timer of `delay` is scheduled, before scheduling it: a test's
    /// way into the instant between "the session is unbound" and "its expiry is armed".
    final class HookedClock: SignalingClock {
        let base = ManualClock()
        private let delay: Duration
        private let hook: LockedValue<(@Sendable () -> Void)?>
        init(delay: Duration, hook: @escaping @Sendable () -> Void) {
            self.delay = delay
            self.hook = LockedValue(hook)
        }
        var now: ClockInstant { base.now }
        func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any TimerHandle {
            if delay == self.delay, let hook = hook.withLock({ h -> (@Sendable () -> Void)? in defer { h = nil }; return h }) {
                hook()
            }
            return base.schedule(after: delay, action)
        }
    }

    @Test func aResumeWhileTheDroppedConnectionIsUnboundKeepsTheSessionAlive() async throws {
        // Given a session (window 5 s), and a hook that re-binds it to another connection (a resume's `attach`) at
        // the moment its dropped connection's expiry timer is being armed
        let resumer = LocalMessageConnection.pair().1
        let session = LockedValue<ServerSession?>(nil)
        let resumed = Counter()
        let clock = HookedClock(delay: .seconds(5)) {
            _ = session.withLock { $0 }?.attach(ConnectionBinding(resumer), received: nil)
            resumed.increment()
        }
        let server = JSONRPCServer(configuration: .init(reconnectionWindow: .seconds(5), clock: clock, handlerTimeout: nil))
        let ended = LockedValue<[String]>([])
        server.whenSessionEnds { session in ended.withLock { $0.append(session.id) } }
        let (near, far) = LocalMessageConnection.pair()
        let serving = Task { await server.serve(far) }
        let peer = RawPeer(connection: near)
        let connected = try await peer.exchange(#"{"jsonrpc":"2.0","method":"connect","id":0}"#)
        let sid = try #require(connected["result"]?["sessionId"]?.stringValue)
        session.withLock { $0 = server.session(id: sid) }

        // When its connection drops (the resume lands between the unbind and the arming of the expiry), and the
        // window passes
        await near.close(code: 1006, reason: "dropped")
        try await returnsWithin(.seconds(10), "the dropped connection's serving to end") { await serving.value }
        #expect(resumed.count == 1)
        clock.base.advance(by: .seconds(6))

        // Then the resumed session is alive and bound, and never ended
        #expect(server.session(id: sid)?.isConnected == true)
        #expect(ended.withLock { $0 }.isEmpty)
    }
}
