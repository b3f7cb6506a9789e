public import Foundation

/// Validates JSON documents against JSON Schemas with Python `jsonschema`, the independent witness of
/// docs/testing.md#witnesses: all cases of a call go to ONE python process (`scripts/validate_jsonl.py`), as a JSONL
/// file of (schema, ref, instance) lines. ``availability`` costs one short `python3 -c "import jsonschema"` per test
/// process.
///
/// When python3 or jsonschema is missing, ``availability`` says why. Tests use ``mustRun``: under `CI=true` a
/// missing tool fails the test; elsewhere the test is skipped with that message.
public enum SchemaValidation {
    /// One document to check.
    public struct Case: Sendable {
        /// A label for failure messages.
        public var label: String
        /// The schema file, relative to the package root (e.g. `Schemas/kurento-conventions.schema.json`).
        public var schema: String
        /// A JSON pointer into the schema (`#/$defs/wrappedResult`), or `nil` for the whole schema.
        public var ref: String?
        /// The document, as JSON text.
        public var instanceJSON: String

        /// Creates a case.
        public init(label: String, schema: String, ref: String? = nil, instanceJSON: String) {
            self.label = label
            self.schema = schema
            self.ref = ref
            self.instanceJSON = instanceJSON
        }
    }

    /// The verdict on one case.
    public struct Verdict: Sendable {
        /// The case's label.
        public var label: String
        /// Whether the document is valid.
        public var valid: Bool
        /// The validator's messages when invalid.
        public var errors: [String]
    }

    /// The validator could not run.
    public struct Unavailable: Error, CustomStringConvertible {
        /// Why.
        public var reason: String
        public var description: String { "schema validation unavailable: \(reason)" }
    }

    /// The package root (found from this file's path).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// Whether `CI=true` is set: missing tools then fail instead of skip (docs/testing.md#witnesses).
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// `nil` when python3 with jsonschema can run, otherwise the reason it cannot.
    public static let availability: String? = Python.missing("jsonschema")

    /// Whether a schema test should run: the validator is available, or CI demands it (and the test then fails).
    public static var mustRun: Bool { availability == nil || isCI }

    /// Validates every case in one python process.
    /// - Throws: ``Unavailable`` when python or jsonschema is missing, or the script fails.
    public static func validate(_ cases: [Case]) throws -> [Verdict] {
        if let availability { throw Unavailable(reason: availability) }
        var lines = ""
        for c in cases {
            let meta: [String: Any] = ["label": c.label, "schema": c.schema, "ref": c.ref ?? ""]
            let metaData = try JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys])
            var line = String(decoding: metaData, as: UTF8.self)
            line.removeLast()  // reopen the object to append the instance text verbatim
            lines += line + ",\"instance\":" + c.instanceJSON + "}\n"
        }
        // The cases go to the script as a JSONL file (docs/testing.md#witnesses), removed afterwards; unique per call,
        // because several suites of one test process may validate at once.
        let name = "schema-cases-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).jsonl"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try Data(lines.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = packageRoot.appendingPathComponent("scripts/validate_jsonl.py").path
        let (status, output) = try Python.run([script, "--root", packageRoot.path, file.path])
        guard status == 0 else { throw Unavailable(reason: "validate_jsonl.py exited \(status): \(output)") }
        return try output.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return Verdict(label: object["label"] as? String ?? "?", valid: object["valid"] as? Bool ?? false,
                           errors: object["errors"] as? [String] ?? [])
        }
    }
}
