import PeerManager
import SDP
import SignalingSupport
import Testing

@Suite struct PeerManagerFacesTests {
    final class RecordingDelegate: PeerManagerDelegate {
        let events = LockedValue<[PeerManagerEvent]>([])
        let closed: @Sendable () -> Void

        init(closed: @escaping @Sendable () -> Void) { self.closed = closed }

        func peerManager(_ manager: PeerManager, didEmit event: PeerManagerEvent) {
            events.withLock { $0.append(event) }
            if case .connectionClosed = event { closed() }
        }
    }

    @Test func delegateReceivesEventsInOrder() async throws {
        let manager = PeerManager(generator: SeededGenerator(state: 8))
        let holder = LockedValue<RecordingDelegate?>(nil)
        let offerText = LockedValue("")
        await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
            let recorder = RecordingDelegate(closed: { closed.resume() })
            holder.withLock { $0 = recorder }
            Task {
                await manager.attach(delegate: recorder)
                let offer = try await manager.generateOffer(for: "a", media: .audioVideo())
                offerText.withLock { $0 = offer }
                await manager.closeConnection("a")
            }
        }
        let recorder = try #require(holder.withLock { $0 })
        #expect(recorder.events.withLock { $0 } == [
            .signalingStateChanged(id: "a", state: .haveLocalOffer),
            .offerGenerated(id: "a", sdp: offerText.withLock { $0 }),
            .connectionClosed(id: "a"),
        ])
    }

    @Test func completionFaceDeliversTheResult() async throws {
        let manager = PeerManager(generator: SeededGenerator(state: 9))
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<String, PeerManagerError>, Never>) in
            manager.generateOffer(for: "a", media: .audioVideo()) { done.resume(returning: $0) }
        }
        let offer = try result.get()
        #expect(try SessionDescription(parsing: offer).media.count == 2)
        let failure = await withCheckedContinuation { (done: CheckedContinuation<Result<Void, PeerManagerError>, Never>) in
            manager.processAnswer("", for: "missing") { done.resume(returning: $0) }
        }
        #expect(throws: PeerManagerError.unknownConnection("missing")) { try failure.get() }
    }
}
