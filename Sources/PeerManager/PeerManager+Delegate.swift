/// The NBM-style delegate face: one more event subscriber (docs/architecture.md#event-streams).
public protocol PeerManagerDelegate: AnyObject, Sendable {
    /// Called for every event, in order, on no particular thread.
    func peerManager(_ manager: PeerManager, didEmit event: PeerManagerEvent)
}

extension PeerManager {
    /// Delivers every later event to `delegate`, which is held weakly: delivery stops when it goes away or
    /// when the returned task is cancelled.
    @discardableResult
    public func attach(delegate: some PeerManagerDelegate) -> Task<Void, Never> {
        let stream = events()
        return Task { [weak delegate] in
            do {
                for try await event in stream {
                    guard let delegate else { return }
                    delegate.peerManager(self, didEmit: event)
                }
            } catch {
                // The subscriber overflowed: the delegate stopped consuming fast enough; delivery ends.
            }
        }
    }
}
