import Foundation

/// The thesis' Euler angles of a quaternion (seed 001, eq. 4.17: Diebel's sequence (2, 1, 3)).
///
/// They decompose the rotation as `Rz(yaw)·Rx(pitch)·Ry(roll)`, the same order as the W3C
/// angles (for an attitude with −90° < beta < 90°, yaw = alpha, pitch = beta, roll = gamma, in
/// radians). At pitch = ±π/2 (gimbal lock) roll and yaw are not defined: the formulas still
/// give finite numbers, but which ones depends on rounding.
extension Quaternion {
    /// Rotation about the device's y axis (the screen's vertical): turning left or right when
    /// the phone is held upright. Radians, −π ≤ roll ≤ π.
    /// `atan2(−2·qx·qz + 2·qw·qy, qz² − qy² − qx² + qw²)` (eq. 4.23).
    public var roll: Double {
        atan2(-2 * x * z + 2 * w * y, z * z - y * y - x * x + w * w)
    }

    /// Rotation about the device's x axis (the screen's horizontal): tilting up or down.
    /// Radians, −π/2 ≤ pitch ≤ π/2. `asin(2·qy·qz + 2·qw·qx)` (eq. 4.24), its argument clamped
    /// to [−1, 1] so that rounding near gimbal lock cannot give NaN.
    public var pitch: Double {
        asin(min(1, max(-1, 2 * y * z + 2 * w * x)))
    }

    /// The third angle of eq. 4.17, rotation about the world's vertical: the direction of the
    /// device's y axis (the top of the screen) projected on the horizontal plane, in radians
    /// anticlockwise from north (as W3C alpha), −π ≤ yaw ≤ π.
    /// `atan2(−2·qx·qy + 2·qw·qz, qy² − qz² + qw² − qx²)`.
    ///
    /// The thesis turns the level rectangle of a new scene by this angle. It is a heading: for a
    /// phone held upright (pitch ±π/2) it is undefined, so the level rectangle of the camera
    /// uses ``levelTilt`` instead.
    public var yaw: Double {
        atan2(-2 * x * y + 2 * w * z, y * y - z * z + w * w - x * x)
    }

    /// How far the screen is turned clockwise from level, as the user looks at it, in radians,
    /// −π ≤ tilt ≤ π: the angle between the screen's horizontal and the horizon. The level
    /// rectangle of a new scene (the thesis' Figure 4.8: "the device is tilted to the right")
    /// is drawn turned by −levelTilt, so that it stays parallel to the horizon while the grid
    /// turns with the device; 0 when the screen's horizontal is level.
    ///
    /// Nil when the screen lies flat (facing straight up or down): there is no horizon to show.
    public var levelTilt: Double? {
        // The world's up in device coordinates is (M[2][0], M[2][1], M[2][2]); the tilt is the
        // angle of its projection on the screen from the screen's y axis.
        let upAlongX = 2 * (x * z - w * y)
        let upAlongY = 2 * (y * z + w * x)
        if abs(upAlongX) <= Attitude.degenerate && abs(upAlongY) <= Attitude.degenerate { return nil }
        return atan2(-upAlongX, upAlongY)
    }
}

/// The navigation rectangle of a retake (DESIGN §3.9, seed 001 §4.3.2): where on the camera
/// view the reference attitude lies, so that the user turns the phone until the rectangle sits
/// in the middle.
public enum NavigationRectangle {
    /// qΔ = q0⁻¹·q1 (eq. 4.22): the rotation from the reference attitude `reference` (q0, saved
    /// with the scene) to the current one `current` (q1), in the reference's device frame.
    public static func delta(reference: Quaternion, current: Quaternion) -> Quaternion {
        reference.inverse * current
    }

    /// The rectangle's centre on a camera view `width` × `height` (any unit, y downwards) for
    /// the relative rotation `delta`: x = (ROLL + π)/(2π)·width, y = (PITCH + π/2)/π·height.
    ///
    /// It is the middle of the view when `delta` is no rotation; turning the phone left of the
    /// reference moves it right, tilting it up moves it down (towards where the reference is).
    /// A full turn spans the width; at ROLL = ±π the rectangle is at either edge.
    public static func centre(delta: Quaternion, width: Double, height: Double) -> (x: Double, y: Double) {
        let x = (delta.roll + Double.pi) / (2 * Double.pi) * width
        let y = (delta.pitch + Double.pi / 2) / Double.pi * height
        return (x, y)
    }

    /// The rectangle's centre for the reference attitude `reference` and the current one `current`.
    public static func centre(reference: Quaternion, current: Quaternion, width: Double, height: Double) -> (x: Double, y: Double) {
        centre(delta: delta(reference: reference, current: current), width: width, height: height)
    }
}
