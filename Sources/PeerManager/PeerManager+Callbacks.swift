public import SDP

/// The completion-closure face over the async API (docs/architecture.md#callbacks). Each call starts its own task, so
/// calls are not ordered relative to each other; use the async API when order matters.
extension PeerManager {
    /// ``generateOffer(for:media:)`` with a completion.
    public nonisolated func generateOffer(
        for id: String, media: MediaConfiguration, completion: @escaping @Sendable (Result<String, PeerManagerError>) -> Void
    ) {
        Task { completion(await Self.result { () throws(PeerManagerError) in try await self.generateOffer(for: id, media: media) }) }
    }

    /// ``processOffer(_:for:policy:provisional:)`` with a completion (the registry's own answer policy).
    public nonisolated func processOffer(
        _ sdp: String, for id: String, completion: @escaping @Sendable (Result<String, PeerManagerError>) -> Void
    ) {
        Task { completion(await Self.result { () throws(PeerManagerError) in try await self.processOffer(sdp, for: id) }) }
    }

    /// ``processAnswer(_:for:provisional:)`` with a completion.
    public nonisolated func processAnswer(
        _ sdp: String, for id: String, completion: @escaping @Sendable (Result<Void, PeerManagerError>) -> Void
    ) {
        Task { completion(await Self.result { () throws(PeerManagerError) in try await self.processAnswer(sdp, for: id) }) }
    }

    /// ``addICECandidate(_:for:)`` with a completion.
    public nonisolated func addICECandidate(
        _ candidate: IceCandidate, for id: String, completion: @escaping @Sendable (Result<Void, PeerManagerError>) -> Void
    ) {
        Task { completion(await Self.result { () throws(PeerManagerError) in try await self.addICECandidate(candidate, for: id) }) }
    }

    private static func result<T>(_ body: () async throws(PeerManagerError) -> T) async -> Result<T, PeerManagerError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
