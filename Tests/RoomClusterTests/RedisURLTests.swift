import RoomCluster
import Testing

@Suite struct RedisURLTests {
    @Test func hostPortDatabaseUserAndPasswordAreRead() throws {
        let plain = try RedisURL(parsing: "redis://127.0.0.1:6379")
        #expect(plain.host == "127.0.0.1" && plain.port == 6379 && plain.database == 0)
        #expect(plain.user == nil && plain.password == nil)
        let full = try RedisURL(parsing: "redis://node:s3cr:t@redis.internal:7000/3")
        #expect(full.host == "redis.internal" && full.port == 7000 && full.database == 3)
        #expect(full.user == "node" && full.password == "s3cr:t")
        let passwordOnly = try RedisURL(parsing: "redis://:secret@localhost:6380")
        #expect(passwordOnly.user == nil && passwordOnly.password == "secret")
    }

    /// Issue 31, item 23: `--cluster redis://127.0.0.1` was refused; Redis's port is 6379 unless the URL says.
    @Test func aURLWithoutAPortMeansRedissDefault6379() throws {
        let bare = try RedisURL(parsing: "redis://127.0.0.1")
        #expect(bare.host == "127.0.0.1" && bare.port == 6379 && bare.database == 0)
        let withDatabase = try RedisURL(parsing: "redis://:secret@redis.internal/2")
        #expect(withDatabase.host == "redis.internal" && withDatabase.port == 6379 && withDatabase.database == 2)
        #expect(withDatabase.password == "secret")
        #expect(RedisURL.defaultPort == 6379)
    }

    @Test func theDescriptionNeverShowsThePassword() throws {
        #expect(try RedisURL(parsing: "redis://:secret@h:1/2").description == "redis://:***@h:1/2")
        #expect(try RedisURL(parsing: "redis://u:secret@h:1").description == "redis://u:***@h:1/0")
    }

    @Test(arguments: ["http://h:1", "redis://h:", "redis://h:0", "redis://h:70000", "redis://:1", "redis://h:1/x",
                      "redis://h:1/-1", "redis://", "redis:///0"])
    func unusableURLsAreRefusedWithTheReason(text: String) {
        #expect(throws: RedisError.self) { try RedisURL(parsing: text) }
    }
}
