import CLISupport
import RoomClient
import WebSocketTransport

extension ConnectionOptions {
    /// The RoomClient settings these options make.
    var configuration: RoomClient.Configuration {
        var configuration = RoomClient.Configuration(requestTimeout: requestTimeout, retries: retries, authToken: token)
        configuration.webSocket.tls = tls
        if let logger = logger("room-join") { configuration.logger = logger }
        return configuration
    }
}
