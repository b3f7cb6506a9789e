import PeerManager
import SDP

/// Offers for the media tests as a Kurento client makes them with PeerManager, and where an answer carries its
/// transports. (Browser captures and the sdp-transform corpus: TestSupport's `SDPFiles`.)
enum MediaOffers {
    /// The m-lines of `answer` that carry a transport, hence a server candidate: the tagged (first) m-line of each
    /// BUNDLE group, and every accepted m-line outside the groups (RFC 9143 §7.3).
    static func transports(of answer: SessionDescription) -> [Int] {
        let bundled = Set(answer.bundleGroups.flatMap(\.mids))
        let tagged = Set(answer.bundleGroups.compactMap(\.mids.first))
        return answer.media.indices.filter { index in
            let section = answer.media[index]
            return section.port != 0 && (section.mid.map { !bundled.contains($0) || tagged.contains($0) } ?? true)
        }
    }

    /// An audio+video offer as a Kurento client makes it with PeerManager (opus, VP8/H264, BUNDLE, trickle).
    static func client(_ direction: MediaDirection) async throws -> String {
        try await PeerManager().generateOffer(for: "client", media: .audioVideo(direction: direction))
    }
}
