/// Placeholder: the Swift kurento-client is being written.
public final class KurentoClient: Sendable {}
