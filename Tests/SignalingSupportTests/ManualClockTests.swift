import SignalingSupport
import Testing

@Suite struct ManualClockTests {
    @Test func timersFireInDeadlineOrderWhenTimeAdvances() {
        let clock = ManualClock()
        let fired = LockedValue<[String]>([])
        clock.schedule(after: .seconds(2)) { fired.withLock { $0.append("b") } }
        clock.schedule(after: .seconds(1)) { fired.withLock { $0.append("a") } }
        clock.schedule(after: .seconds(5)) { fired.withLock { $0.append("c") } }
        clock.advance(by: .seconds(2))
        #expect(fired.withLock { $0 } == ["a", "b"])
        #expect(clock.now.offset == .seconds(2))
        #expect(clock.pendingTimers == 1)
    }

    @Test func cancelledTimerNeverFires() {
        let clock = ManualClock()
        let fired = LockedValue(false)
        let handle = clock.schedule(after: .seconds(1)) { fired.withLock { $0 = true } }
        handle.cancel()
        clock.advance(by: .seconds(10))
        #expect(fired.withLock { $0 } == false)
    }

    @Test func timerScheduledByFiringTimerRunsInSameAdvanceWhenDue() {
        let clock = ManualClock()
        let fired = LockedValue<[ClockInstant]>([])
        clock.schedule(after: .seconds(1)) {
            fired.withLock { $0.append(clock.now) }
            clock.schedule(after: .seconds(1)) { fired.withLock { $0.append(clock.now) } }
        }
        clock.advance(by: .seconds(3))
        #expect(fired.withLock { $0 }.map(\.offset) == [.seconds(1), .seconds(2)])
    }

    @Test func sleepResumesWhenClockAdvancesAndThrowsWhenCancelled() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        while clock.pendingTimers == 0 { await Task.yield() }
        clock.advance(by: .seconds(1))
        try await sleeper.value

        let cancelled = Task { try await clock.sleep(for: .seconds(1)) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }
}

@Suite struct SecureIDTests {
    @Test func sessionIdsCarryAtLeast128BitsAndDoNotRepeat() {
        let ids = (0..<1000).map { _ in SecureID.hex() }
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(ids).count == ids.count)
        #expect(SecureID.redacted(ids[0]).hasSuffix("…"))
        #expect(SecureID.redacted(ids[0]).count == 7)
    }

    @Test func systemClockSleepWaitsAtLeastTheDelay() async throws {
        let clock = SystemClock()
        let start = clock.now
        try await clock.sleep(for: .milliseconds(20))
        #expect(clock.now - start >= .milliseconds(20))
    }
}
