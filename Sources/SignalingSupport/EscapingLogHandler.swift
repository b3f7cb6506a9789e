public import Logging

/// A `LogHandler` that escapes, before the handler it wraps prints them, the characters that could forge or hide
/// part of a log line: control characters (a newline would start a line of the client's making), format and bidi
/// characters (U+202E would reorder what follows), line and paragraph separators. They become `\n`, `\r`, `\t` or
/// `\u{XXXX}`; everything else passes as it is. It escapes the message, every metadata value (the call's, the
/// handler's and its metadata provider's) and an attached error, so that whatever a client sent (a name, a
/// method, a reason) can reach a log line only as text inside it.
///
/// `room-server` and the command-line tools log through it
/// (`EscapingLogHandler(wrapping: StreamLogHandler.standardError(label: $0, metadataProvider: .traceParent))`); an
/// embedder that prints logs as lines should wrap its handler the same way.
public struct EscapingLogHandler: LogHandler {
    private var inner: any LogHandler

    /// Wraps `handler`, taking over its metadata provider (whose values are escaped too).
    public init(wrapping handler: any LogHandler) {
        inner = handler
        metadataProvider = handler.metadataProvider
        inner.metadataProvider = nil
    }

    /// The provider whose metadata is added to every line, escaped; the explicit metadata of a call wins over it.
    public var metadataProvider: Logger.MetadataProvider?

    /// The wrapped handler's level.
    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    /// The wrapped handler's metadata; values set here are escaped.
    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue.mapValues(Self.escaped) }
    }

    /// One value of the wrapped handler's metadata; a value set here is escaped.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue.map(Self.escaped) }
    }

    /// Escapes the event's message, metadata and error, then hands it to the wrapped handler.
    public func log(event: LogEvent) {
        var event = event
        var metadata = metadataProvider?.get() ?? [:]
        metadata.merge(event.metadata ?? [:]) { _, explicit in explicit }
        if let error = event.error {
            // As StreamLogHandler shows an attached error, but escaped.
            metadata["error.message"] = "\(error)"
            metadata["error.type"] = "\(String(reflecting: type(of: error)))"
            event.error = nil
        }
        event.metadata = metadata.isEmpty ? nil : metadata.mapValues(Self.escaped)
        let message = event.message.description
        if Self.needsEscaping(message) { event.message = "\(Self.escaped(message))" }
        inner.log(event: event)
    }

    /// `text` with every control, format and bidi character, line and paragraph separator escaped as `\n`, `\r`,
    /// `\t` or `\u{XXXX}` (uppercase hex); `text` itself when it holds none.
    public static func escaped(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isEscaped(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A metadata value with its text escaped as a string's is, nested values included.
    public static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): needsEscaping(text) ? .string(escaped(text)) : value
        case .stringConvertible(let convertible):
            needsEscaping(convertible.description) ? .string(escaped(convertible.description)) : value
        case .array(let values): .array(values.map(escaped))
        case .dictionary(let values): .dictionary(values.mapValues(escaped))
        }
    }

    private static func needsEscaping(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isEscaped)
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
