import CLISupport
import JSONRPC
import RoomProtocol
import SDP

/// The reports of `tree-join` (`Schemas/tree-cli-events.schema.json`).
extension Report {
    /// `created`: the tree exists (its id given or generated).
    static func created(_ tree: String) -> Report {
        Report(event: "created", fields: ["tree": .string(tree)], text: "created tree \(tree)")
    }

    /// `source`: the source's answer is applied and its candidate sent; no real media.
    static func source(_ tree: String, state: String, port: Int) -> Report {
        Report(event: "source", fields: ["tree": .string(tree), "realMedia": false, "signalingState": .string(state)],
               text: "source set on \(tree): signaling state \(state); local candidate 127.0.0.1:\(port) sent "
                   + "(no real media: the offer is PeerManager's and the candidate made up)")
    }

    /// `sink`: sink `sinkId`'s answer is applied and its candidate sent.
    static func sink(_ sinkId: String, tree: String, number: Int, of count: Int, state: String, port: Int) -> Report {
        Report(event: "sink", fields: ["tree": .string(tree), "sinkId": .string(sinkId), "signalingState": .string(state)],
               text: "sink \(number) of \(count) attached to \(tree): \(sinkId); signaling state \(state); "
                   + "local candidate 127.0.0.1:\(port) sent")
    }

    /// `iceCandidate`: a server candidate, added to the PeerManager connection of its endpoint.
    static func iceCandidate(_ candidate: IceCandidate, tree: String, endpoint: TreeEndpoint) -> Report {
        var fields: [String: JSONValue] = ["tree": .string(tree), "candidate": .string(candidate.candidate),
                                           "sdpMid": candidate.sdpMid.map(JSONValue.string) ?? .null,
                                           "sdpMLineIndex": candidate.sdpMLineIndex.map(JSONValue.int) ?? .null]
        fields["endpoint"] = endpoint == .source ? "source" : "sink"
        if let sinkId = endpoint.sinkId { fields["sinkId"] = .string(sinkId) }
        return Report(event: "iceCandidate", fields: fields,
                      text: "ICE candidate for the \(endpoint) of \(tree): \(candidate.candidate)")
    }

    /// `sinkRemoved`.
    static func sinkRemoved(_ sinkId: String, tree: String) -> Report {
        Report(event: "sinkRemoved", fields: ["tree": .string(tree), "sinkId": .string(sinkId)],
               text: "sink \(sinkId) removed")
    }

    /// `sourceRemoved`.
    static func sourceRemoved(_ tree: String) -> Report {
        Report(event: "sourceRemoved", fields: ["tree": .string(tree)], text: "source of \(tree) removed")
    }

    /// `released`: the tree is gone.
    static func released(_ tree: String) -> Report {
        Report(event: "released", fields: ["tree": .string(tree)], text: "tree \(tree) released")
    }

    /// `done`, always last: why the run ended.
    static func done(reason: String, tree: String?) -> Report {
        var fields: [String: JSONValue] = ["reason": .string(reason)]
        if let tree { fields["tree"] = .string(tree) }
        return Report(event: "done", fields: fields, text: "done (\(reason))")
    }
}
