import JSONRPC
import SharedObjects

/// Why a new object or a change was refused by the server's rules rather than by one session's limits: the service
/// throws it from its own accounting and a ``SharedObjectCluster`` throws it from the cluster's. The service answers
/// the client with the matching ``/SharedObjects/SharedObjectErrorCode``.
public enum SharedObjectRefusal: Error, Sendable, Hashable {
    /// A client asked to create a persistent object, and clients may not here
    /// (``SharedObjectService/Configuration/clientsCreatePersistentObjects``): 1102.
    case persistentNotAllowed
    /// One more object would pass ``SharedObjectQuotas/maxObjects`` (`limit`): 1103.
    case tooManyObjects(limit: Int)
    /// The change would take all objects' data to `bytes`, past ``SharedObjectQuotas/maxBytes`` (`limit`): 1104,
    /// nothing changed.
    case tooManyBytes(bytes: Int, limit: Int)

    /// The error the client gets for a refusal about object `name`.
    func error(for name: String) -> RPCErrorObject {
        switch self {
        case .persistentNotAllowed:
            .sharedObject(.unauthorized, "clients may not create persistent shared objects on this server: "
                          + "'\(name)' does not exist as one; connect without 'persistent'")
        case .tooManyObjects(let limit):
            .sharedObject(.tooManyObjects, "the server holds as many shared objects as it allows (server limit \(limit))")
        case .tooManyBytes(let bytes, let limit):
            .sharedObject(.objectTooLarge, "the server's shared objects would hold \(bytes) bytes (server limit "
                          + "\(limit)); nothing was changed")
        }
    }
}
