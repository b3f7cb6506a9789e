import Foundation
import JSONRPC
import RoomProtocol
import TestSupport
import Testing

/// The Tree vocabulary (docs/wire-protocol.md#tree): decoding names the member at fault, results read the code's keys,
/// and `Schemas/tree-protocol.schema.json` agrees with the encoders (one python run for the whole test).
@Suite struct TreeProtocolTests {
    static let schema = "Schemas/tree-protocol.schema.json"

    /// One sample of every request, with its params as a client sends them.
    static let requests: [TreeRequest] = [
        .createTree(CreateTreeParams()), .createTree(CreateTreeParams(treeId: "t")),
        .releaseTree(TreeIDParams(treeId: "t")), .setTreeSource(TreeOfferParams(treeId: "t", offerSdp: "v=0")),
        .removeTreeSource(TreeIDParams(treeId: "t")), .addTreeSink(TreeOfferParams(treeId: "t", offerSdp: "v=0")),
        .removeTreeSink(RemoveTreeSinkParams(treeId: "t", sinkId: "s")),
        .addIceCandidate(TreeIceCandidate(treeId: "t", endpoint: .source, candidate: "candidate:1", sdpMid: "0",
                                          sdpMLineIndex: 0)),
        .addIceCandidate(TreeIceCandidate(treeId: "t", endpoint: .sink("s"), candidate: "candidate:1", sdpMid: "0",
                                          sdpMLineIndex: 1)),
    ]

    @Test func requestsRoundTripAndNameTheMissingParam() throws {
        for request in Self.requests {
            #expect(try TreeRequest(method: request.method, params: request.params) == request)
        }
        #expect(try TreeRequest(method: .createTree, params: nil) == .createTree(CreateTreeParams()))
        for (method, params, member) in [
            (TreeMethod.releaseTree, [:], "treeId"), (.setTreeSource, ["treeId": "t"], "offerSdp"),
            (.removeTreeSink, ["treeId": "t"], "sinkId"),
            (.addIceCandidate, ["treeId": "t", "candidate": "c", "sdpMid": "0"], "sdpMLineIndex"),
            (.createTree, ["treeId": 1], "treeId"),
        ] as [(TreeMethod, JSONValue, String)] {
            #expect(throws: RoomDecodingError.self) { try TreeRequest(method: method, params: params) }
            do {
                _ = try TreeRequest(method: method, params: params)
            } catch {
                #expect(error.member == member)
                #expect(error.invalidParams.code == -32602)
            }
        }
        #expect(TreeIceCandidate(treeId: "t", endpoint: .sink("s"), candidate: "", sdpMid: "", sdpMLineIndex: 0)
            .endpoint == .sink("s"))
        #expect(try TreeNotification(method: .iceCandidate,
                                     params: ["treeId": "t", "candidate": "c", "sdpMid": "0", "sdpMLineIndex": 0])
            == .iceCandidate(TreeIceCandidate(treeId: "t", endpoint: .source, candidate: "c", sdpMid: "0",
                                              sdpMLineIndex: 0)))
    }

    @Test func resultsReadTheCodesKeys() throws {
        #expect(try TreeResult(method: .createTree, result: ["value": "x", "sessionId": "s"]) == .created(treeId: "x"))
        #expect(try TreeResult(method: .createTree, result: ["sessionId": "s"], requestedId: true) == .empty)
        #expect(try TreeResult(method: .setTreeSource, result: ["answerSdp": "v=0", "sessionId": "s"]) == .answer("v=0"))
        #expect(try TreeResult(method: .addTreeSink, result: ["sinkId": "k", "answerSdp": "v=0"])
                == .sink(TreeSinkResult(sinkId: "k", answerSdp: "v=0")))
        #expect(throws: RoomDecodingError.self) { try TreeResult(method: .setTreeSource, result: ["sdpAnswer": "v=0"]) }
        #expect(throws: RoomDecodingError.self) { try TreeResult(method: .createTree, result: ["sessionId": "s"]) }
        #expect(TreeError(RPCErrorObject(code: 2, message: "m")) == TreeError(.treeException, message: "m"))
        #expect(TreeError(RPCErrorObject(code: -32601, message: "m")) == nil)
    }

    @Test func schemaDefinesAndReadmeIndexesEveryMessage() throws {
        let root = SchemaValidation.packageRoot
        let schema = try JSONValue(parsing: try String(contentsOf: root.appendingPathComponent(Self.schema), encoding: .utf8))
        let readme = try String(contentsOf: root.appendingPathComponent("Schemas/README.md"), encoding: .utf8)
        let treeLines = readme.split(separator: "\n").filter { $0.contains("tree-protocol.schema.json") }
        let definitions = TreeMethod.allCases.flatMap { ["\($0.rawValue)Request", "\($0.rawValue)Response"] }
            + TreeNotificationMethod.allCases.map { "\($0.rawValue)Notification" } + ["treeErrorResponse"]
        for definition in definitions {
            #expect(schema["$defs"]?[definition] != nil, "schema lacks $defs/\(definition)")
            let indexed = treeLines.contains { $0.contains("$defs/\(definition)`") || $0.contains("/ `\(definition)`") }
            #expect(indexed, "README lacks \(definition)")
        }
    }

    @Test(.enabled(if: SchemaValidation.mustRun, "needs python3 with jsonschema (required when CI=true)"))
    func encodersAgreeWithTheSchema() throws {
        // Given every request, a result of every method as a Kurento server sends it, the notification and an error
        var positive: [(String, String)] = Self.requests.enumerated().map { index, request in
            ("\(request.method.rawValue)Request",
             RPCRequest(id: .number(index), method: request.method.rawValue, params: request.params).jsonText)
        }
        let results: [(TreeMethod, JSONValue?)] = [
            (.createTree, TreeResult.created(treeId: "x").json), (.createTree, nil),
            (.releaseTree, TreeResult.empty.json), (.setTreeSource, TreeResult.answer("v=0").json),
            (.removeTreeSource, TreeResult.empty.json),
            (.addTreeSink, TreeResult.sink(TreeSinkResult(sinkId: "k", answerSdp: "v=0")).json),
            (.removeTreeSink, TreeResult.empty.json), (.addIceCandidate, TreeResult.empty.json),
        ]
        for (index, (method, result)) in results.enumerated() {
            let wire = KurentoConventions.result(result, sessionId: "sid")
            positive.append(("\(method.rawValue)Response",
                             RPCResponse(id: .number(index), outcome: .success(wire)).jsonText))
        }
        let notification = TreeNotification.iceCandidate(
            TreeIceCandidate(treeId: "t", endpoint: .sink("s"), candidate: "c", sdpMid: "0", sdpMLineIndex: 0))
        positive.append(("iceCandidateNotification",
                         RPCMessage.notification(RPCNotification(method: "iceCandidate", params: notification.params)).jsonText))
        let error = KurentoConventions.error(TreeError.unknownTree("t").errorObject, sessionId: "sid")
        positive.append(("treeErrorResponse", RPCResponse(id: .number(9), outcome: .failure(error)).jsonText))
        // And messages that break the protocol
        let negative: [(String, String)] = [
            ("setTreeSourceRequest", #"{"jsonrpc":"2.0","id":1,"method":"setTreeSource","params":{"treeId":"t"}}"#),
            ("createTreeResponse", #"{"jsonrpc":"2.0","id":1,"result":{"value":null,"sessionId":"s"}}"#),
            ("addTreeSinkResponse", #"{"jsonrpc":"2.0","id":1,"result":{"answerSdp":"v=0","sessionId":"s"}}"#),
            ("setTreeSourceResponse", #"{"jsonrpc":"2.0","id":1,"result":{"sdpAnswer":"v=0","sessionId":"s"}}"#),
            ("iceCandidateNotification",
             #"{"jsonrpc":"2.0","method":"iceCandidate","params":{"treeId":"t","candidate":"c","sdpMid":"0","sdpMLineIndex":0,"endpointName":"x"}}"#),
            ("treeErrorResponse", #"{"jsonrpc":"2.0","id":1,"error":{"code":104,"message":"room code"}}"#),
        ]
        let cases = positive.map { SchemaValidation.Case(label: "+ \($0.0) \($0.1)", schema: Self.schema,
                                                         ref: "#/$defs/\($0.0)", instanceJSON: $0.1) }
            + positive.map { SchemaValidation.Case(label: "+ any \($0.1)", schema: Self.schema, instanceJSON: $0.1) }
            + negative.map { SchemaValidation.Case(label: "- \($0.0) \($0.1)", schema: Self.schema,
                                                   ref: "#/$defs/\($0.0)", instanceJSON: $0.1) }
        // Then the schema accepts the first and rejects the second
        for verdict in try SchemaValidation.validate(cases) {
            #expect(verdict.valid == verdict.label.hasPrefix("+"), "\(verdict.label): \(verdict.errors)")
        }
    }
}
