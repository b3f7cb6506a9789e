/// The error codes a Kurento Media Server answers with (docs/kurento.md#errors), as KMS defines them in
/// `KurentoException.hpp` (Kurento/kms-core `src/server/interface/KurentoException.hpp`), plus the JSON-RPC codes
/// its JSON-RPC layer uses (Kurento/kurento `src/jsonrpc/JsonRpcException.hpp`).
///
/// An unknown code stays representable: ``KurentoError/code`` is the raw `Int`, and this type names the known ones.
public struct KurentoErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    // JSON-RPC (JsonRpcException.hpp).
    /// -32700: unparsable JSON.
    public static let parseError = Self(rawValue: -32700)
    /// -32600: not a JSON-RPC request (a batch, a missing `jsonrpc`).
    public static let invalidRequest = Self(rawValue: -32600)
    /// -32601: no such top-level method.
    public static let methodNotFound = Self(rawValue: -32601)
    /// -32602: `params` missing where required.
    public static let invalidParams = Self(rawValue: -32602)
    /// -32603: an unexpected exception inside KMS.
    public static let internalError = Self(rawValue: -32603)
    /// -32000: a required top-level param is missing or of the wrong type.
    public static let serverError = Self(rawValue: -32000)

    // Generic (KurentoException.hpp).
    /// 40001: a param of an operation or constructor is missing or of the wrong type.
    public static let marshallError = Self(rawValue: 40001)
    /// 40003: unexpected.
    public static let unexpectedError = Self(rawValue: 40003)
    /// 40004: elements could not be connected (for example, of different pipelines).
    public static let connectError = Self(rawValue: 40004)
    /// 40005: unsupported media type.
    public static let unsupportedMediaType = Self(rawValue: 40005)
    /// 40006: not implemented.
    public static let notImplemented = Self(rawValue: 40006)
    /// 40007: the session is unknown to this KMS (after a KMS restart, or its objects were collected).
    public static let invalidSession = Self(rawValue: 40007)
    /// 40008: a malformed transaction; KMS also answers it for an unknown operation on an object.
    public static let malformedTransaction = Self(rawValue: 40008)
    /// 40009: KMS reached a resource limit (threads, open files).
    public static let notEnoughResources = Self(rawValue: 40009)

    // Media objects.
    /// 40100: no such media object type.
    public static let mediaObjectTypeNotFound = Self(rawValue: 40100)
    /// 40101: no such media object (unknown id, or released).
    public static let mediaObjectNotFound = Self(rawValue: 40101)
    /// 40105: no such method.
    public static let mediaObjectMethodNotFound = Self(rawValue: 40105)
    /// 40106: the object does not raise that event.
    public static let mediaObjectEventNotSupported = Self(rawValue: 40106)
    /// 40107: an illegal param.
    public static let mediaObjectIllegalParam = Self(rawValue: 40107)
    /// 40108: no factory for that type (a module not loaded).
    public static let mediaObjectNotAvailable = Self(rawValue: 40108)

    // SDP.
    /// 40201: the SDP could not be parsed.
    public static let sdpParseError = Self(rawValue: 40201)
    /// 40205: the offer could not be processed.
    public static let sdpProcessOfferError = Self(rawValue: 40205)
    /// 40206: the answer could not be processed.
    public static let sdpProcessAnswerError = Self(rawValue: 40206)
    /// 40208: the endpoint has negotiated already (a second `processOffer` or `generateOffer`).
    public static let sdpAlreadyNegotiated = Self(rawValue: 40208)
    /// 40209: `processAnswer` without `generateOffer` first.
    public static let sdpOfferNotGenerated = Self(rawValue: 40209)
    /// 40210: a second `processAnswer`.
    public static let sdpAnswerAlreadyProcessed = Self(rawValue: 40210)

    // ICE.
    /// 40400: candidates could not be gathered.
    public static let iceGatherCandidatesError = Self(rawValue: 40400)
    /// 40401: the candidate was refused.
    public static let iceAddCandidateError = Self(rawValue: 40401)

    public var description: String { "\(rawValue)" }
}
