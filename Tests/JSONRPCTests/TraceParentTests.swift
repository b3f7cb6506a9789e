import JSONRPC
import Logging
import Testing
import Tracing

@Suite struct TraceParentTests {
    @Test func aValidHeaderRoundTrips() throws {
        let header = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let parent = try #require(TraceParent(header: header))
        #expect(parent.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(parent.spanIDText == "00f067aa0ba902b7")
        #expect(parent.sampled)
        #expect(parent.header == header)
    }

    @Test(arguments: [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",          // no flags
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",       // zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",       // zero span id
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",       // uppercase
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",       // forbidden version
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", // extra field in version 00
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",        // short trace id
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",       // not hex
    ])
    func invalidHeadersAreRefused(header: String) {
        #expect(TraceParent(header: header) == nil)
    }

    @Test func aLaterVersionIsReadByItsFirstFourFields() throws {
        let parent = try #require(TraceParent(header: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-more"))
        #expect(parent.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(!parent.sampled)
    }

    @Test func aChildKeepsTheTraceWithItsOwnSpan() {
        let parent = TraceParent.random()
        let child = parent.child(spanID: 0x2a)
        #expect(child.traceID == parent.traceID)
        #expect(child.spanIDText == "000000000000002a")
        #expect(TraceParent(header: parent.header) == parent)
    }

    @Test func theMetadataProviderReadsTheCurrentTasksTrace() throws {
        let parent = try #require(TraceParent(header: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
        var context = ServiceContext.topLevel
        context.traceParent = parent
        let metadata = ServiceContext.withValue(context) { Logger.MetadataProvider.traceParent.get() }
        #expect(metadata["trace_id"]?.description == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(metadata["span_id"]?.description == "00f067aa0ba902b7")
        #expect(Logger.MetadataProvider.traceParent.get().isEmpty, "nothing outside a traced task")
    }
}
