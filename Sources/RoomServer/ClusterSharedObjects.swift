import JSONRPC
import RoomCluster
import SharedObjectServer
import SharedObjects

/// Shared objects sequenced by the cluster's Redis (``/RoomCluster/ClusterNode``'s object scripts), so that the
/// clients of one object on every node see one object: the same versions, in order.
struct ClusterSharedObjects: SharedObjectCluster {
    let node: ClusterNode

    func open(_ name: String, persistent: Bool) async throws -> SharedObjectState {
        let record = try await node.openObject(name, persistent: persistent)
        var data: [String: JSONValue] = [:]
        for (key, text) in record.properties { data[key] = try? JSONValue(parsing: text) }
        return SharedObjectState(name: name, version: record.version, persistent: record.persistent, data: data)
    }

    func set(_ name: String, properties: [String: JSONValue], maxBytes: Int) async throws -> SharedObjectUpdate? {
        let changes = properties.keys.sorted().map { key in
            (key: key, text: properties[key] == .null ? nil : properties[key]!.canonicalText)
        }
        switch try await node.setObject(name, changes: changes, maxBytes: maxBytes) {
        case .unchanged:
            return nil
        case .tooLarge(let bytes):
            throw SharedObjectClusterTooLarge(bytes: bytes)
        case .changed(let version, let payload):
            return SharedObjectUpdate(name: name, version: version,
                                      changed: (try? JSONValue(parsing: payload))?["changed"]?.objectValue ?? [:])
        }
    }

    func post(_ message: SharedObjectMessage) {
        node.post(ClusterNode.objectMessageKind, room: message.name, user: "", payload: message.json.jsonText)
    }

    func count(_ name: String, delta: Int) { node.countObjectClients(name, delta: delta) }

    /// What another node's event means for this node's shared objects, if it is about one.
    static func delivery(of event: ClusterEvent) -> SharedObjectDelivery? {
        guard let payload = try? JSONValue(parsing: event.payload) else { return nil }
        switch event.kind {
        case ClusterNode.objectUpdateKind:
            guard let version = payload["version"]?.intValue, let changed = payload["changed"]?.objectValue else {
                return nil
            }
            return .update(SharedObjectUpdate(name: event.room, version: version, changed: changed))
        case ClusterNode.objectMessageKind:
            guard let method = payload["method"]?.stringValue else { return nil }
            return .message(SharedObjectMessage(name: event.room, method: method, params: payload["params"]))
        default:
            return nil
        }
    }
}

/// A shared-object event from another node.
enum SharedObjectDelivery: Sendable {
    case update(SharedObjectUpdate)
    case message(SharedObjectMessage)
}
