import Foundation

/// An NMEA receiver or log that cannot be read, saying what to check.
public enum NMEASourceError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Nothing exists at the path.
    case missing(path: String)
    /// The device or file exists but may not be opened by this user.
    case permissionDenied(path: String)
    /// Another program holds the device.
    case busy(path: String)
    /// The path is neither a device, a FIFO nor a regular file (a folder, a socket).
    case unsupportedKind(path: String, kind: String)
    /// A file that is not an NMEA 0183 log.
    case notNMEA(path: String)
    /// `baud:` asked for a rate the serial port does not offer.
    case unsupportedBaudRate(Int)
    /// The device failed while open (unplugged, Bluetooth link lost).
    case readFailed(path: String, reason: String)
    /// The device could not be opened or configured for another reason.
    case openFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            "\(path) does not exist. Is the receiver plugged in (and paired, for Bluetooth: `rfcomm bind 0 ADDRESS`)? "
                + "`ls /dev/ttyACM* /dev/ttyUSB* /dev/rfcomm*` lists the receivers; for a log, check the file name."
        case .permissionDenied(let path):
            "Permission denied opening \(path). Serial receivers belong to the `dialout` group: run "
                + "`sudo usermod -aG dialout $USER`, then log out and in again (for a file, check its permissions)."
        case .busy(let path):
            "\(path) is in use by another program (gpsd? ModemManager?). Stop it, or record through gpsd instead."
        case .unsupportedKind(let path, let kind):
            "\(path) is \(kind), not a receiver or an NMEA log. Give a serial device such as /dev/ttyACM0, a FIFO, or an NMEA log file."
        case .notNMEA(let path):
            "\((path as NSString).lastPathComponent) is not an NMEA 0183 log (no $GPRMC/$GNGGA sentences). "
                + "Replay GPX, KML or GeoJSON tracks as a track replay instead."
        case .unsupportedBaudRate(let rate):
            "\(rate) baud is not a serial speed Waymark can set. Use one of \(SerialSpeed.supported.map(String.init).joined(separator: ", "))."
        case .readFailed(let path, let reason):
            "Reading \(path) failed (\(reason)). Was the receiver unplugged, or its Bluetooth link lost? Reconnect it and resume."
        case .openFailed(let path, let reason):
            "Cannot open \(path) (\(reason)). Check that it is the receiver's device and that nothing else uses it."
        }
    }
}
