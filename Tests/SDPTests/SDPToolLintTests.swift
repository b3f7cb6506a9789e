import Foundation
import TestSupport
import Testing

/// `sdp-tool inspect` lints what the grammar lets through but a peer would trip on (issue 31, item 21): a repeated
/// `a=mid`, an `a=rtpmap` without a clock rate, ICE credentials shorter than RFC 8839 allows. Warnings go to stderr
/// and the summary is printed; `--strict` makes them errors (exit 1, nothing on stdout).
@Suite struct SDPToolLintTests {
    static let lintable = """
        v=0
        o=- 1 1 IN IP4 127.0.0.1
        s=-
        t=0 0
        a=ice-pwd:abc
        m=audio 9 UDP/TLS/RTP/SAVPF 111
        c=IN IP4 0.0.0.0
        a=mid:0
        a=ice-ufrag:ab
        a=rtpmap:111 opus/48000/2
        m=video 9 UDP/TLS/RTP/SAVPF 96
        c=IN IP4 0.0.0.0
        a=mid:0
        a=ice-ufrag:abcd
        a=rtpmap:96 VP8

        """

    static let findings = [
        "mid '0' is used by m-lines 0 and 1 (RFC 5888: a mid names one m-line)",
        "session: a=ice-pwd is 3 characters; RFC 8839 §5.4 asks for 22 to 256",
        "m-line 0: a=ice-ufrag is 2 characters; RFC 8839 §5.4 asks for 4 to 256",
        "m-line 1: a=rtpmap:96 VP8 has no clock rate (RFC 8866 §6.6: <encoding name>/<clock rate>)",
    ]

    @Test func inspectWarnsOnStderrAndStillSummarizes() throws {
        let output = try SDPToolBinary.run(["inspect", "-"], stdin: Data(Self.lintable.utf8))
        #expect(output.status == 0)
        #expect(output.stderr == Self.findings.map { "warning: \($0)\n" }.joined())
        #expect(String(decoding: output.stdout, as: UTF8.self).contains("m[1] video mid=0"))
    }

    @Test func strictMakesTheWarningsErrors() throws {
        let output = try SDPToolBinary.run(["inspect", "--strict", "-"], stdin: Data(Self.lintable.utf8))
        #expect(output.status == 1)
        #expect(output.stderr == Self.findings.map { "error: \($0)\n" }.joined())
        #expect(output.stdout.isEmpty)
    }

    @Test func aCleanDescriptionPassesStrict() throws {
        let output = try SDPToolBinary.run(["inspect", "--strict", "--json", "-"], stdin: Data(try SDPFiles.fixtureText("chrome-offer.sdp").utf8))
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
    }

    @Test func strictAndLenientContradictEachOther() throws {
        let output = try SDPToolBinary.run(["inspect", "--strict", "--lenient", "-"], stdin: Data())
        #expect(output.status == 2)
        #expect(output.stderr == "sdp-tool: --strict and --lenient contradict each other (see sdp-tool --help)\n")
    }

    /// Issue 31, item 23: the reason a file cannot be read, in the system's words.
    @Test func anUnreadableFileSaysWhy() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).sdp").path
        let output = try SDPToolBinary.run(["inspect", missing])
        #expect(output.status == 1)
        #expect(output.stderr == "cannot read '\(missing)': No such file or directory\n")

        let directory = FileManager.default.temporaryDirectory.path
        let notAFile = try SDPToolBinary.run(["inspect", directory])
        #expect(notAFile.status == 1)
        #expect(notAFile.stderr == "cannot read '\(directory)': Is a directory\n")
    }
}
