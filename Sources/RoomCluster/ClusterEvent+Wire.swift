import Foundation
import RoomClusterCore

/// An event as it travels on a room's Redis channel: its JSON (the Lua scripts of shared objects write the same
/// fields with `cjson.encode`).
extension ClusterEvent {
    var wireText: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }

    init?(wireText: String) {
        guard let event = try? JSONDecoder().decode(ClusterEvent.self, from: Data(wireText.utf8)) else { return nil }
        self = event
    }
}
