@main struct SDPTool { static func main() { print("sdp-tool: not built yet") } }
