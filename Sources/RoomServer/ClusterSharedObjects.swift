import JSONRPC
import RoomClusterCore
import SharedObjectServer
import SharedObjects

/// Shared objects sequenced by the cluster (on Redis, `ClusterNode`'s object scripts), so that the clients of one
/// object on every node see one object: the same versions, in order. The cluster also keeps the quotas for every
/// node.
struct ClusterSharedObjects: SharedObjectCluster {
    let node: any ClusterBackplane

    func open(_ name: String, persistent: Bool, createsPersistent: Bool, quotas: SharedObjectQuotas) async throws
        -> SharedObjectState
    {
        switch try await node.openObject(name, persistent: persistent, createsPersistent: createsPersistent,
                                         maxObjects: quotas.maxObjects, maxBytes: quotas.maxBytes) {
        case .opened(let record):
            return Self.state(of: name, record)
        case .persistentNotAllowed:
            throw SharedObjectRefusal.persistentNotAllowed
        case .tooManyObjects(let limit):
            throw SharedObjectRefusal.tooManyObjects(limit: limit)
        case .tooManyBytes(let bytes):
            throw SharedObjectRefusal.tooManyBytes(bytes: bytes, limit: quotas.maxBytes ?? 0)
        }
    }

    func register(_ object: SharedObjectState, clients: Int) async throws -> SharedObjectState {
        let record = ClusterObjectRecord(version: object.version, persistent: object.persistent,
                                         properties: object.data.mapValues(\.canonicalText))
        return Self.state(of: object.name, try await node.registerObject(object.name, record: record, clients: clients))
    }

    /// The state of the object Redis holds as `record`.
    static func state(of name: String, _ record: ClusterObjectRecord) -> SharedObjectState {
        var data: [String: JSONValue] = [:]
        for (key, text) in record.properties { data[key] = try? JSONValue(parsing: text) }
        return SharedObjectState(name: name, version: record.version, persistent: record.persistent, data: data)
    }

    func set(_ name: String, properties: [String: JSONValue], maxBytes: Int, quotas: SharedObjectQuotas,
             sender: SharedObjectSender?) async throws -> SharedObjectUpdate? {
        let changes = properties.keys.sorted().map { key in
            (key: key, text: properties[key] == .null ? nil : properties[key]!.canonicalText)
        }
        switch try await node.setObject(name, changes: changes, maxBytes: maxBytes, maxTotalBytes: quotas.maxBytes,
                                        sender: sender?.json.canonicalText) {
        case .unchanged:
            return nil
        case .missing:
            throw SharedObjectClusterMissing()
        case .tooLarge(let bytes):
            throw SharedObjectClusterTooLarge(bytes: bytes)
        case .tooManyBytes(let bytes):
            throw SharedObjectRefusal.tooManyBytes(bytes: bytes, limit: quotas.maxBytes ?? 0)
        case .changed(let version, let payload):
            return Self.update(of: name, version: version, payload: (try? JSONValue(parsing: payload)) ?? .null)
        }
    }

    /// The update a change's payload (`{"version":…,"changed":{…},"sender":…}`) stands for; a sender that does not
    /// read is left out.
    static func update(of name: String, version: Int, payload: JSONValue) -> SharedObjectUpdate {
        SharedObjectUpdate(name: name, version: version, changed: payload["changed"]?.objectValue ?? [:],
                           sender: try? SharedObjectSender(json: payload["sender"]))
    }

    func post(_ message: SharedObjectMessage) {
        node.post(ClusterEvent.sharedObjectMessage, room: message.name, user: "", payload: message.json.jsonText)
    }

    func count(_ name: String, delta: Int) { node.countObjectClients(name, delta: delta) }

    /// What another node's event means for this node's shared objects, if it is about one.
    static func delivery(of event: ClusterEvent) -> SharedObjectDelivery? {
        guard let payload = try? JSONValue(parsing: event.payload) else { return nil }
        switch event.kind {
        case ClusterEvent.sharedObjectUpdate:
            guard let version = payload["version"]?.intValue, payload["changed"]?.objectValue != nil else { return nil }
            return .update(update(of: event.room, version: version, payload: payload))
        case ClusterEvent.sharedObjectMessage:
            guard let method = payload["method"]?.stringValue else { return nil }
            return .message(SharedObjectMessage(name: event.room, method: method, params: payload["params"],
                                                sender: try? SharedObjectSender(json: payload["sender"])))
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
