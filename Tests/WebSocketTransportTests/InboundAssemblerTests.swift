import Foundation
import Testing
@_spi(Fuzzing) import WebSocketTransport

/// The fragment reassembly our `RECEIVE` callback runs (also fuzzed by Fuzz/FuzzInbound).
@Suite struct InboundAssemblerTests {
    func feed(_ assembler: inout InboundAssembler, _ bytes: [UInt8], binary: Bool = false, final: Bool)
        -> InboundAssembler.Outcome
    {
        bytes.withUnsafeBytes { assembler.receive($0, binary: binary, final: final) }
    }

    @Test func fragmentsJoinIntoOneMessageAndTheFirstFragmentDecidesTheKind() {
        var assembler = InboundAssembler(maxMessageSize: 16)
        #expect(feed(&assembler, Array("{\"a\"".utf8), final: false) == .partial)
        #expect(feed(&assembler, Array(":1}".utf8), binary: true, final: true) == .message(.text("{\"a\":1}")))
        #expect(feed(&assembler, [0xFF], binary: true, final: true) == .message(.binary(Data([0xFF]))))
    }

    @Test func aCharacterSplitAcrossFragmentsIsWholeAndInvalidTextIsRefused() {
        var assembler = InboundAssembler(maxMessageSize: 16)
        let e = Array("é".utf8)
        #expect(feed(&assembler, [e[0]], final: false) == .partial)
        #expect(feed(&assembler, [e[1]], final: true) == .message(.text("é")))
        #expect(feed(&assembler, [0xC3, 0x28], final: true) == .invalidUTF8)
    }

    @Test func overTheLimitIsTooBigOnceAndThenEverythingIsIgnored() {
        var assembler = InboundAssembler(maxMessageSize: 4)
        #expect(feed(&assembler, [1, 2, 3], final: false) == .partial)
        #expect(feed(&assembler, [4, 5], final: false) == .tooBig)
        #expect(feed(&assembler, [6], final: true) == .partial)
        #expect(feed(&assembler, Array("ok".utf8), final: true) == .partial)
    }
}
