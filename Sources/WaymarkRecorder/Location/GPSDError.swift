import Foundation

/// gpsd could not be reached, or an endpoint given for it is not `HOST:PORT`.
public enum GPSDError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The first connection of ``GPSDSource/events()`` failed; `reason` is e.g. `connection refused`.
    case unreachable(endpoint: String, reason: String)
    /// An endpoint that is not `HOST`, `HOST:PORT` or `[IPv6]:PORT`.
    case invalidEndpoint(String, problem: String)

    public var description: String {
        switch self {
        case .unreachable(let endpoint, let reason):
            "Cannot reach gpsd at \(endpoint) (\(reason)). Is gpsd running? Start it with `gpsd -N /dev/ttyUSB0` "
                + "(the receiver's device: /dev/ttyACM0, /dev/ttyUSB0 or /dev/rfcomm0), or give the address it listens on if it is elsewhere."
        case .invalidEndpoint(let text, let problem):
            "'\(text)' is not a gpsd address: \(problem). Write HOST:PORT, e.g. 127.0.0.1:2947, [::1]:2947 or gps.local."
        }
    }
}
