import CLISupport
import JSONRPC
import RoomClient
import WebSocketTransport

extension ConnectionOptions {
    /// The RoomClient settings these options make.
    var configuration: RoomClient.Configuration {
        var configuration = RoomClient.Configuration(requestTimeout: requestTimeout, retries: retries, authToken: token)
        configuration.reconnect = reconnectPolicy
        apply(to: &configuration.webSocket)
        if let logger = logger("room-join") { configuration.logger = logger }
        return configuration
    }
}
