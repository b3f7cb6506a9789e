@main struct EchoServer { static func main() { print("not built yet") } }
