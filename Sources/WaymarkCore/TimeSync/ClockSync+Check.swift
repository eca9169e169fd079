import Foundation

extension ClockSync {
    /// How a clock setting given by hand (`--sync`, `--offset`, `--timezone`) compares with one QR photo.
    public struct QRCheck: Sendable, Equatable {
        /// The QR photo's name.
        public var photo: String
        /// Seconds by which the setting puts the photo later than the middle of the interval its
        /// QR code shows (negative: earlier).
        public var difference: Double
        /// The largest difference the QR code's period, the camera's whole-second rounding and the
        /// setting's own error bound can explain.
        public var tolerance: Double

        /// Whether the setting and the QR code agree within ``tolerance``.
        public var agrees: Bool { abs(difference) <= tolerance + ClockSync.tolerance }
    }

    /// Compares a clock correction with what each QR photo says about the camera clock.
    public static func check(_ correction: ClockCorrection, against samples: [QRSample]) -> [QRCheck] {
        samples.map { sample in
            let offset = correction.utc(for: sample.camera).timeIntervalSince1970 - sample.x
            return QRCheck(photo: sample.photo, difference: offset - sample.offset,
                           tolerance: sample.bound + (correction.errorBound ?? 0))
        }
    }
}
