import JSONRPC
import TestSupport
import Testing

/// The convention table of docs/wire-protocol.md#kurento-conventions, checked on both sides: our server's real
/// responses against `Schemas/kurento-conventions.schema.json` (by Python jsonschema), and our client against those
/// same responses.
@Suite struct KurentoConventionsTests {
    struct Boom: Error, CustomStringConvertible { var description: String { "it broke" } }

    /// One captured response and the schema form (`$defs` entry) it must match.
    struct Captured: Sendable {
        let label: String
        let form: String
        let response: JSONValue
    }

    static let schema = "Schemas/kurento-conventions.schema.json"

    /// Real responses of a server (Kurento conventions unless `plain`), captured over LocalMessageConnection.
    static func capture(plain: Bool = false) async throws -> [Captured] {
        let server = JSONRPCServer(configuration: .init(conventions: plain ? .plain : .kurento))
        server.register("object") { _, _ in ["answer": 1] }
        server.register("number") { _, _ in 42 }
        server.register("string") { _, _ in "text" }
        server.register("array") { _, _ in [1, 2] }
        server.register("void") { _, _ in nil }
        server.register("errorString") { _, _ in throw RPCErrorObject(code: 104, message: "Error publishing", data: "detail") }
        server.register("errorNull") { _, _ in throw RPCErrorObject(code: 105, message: "Error unpublishing") }
        server.register("uncaught") { _, _ in throw Boom() }
        let peer = RawPeer.connected(to: server)
        var captured: [Captured] = []
        var nextId = 0
        func exchange(_ label: String, _ form: String, _ method: String, _ params: String? = nil, on p: RawPeer? = nil)
            async throws -> JSONValue
        {
            nextId += 1
            let text = #"{"jsonrpc":"2.0","method":"\#(method)","id":\#(nextId)"# + (params.map { ",\"params\":\($0)" } ?? "") + "}"
            let response = try await (p ?? peer).exchange(text)
            captured.append(Captured(label: label, form: form, response: response))
            return response
        }
        _ = try await exchange("object result", "objectResult", "object")
        _ = try await exchange("number result", "wrappedResult", "number")
        _ = try await exchange("string result", "wrappedResult", "string")
        _ = try await exchange("array result", "wrappedResult", "array")
        _ = try await exchange("void result", "voidResult", "void")
        _ = try await exchange("error with string data", "errorWithSessionData", "errorString")
        _ = try await exchange("error without data", "errorWithSessionData", "errorNull")
        _ = try await exchange("unknown method", "errorWithSessionData", "noSuchMethod")
        _ = try await exchange("uncaught handler error", "uncaughtError", "uncaught")
        guard !plain else { return captured }
        _ = try await exchange("ping with interval", "pingReply", "ping", #"{"interval":3000}"#)
        let connected = try await exchange("connect without params", "connectNewReply", "connect")
        let sid = connected["result"]?["sessionId"]?.stringValue ?? ""
        _ = try await exchange("ping with sessionId", "pingReply", "ping", #"{"sessionId":"\#(sid)"}"#)
        _ = try await exchange("connect to an unknown session", "connectUnknownReply", "connect", #"{"sessionId":"unknown"}"#)
        let other = RawPeer.connected(to: server)
        _ = try await exchange("connect to a known session", "connectResumedReply", "connect", #"{"sessionId":"\#(sid)"}"#, on: other)
        _ = try await exchange("closeSession", "closeSessionReply", "closeSession", on: other)
        return captured
    }

    @Test(.enabled(if: SchemaValidation.mustRun, "needs python3 with jsonschema (required when CI=true)"))
    func serverResponsesMatchTheConventionSchema() async throws {
        // Given real responses of a Kurento-convention server, and of a plain one as negative controls
        let kurento = try await Self.capture()
        let plain = try await Self.capture(plain: true).filter { ["objectResult", "wrappedResult", "voidResult"].contains($0.form) }

        // When python jsonschema checks each against its form and against the whole schema, in one process
        var cases: [SchemaValidation.Case] = []
        for c in kurento {
            cases.append(.init(label: "\(c.label) as \(c.form)", schema: Self.schema, ref: "#/$defs/\(c.form)",
                               instanceJSON: c.response.jsonText))
            cases.append(.init(label: "\(c.label) as any form", schema: Self.schema, instanceJSON: c.response.jsonText))
        }
        for c in plain {
            cases.append(.init(label: "plain \(c.label) as \(c.form)", schema: Self.schema, ref: "#/$defs/\(c.form)",
                               instanceJSON: c.response.jsonText))
        }
        let verdicts = try SchemaValidation.validate(cases)

        // Then every Kurento response matches, and the plain ones (no sessionId) are rejected
        #expect(verdicts.count == cases.count)
        for verdict in verdicts {
            let expectValid = !verdict.label.hasPrefix("plain ")
            #expect(verdict.valid == expectValid, "\(verdict.label): \(verdict.errors)")
        }
    }

    @Test func clientAcceptsEveryConventionForm() async throws {
        // Given a client whose peer answers with each captured Kurento response in turn
        let captured = try await Self.capture()
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near))
        let peer = RawPeer(connection: far)
        for c in captured {
            // When the client calls and the peer answers with the captured form (under the client's id)
            async let result: Result<JSONValue, RPCError> = {
                do { return .success(try await client.call("m")) } catch { return .failure(error as! RPCError) }
            }()
            let id = try await peer.receive()["id"] ?? nil
            guard case .object(var response) = c.response else { Issue.record("not an object"); continue }
            response["id"] = id
            try await peer.send(JSONValue.object(response).jsonText)
            let outcome = await result

            // Then results and errors arrive intact, and the sessionId is recorded wherever it travelled
            let sid = (c.response["result"]?["sessionId"] ?? c.response["error"]?["data"]?["sessionId"])?.stringValue
            if let sid { #expect(client.sessionId == sid, "\(c.label)") }
            switch (c.response["result"], c.response["error"], outcome) {
            case (let expected?, nil, .success(let value)):
                #expect(value == expected, "\(c.label)")
                if c.form == "wrappedResult" { #expect(value.value == expected["value"], "\(c.label)") }
            case (nil, let expected?, .failure(.remote(let error))):
                #expect(error.json == expected, "\(c.label)")
            default:
                Issue.record("\(c.label): unexpected outcome \(outcome)")
            }
        }
    }

    @Test func typedCallsUnwrapWrappedValues() async throws {
        let client = JSONRPCClient(transport: LocalTransport.serving({
            let server = JSONRPCServer()
            server.register("number") { _, _ in 42 }
            server.register("bye") { _, _ in "bye" }
            return server
        }()))
        #expect(try await client.call("number", as: Int.self) == 42)
        #expect(try await client.call("bye", as: String.self) == "bye")
        #expect(client.sessionId != nil)
    }
}
