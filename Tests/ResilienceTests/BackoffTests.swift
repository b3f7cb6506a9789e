import JSONRPC
import SignalingSupport
import Testing

/// The backoff (docs/architecture.md#reconnect): 0.25 s doubling to 4 s, ±20 % jitter, capped by the server's window,
/// within the budget.
struct BackoffTests {
    let backoff = JSONRPCClient.Backoff()

    @Test func delaysDoubleFromAQuarterSecondUpToFourSecondsWithoutJitter() {
        // Given the default backoff and a centred jitter (0.5), far from the window's end
        let delays = (1...7).map { backoff.delay(attempt: $0, elapsed: .zero, unit: 0.5) }
        // Then the delays double and stop at 4 s (the window of 10 s does not cap them yet)
        #expect(delays == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4),
                           .seconds(4)])
    }

    @Test func jitterStaysWithinTwentyPercentAndReachesBothEnds() {
        // Given the extreme jitter draws
        let low = backoff.delay(attempt: 3, elapsed: .zero, unit: 0)
        let high = backoff.delay(attempt: 3, elapsed: .zero, unit: 1)
        // Then they are the base delay ∓ 20 %
        #expect(low == .milliseconds(800) && high == .milliseconds(1200))
        // And a seeded generator's draws all stay inside that band
        var generator = SeededRandomNumberGenerator(seed: 42)
        for _ in 0..<1000 {
            let unit = Double(generator.next() >> 11) / Double(UInt64(1) << 53)
            let delay = backoff.delay(attempt: 3, elapsed: .zero, unit: unit)!
            #expect(delay >= .milliseconds(800) && delay <= .milliseconds(1200))
        }
    }

    @Test func eachDelayIsCappedByTheTimeLeftInTheServersWindow() {
        // Given 9.5 s since the loss, with a 10 s window
        let delay = backoff.delay(attempt: 6, elapsed: .milliseconds(9500), unit: 0.5)
        // Then the attempt comes before the window closes, not 4 s later
        #expect(delay == .milliseconds(500))
        // And once the window is over the delay is the plain backoff again (the session is gone anyway)
        #expect(backoff.delay(attempt: 6, elapsed: .seconds(11), unit: 0.5) == .seconds(4))
    }

    @Test func theBudgetEndsTheAttemptsAndCapsTheLastDelay() {
        // Given 58 s spent of a 60 s budget
        #expect(backoff.delay(attempt: 20, elapsed: .seconds(59), unit: 0.5) == .seconds(1))
        // Then a spent budget means: give up
        #expect(backoff.delay(attempt: 21, elapsed: .seconds(60), unit: 0.5) == nil)
    }

    @Test func closeCodesDecideWhetherToReconnect() {
        for code: UInt16 in [1000, 1008, 4401, 4403, 4409] {
            #expect(!JSONRPCClient.reconnects(after: ConnectionEnd(code: code, reason: "")), "\(code)")
        }
        for code: UInt16 in [1001, 1006, 1011, 1012] {
            #expect(JSONRPCClient.reconnects(after: ConnectionEnd(code: code, reason: "")), "\(code)")
        }
    }
}
