extension KurentoClient {
    /// The names of a ``KurentoClient``'s metrics (docs/operations.md#metrics), each labelled `kms` with the client's
    /// ``KurentoClient/name``.
    public enum MetricName {
        /// Histogram (a swift-metrics `Timer`): from a request's send to KMS's answer; a pipelined batch
        /// (``KurentoClient/send(_:timeout:)``) is one sample. Unanswered requests are not timed.
        public static let requestDuration = "kurento_request_duration_seconds"
        /// Gauge: media objects this client created and has not released (a released pipeline takes its elements,
        /// a lost session all of them).
        public static let objects = "kurento_objects"
        /// Counter by `kind`: `reply` (an error answer), `timeout`, `event` (an `Error` event), `session` (a lost
        /// session).
        public static let errors = "kurento_errors_total"
    }
}
