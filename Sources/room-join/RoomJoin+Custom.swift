import ArgumentParser
import CLISupport
import JSONRPC
import RoomClient

/// `--custom PARAMS` and `/custom PARAMS`: a `customRequest` (docs/wire-protocol.md#room), its result printed as a
/// `customResult` report.
extension RoomJoin {
    /// The params of a customRequest: `json` parsed, a JSON object.
    static func customParams(_ json: String) throws -> JSONValue {
        guard let params = try? JSONValue(parsing: json), params.objectValue != nil else {
            throw ValidationError("--custom and /custom take a JSON object, e.g. {\"type\":\"ping\"}; got \(json)")
        }
        return params
    }

    /// Sends a customRequest with `params` and reports its result.
    func sendCustom(_ params: JSONValue, _ client: RoomClient) async throws {
        let result = try await client.customRequest(params)
        output.report(Report(event: "customResult", fields: ["params": params, "result": result],
                             text: "custom result: \(result.canonicalText)"))
    }
}
