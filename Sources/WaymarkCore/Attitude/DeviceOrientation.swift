import Foundation

/// The browser's `deviceorientation` angles (W3C Device Orientation, "Device Orientation
/// Event"), turned into attitudes and headings.
///
/// The angles are degrees: `alpha` about the world's vertical (0 ≤ alpha < 360), `beta` about
/// the device's x axis (−180 ≤ beta < 180), `gamma` about the device's y axis (−90 ≤ gamma < 90),
/// applied intrinsically in the order Z-X'-Y'': the device's rotation matrix is
/// `R = Rz(alpha)·Rx(beta)·Ry(gamma)` in the world frame east-north-up (x east, y north, z up;
/// north is true or magnetic north when the event is absolute, an arbitrary direction otherwise).
/// Angles outside those ranges are accepted and mean the same rotation.
public enum DeviceOrientation {
    /// The attitude of the camera frame: the device's attitude from `alpha`, `beta`, `gamma`
    /// (degrees), followed by a rotation about the device's z axis by −`screenAngle`.
    ///
    /// `screenAngle` is `screen.orientation.angle` in degrees (0 portrait, 90 landscape with the
    /// device turned anticlockwise, 180, 270 or −90 with it turned clockwise): the frame the
    /// camera picture is shown in keeps x to the right and y to the top of what the user sees,
    /// so a landscape photo and a portrait one taken facing the same way give the same
    /// attitude. This is the convention of three.js' DeviceOrientationControls and of the
    /// spec's note on screen orientation: `q = q(alpha, beta, gamma) · q_z(−screenAngle)`.
    ///
    /// Nil when an angle is not finite (a browser without the sensor sends null).
    public static func quaternion(alpha: Double, beta: Double, gamma: Double, screenAngle: Double = 0) -> Quaternion? {
        guard alpha.isFinite, beta.isFinite, gamma.isFinite, screenAngle.isFinite else { return nil }
        let radians = Double.pi / 180
        let turn = Quaternion(axis: (0, 0, 1), angle: alpha * radians)
        let tilt = Quaternion(axis: (1, 0, 0), angle: beta * radians)
        let lean = Quaternion(axis: (0, 1, 0), angle: gamma * radians)
        let screen = Quaternion(axis: (0, 0, 1), angle: -screenAngle * radians)
        return ((turn * tilt) * lean) * screen
    }

    /// The compass heading of the back camera: the direction of the device's −z axis projected
    /// on the horizontal plane, in degrees clockwise from north, 0 ≤ heading < 360.
    ///
    /// The Device Orientation spec's example `compassHeading(alpha, beta, gamma)`, with `atan2`
    /// in place of its `atan` and quadrant fix-up. It does not depend on the screen orientation.
    /// Nil when the camera looks straight up or down (no horizontal direction) or an angle is
    /// not finite.
    public static func compassHeading(alpha: Double, beta: Double, gamma: Double) -> Double? {
        guard alpha.isFinite, beta.isFinite, gamma.isFinite else { return nil }
        let radians = Double.pi / 180
        let cX = cos(beta * radians), sX = sin(beta * radians)
        let cY = cos(gamma * radians), sY = sin(gamma * radians)
        let cZ = cos(alpha * radians), sZ = sin(alpha * radians)
        // The east and north components of the back camera's direction, −R·(0, 0, 1).
        let east = -cZ * sY - sZ * sX * cY
        let north = -sZ * sY + cZ * sX * cY
        if abs(east) <= Attitude.degenerate && abs(north) <= Attitude.degenerate { return nil }
        var heading = atan2(east, north) / radians
        if heading < 0 { heading += 360 }
        if heading >= 360 { heading -= 360 }
        return heading
    }
}

/// Shared thresholds of the attitude math.
enum Attitude {
    /// Below this, both components of a direction count as zero: the direction is undefined.
    static let degenerate = 1e-12
}
