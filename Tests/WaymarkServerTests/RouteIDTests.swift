import Foundation
import Testing
@testable import WaymarkServer

@Suite("Route ids")
struct RouteIDTests {
    /// An id with a leading `-` made `waymark routes export ID` a usage error (exit 64), since the
    /// argument parser takes it for an option; one id in 64 began so before the fix.
    @Test("route ids are 22 characters of base64url and never begin with '-', so they work as command-line arguments")
    func idsAreCommandLineSafe() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var ids = Set<String>()
        for _ in 0..<5_000 {
            let id = RouteID.random()
            #expect(id.count == 22 && id.allSatisfy(allowed.contains), "\(id)")
            #expect(id.first != "-", "\(id)")
            ids.insert(id)
        }
        #expect(ids.count == 5_000)
    }
}
