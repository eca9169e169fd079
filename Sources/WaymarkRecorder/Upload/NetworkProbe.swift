import Foundation
import WaymarkCore

/// Tells what kind of network connection the computer has, for the "Wi-Fi only" setting.
///
/// On Linux it takes the interface of the default route from `/proc/net/route` (destination
/// `00000000`, up, lowest metric; `/proc/net/ipv6_route` when there is no IPv4 default route)
/// and calls it wireless when `/sys/class/net/IF/wireless` or `/sys/class/net/IF/phy80211`
/// exists. An interface backed by a device that is not wireless is wired; a mobile modem
/// (`DEVTYPE=wwan`) or a virtual interface (VPN, bridge, container) is of unknown kind. No
/// default route means no connection. Other systems report ``ConnectionKind/unknown``.
///
/// The files are small kernel tables, read in microseconds.
public struct NetworkProbe: Sendable {
    /// The folder holding `proc` and `sys`: `/`, or a fake tree in tests.
    public var root: URL

    public init(root: URL = URL(fileURLWithPath: "/", isDirectory: true)) {
        self.root = root
    }

    /// The kind of the connection the default route goes through now.
    public func connection() -> ConnectionKind {
        #if os(Linux)
        return linuxConnection()
        #else
        return .unknown
        #endif
    }

    /// The Linux answer, also usable on other systems with a fake tree (for tests).
    public func linuxConnection() -> ConnectionKind {
        guard let interface = defaultInterface() else { return .none }
        let folder = root.appendingPathComponent("sys/class/net/\(interface)", isDirectory: true)
        let manager = FileManager.default
        if manager.fileExists(atPath: folder.appendingPathComponent("wireless").path)
            || manager.fileExists(atPath: folder.appendingPathComponent("phy80211").path) {
            return .wireless
        }
        let uevent = (try? String(contentsOf: folder.appendingPathComponent("uevent"), encoding: .utf8)) ?? ""
        if uevent.split(whereSeparator: \.isNewline).contains(where: { $0 == "DEVTYPE=wwan" }) { return .unknown }
        return manager.fileExists(atPath: folder.appendingPathComponent("device").path) ? .wired : .unknown
    }

    /// The interface of the default route with the lowest metric, IPv4 first, or nil.
    public func defaultInterface() -> String? {
        ipv4DefaultInterface() ?? ipv6DefaultInterface()
    }

    /// `/proc/net/route`: `Iface Destination Gateway Flags RefCnt Use Metric Mask …`, hex fields.
    private func ipv4DefaultInterface() -> String? {
        guard let text = try? String(contentsOf: root.appendingPathComponent("proc/net/route"), encoding: .utf8) else { return nil }
        var best: (interface: String, metric: UInt64)?
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 8, fields[1] == "00000000", fields[7] == "00000000",
                  let flags = UInt32(fields[3], radix: 16), Self.usable(flags: flags),
                  let metric = UInt64(fields[6]) else { continue }
            let interface = String(fields[0])
            if interface != "lo", best.map({ metric < $0.metric }) ?? true { best = (interface, metric) }
        }
        return best?.interface
    }

    /// `/proc/net/ipv6_route`: `dest prefixlen src srcprefixlen nexthop metric refcnt use flags iface`, hex fields.
    private func ipv6DefaultInterface() -> String? {
        guard let text = try? String(contentsOf: root.appendingPathComponent("proc/net/ipv6_route"), encoding: .utf8) else { return nil }
        var best: (interface: String, metric: UInt64)?
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 10, fields[0].allSatisfy({ $0 == "0" }), fields[1] == "00",
                  let flags = UInt32(fields[8], radix: 16), Self.usable(flags: flags),
                  let metric = UInt64(fields[5], radix: 16) else { continue }
            let interface = String(fields[9])
            if interface != "lo", best.map({ metric < $0.metric }) ?? true { best = (interface, metric) }
        }
        return best?.interface
    }

    /// RTF_UP set and RTF_REJECT clear: the route carries traffic.
    private static func usable(flags: UInt32) -> Bool {
        flags & 0x0001 != 0 && flags & 0x0200 == 0
    }
}
