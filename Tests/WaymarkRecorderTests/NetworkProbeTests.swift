import Foundation
import Testing
import WaymarkCore
import WaymarkRecorder
import WaymarkTestSupport

@Suite("The network probe, on a fake /proc and /sys")
struct NetworkProbeTests {
    static let header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"

    /// A fake tree: /proc/net/route (and ipv6_route) as given, /sys/class/net/IF with the named entries.
    func tree(route: String, ipv6: String = "", interfaces: [String: [String]]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let net = folder.url.appendingPathComponent("proc/net")
        try FileManager.default.createDirectory(at: net, withIntermediateDirectories: true)
        try Data((Self.header + route).utf8).write(to: net.appendingPathComponent("route"))
        try Data(ipv6.utf8).write(to: net.appendingPathComponent("ipv6_route"))
        for (name, entries) in interfaces {
            let dir = folder.url.appendingPathComponent("sys/class/net/\(name)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for entry in entries {
                if entry.hasPrefix("DEVTYPE=") {
                    try Data("INTERFACE=\(name)\n\(entry)\n".utf8).write(to: dir.appendingPathComponent("uevent"))
                } else {
                    try FileManager.default.createDirectory(at: dir.appendingPathComponent(entry), withIntermediateDirectories: true)
                }
            }
        }
        return folder
    }

    @Test("the default route with the lowest metric decides: wireless, wired, or none")
    func kinds() throws {
        let both = """
            eth0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
            wlp2s0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0
            wlp2s0\t0001A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0

            """
        let interfaces = ["eth0": ["device"], "wlp2s0": ["device", "phy80211"], "wlan1": ["device", "wireless"]]
        var folder = try tree(route: both, interfaces: interfaces)
        #expect(NetworkProbe(root: folder.url).defaultInterface() == "wlp2s0")
        #expect(NetworkProbe(root: folder.url).linuxConnection() == .wireless)

        folder = try tree(route: both.replacingOccurrences(of: "\t600\t", with: "\t50\t"), interfaces: interfaces)
        #expect(NetworkProbe(root: folder.url).linuxConnection() == .wired)

        folder = try tree(route: "wlan1\t00000000\t0101A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n", interfaces: interfaces)
        #expect(NetworkProbe(root: folder.url).linuxConnection() == .wireless, "the older `wireless` marker counts too")

        // Only a local network, no default route: no connection.
        folder = try tree(route: "eth0\t0001A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n", interfaces: interfaces)
        #expect(NetworkProbe(root: folder.url).linuxConnection() == ConnectionKind.none)

        // A default route that is down does not count.
        folder = try tree(route: "eth0\t00000000\t0101A8C0\t0002\t0\t0\t100\t00000000\t0\t0\t0\n", interfaces: interfaces)
        #expect(NetworkProbe(root: folder.url).linuxConnection() == ConnectionKind.none)
    }

    @Test("a VPN or a mobile modem is of unknown kind; no /proc at all means no connection")
    func unknownKinds() throws {
        var folder = try tree(route: "tun0\t00000000\t00000000\t0001\t0\t0\t0\t00000000\t0\t0\t0\n", interfaces: ["tun0": []])
        #expect(NetworkProbe(root: folder.url).linuxConnection() == .unknown)
        folder = try tree(route: "wwan0\t00000000\t00000000\t0001\t0\t0\t0\t00000000\t0\t0\t0\n",
                          interfaces: ["wwan0": ["device", "DEVTYPE=wwan"]])
        #expect(NetworkProbe(root: folder.url).linuxConnection() == .unknown)
        let empty = try TemporaryFolder()
        #expect(NetworkProbe(root: empty.url).linuxConnection() == ConnectionKind.none)
    }

    @Test("an IPv6-only default route is found in ipv6_route; lo's reject route is not")
    func ipv6() throws {
        let ipv6 = """
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000001 00000000 00450003   wlp2s0

            """
        let folder = try tree(route: "", ipv6: ipv6, interfaces: ["wlp2s0": ["device", "phy80211"]])
        #expect(NetworkProbe(root: folder.url).defaultInterface() == "wlp2s0")
        #expect(NetworkProbe(root: folder.url).linuxConnection() == .wireless)
        let onlyLo = try tree(route: "", ipv6: String(ipv6.split(separator: "\n")[0]) + "\n", interfaces: [:])
        #expect(NetworkProbe(root: onlyLo.url).linuxConnection() == ConnectionKind.none)
    }

    #if os(Linux)
    @Test("on this machine the probe answers from the real /proc")
    func realMachine() throws {
        let hasDefault = (try? String(contentsOfFile: "/proc/net/route", encoding: .utf8))?
            .split(separator: "\n").dropFirst().contains { $0.split(separator: "\t").dropFirst().first == "00000000" } ?? false
        #expect((NetworkProbe().connection() != ConnectionKind.none) == hasDefault)
    }
    #endif
}
