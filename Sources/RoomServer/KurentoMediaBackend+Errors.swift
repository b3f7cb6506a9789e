import KurentoClient
import RoomProtocol

extension KurentoMediaBackend {
    /// A failed KMS call as the Room error the participant gets (Kurento Room's codes: 303 MEDIA_ENDPOINT when an
    /// endpoint cannot be made or KMS does not answer in time, 302 MEDIA_SDP for the offer).
    func roomError(_ error: any Error, while doing: String, code: RoomErrorCode = .mediaEndpoint) -> RoomError {
        if let error = error as? RoomError { return error }
        switch error as? KurentoError {
        case .timeout(_, let after)?:
            return RoomError(.mediaEndpoint, message: "Kurento Media Server did not answer within \(after) while \(doing)")
        case .connectionLost(let reason)?:
            return RoomError(.mediaEndpoint, message: "Kurento Media Server unreachable while \(doing): \(reason)")
        case .server(let kmsCode, let message, _)?:
            return RoomError(code, message: "Kurento Media Server refused while \(doing): \(message) (\(kmsCode))")
        default:
            return RoomError(code, message: "media failed while \(doing): \(error)")
        }
    }

    /// A KMS `Error` event as the `mediaError` text, in Kurento Room's form (`<type>: <description>(errCode=<n>)`,
    /// Kurento/kurento-room `DefaultNotificationRoomHandler.onMediaElementError`).
    static func describe(_ error: ErrorEvent) -> String {
        "\(error.type): \(error.description)(errCode=\(error.errorCode))"
    }
}
