import Foundation
import TestSupport
import Testing

/// Media objects: ids, `create`, `invoke`, `describe`, `release`, and KMS's errors for them.
@Suite struct ObjectTests {
    typealias JSON = RawKurentoClient.JSON

    static let uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

    @Test func pipelineAndElementIDsHaveKMSsShape() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await client.create("MediaPipeline")
        #expect(pipeline.range(of: "^\(Self.uuid)_kurento\\.MediaPipeline$", options: .regularExpression) != nil)
        let endpoint = try await client.create("kurento.WebRtcEndpoint", ["mediaPipeline": pipeline])
        #expect(endpoint.hasPrefix(pipeline + "/"))
        #expect(endpoint.dropFirst(pipeline.count + 1)
            .range(of: "^\(Self.uuid)_kurento\\.WebRtcEndpoint$", options: .regularExpression) != nil)
        let passThrough = try await client.create("PassThrough", ["mediaPipeline": pipeline])
        #expect(passThrough.hasSuffix("_kurento.PassThrough"))
        #expect(kms.liveObjects == [pipeline: "MediaPipeline", endpoint: "WebRtcEndpoint", passThrough: "PassThrough"])
        #expect(try await client.invoke(pipeline, "getChildren") as? [String] == [endpoint, passThrough])
        #expect(try await client.invoke(endpoint, "getMediaPipeline") as? String == pipeline)
        #expect(try await client.invoke("manager_ServerManager", "getPipelines") as? [String] == [pipeline])
    }

    @Test func aVoidInvokeAnswersValueNullAndSettersStore() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await client.create("MediaPipeline")
        let endpoint = try await client.create("WebRtcEndpoint", ["mediaPipeline": pipeline])
        let result = try await client.result("invoke", [
            "object": endpoint, "operation": "setMaxVideoSendBandwidth", "operationParams": ["maxVideoSendBandwidth": 2000],
        ])
        #expect(result.keys.sorted() == ["sessionId", "value"])
        #expect(result["value"] is NSNull)
        #expect(try await client.invoke(endpoint, "getMaxVideoSendBandwidth") as? Int == 2000)
        let missing = try await client.error("invoke", ["object": endpoint, "operation": "setMaxVideoSendBandwidth"])
        #expect(missing["code"] as? Int == 40001)
        #expect(missing["message"] as? String == "'maxVideoSendBandwidth' parameter should be a integer")
        #expect((missing["data"] as? JSON)?["type"] as? String == "MARSHALL_ERROR")
        let noOffer = try await client.error("invoke", ["object": endpoint, "operation": "processOffer"])
        #expect(noOffer["message"] as? String == "'operationParams' is required")
    }

    @Test func unknownObjectsOperationsAndFactoriesAreRefusedAsKMSDoes() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let unknown = try await client.error("invoke", ["object": "nope", "operation": "getChildren"])
        #expect(unknown["code"] as? Int == 40101)
        #expect(unknown["message"] as? String == "Object 'nope' not found")
        #expect(unknown["data"] as? [String: String] == ["type": "MEDIA_OBJECT_NOT_FOUND"])
        #expect(try await client.error("describe", ["object": "nope"])["code"] as? Int == 40101)
        let pipeline = try await client.create("MediaPipeline")
        let operation = try await client.error("invoke", [
            "object": pipeline, "operation": "foo", "operationParams": ["a": 1, "b": 2],
        ])
        #expect(operation["code"] as? Int == 40008)
        #expect(operation["message"] as? String == "Method 'foo' with 2 parameters not found")
        #expect(operation["data"] as? [String: String] == ["type": "MALFORMED_TRANSACTION"])
        let factory = try await client.error("create", ["type": "PlayerEndpoint"])
        #expect(factory["code"] as? Int == 40108)
        #expect(factory["message"] as? String == "Factory 'PlayerEndpoint' not found")
        let constructor = try await client.error("create", ["type": "WebRtcEndpoint"])
        #expect(constructor["code"] as? Int == 40001)
        #expect(constructor["message"] as? String == "'constructorParams' is required")
        let released = try await client.error("create", ["type": "WebRtcEndpoint", "constructorParams": ["mediaPipeline": "gone"]])
        #expect(released["code"] as? Int == 40101)
    }

    @Test func connectingElementsOfTwoPipelinesIsAConnectError() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let one = try await client.create("WebRtcEndpoint", ["mediaPipeline": try await client.create("MediaPipeline")])
        let two = try await client.create("WebRtcEndpoint", ["mediaPipeline": try await client.create("MediaPipeline")])
        let error = try await client.error("invoke", ["object": one, "operation": "connect", "operationParams": ["sink": two]])
        #expect(error["code"] as? Int == 40004)
        #expect(error["message"] as? String == "Media elements do not share pipeline")
        #expect(error["data"] as? [String: String] == ["type": "CONNECT_ERROR"])
        #expect(kms.connections(of: one).isEmpty)
    }

    @Test func releasingAnUnknownObjectSucceeds() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let result = try await client.result("release", ["object": "never-existed_kurento.MediaPipeline"])
        #expect(result.keys.sorted() == ["sessionId"])
    }

    @Test func releasingAPipelineReleasesItsElementsAndThenEverythingIsNotFound() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        _ = try await client.result("subscribe", ["object": "manager_ServerManager", "type": "ObjectDestroyed"])
        let pipeline = try await client.create("MediaPipeline")
        let endpoint = try await client.create("WebRtcEndpoint", ["mediaPipeline": pipeline])
        let passThrough = try await client.create("PassThrough", ["mediaPipeline": pipeline])
        try await client.invoke(endpoint, "connect", ["sink": passThrough])
        _ = try await client.result("subscribe", ["object": endpoint, "type": "ElementDisconnected"])
        #expect(kms.liveObjectCount == 3)
        _ = try await client.result("release", ["object": pipeline])
        #expect(kms.liveObjectCount == 0)
        #expect(kms.subscriptionCount == 1)  // the ServerManager's
        let destroyed = try await client.awaitEvents("ObjectDestroyed", count: 3)
        #expect(destroyed.compactMap { ($0["data"] as? JSON)?["objectId"] as? String } == [endpoint, passThrough, pipeline])
        for id in [pipeline, endpoint, passThrough] {
            #expect(try await client.error("invoke", ["object": id, "operation": "getName"])["code"] as? Int == 40101)
        }
        // The dying endpoint's own subscription was erased first: no ElementDisconnected from it.
        #expect(client.events("ElementDisconnected").isEmpty)
    }

    @Test func refusedCreatesFailWithNotEnoughResources() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        kms.refuseCreates(1, threadsLimit: 640)
        let error = try await client.error("create", ["type": "MediaPipeline"])
        #expect(error["code"] as? Int == 40009)
        #expect(error["message"] as? String == "Reached KMS threads limit: 640")
        #expect(error["data"] as? [String: String] == ["type": "NOT_ENOUGH_RESOURCES"])
        _ = try await client.create("MediaPipeline")
        #expect(kms.liveObjectCount == 1)
    }

    @Test func describeAnswersTheTypeAndItsAncestors() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await client.create("MediaPipeline")
        let endpoint = try await client.create("WebRtcEndpoint", ["mediaPipeline": pipeline])
        let described = try await client.result("describe", ["object": endpoint])
        #expect(described["type"] as? String == "WebRtcEndpoint")
        #expect(described["qualifiedType"] as? String == "kurento.WebRtcEndpoint")
        #expect((described["hierarchy"] as? [String])?.first == "kurento.BaseRtpEndpoint")
        #expect(described["sessionId"] is String)
        let manager = try await client.result("describe", ["object": "manager_ServerManager"])
        #expect(manager["type"] as? String == "ServerManager")
        let info = try #require(try await client.invoke("manager_ServerManager", "getInfo") as? JSON)
        #expect(info["type"] as? String == "KMS")
    }
}
