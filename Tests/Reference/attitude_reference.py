#!/usr/bin/env python3
"""Reference numbers for Waymark's attitude math (seed 001, DESIGN §3.9), from tools nobody here wrote.

Everything is derived from rotation matrices built with scipy.spatial.transform.Rotation and numpy,
never from Waymark's quaternion formulas:

- the device's matrix from the W3C DeviceOrientation angles is
  ``Rotation.from_euler('ZXY', [alpha, beta, gamma], degrees=True)`` (uppercase: intrinsic
  Z-X'-Y'', R = Rz(alpha)·Rx(beta)·Ry(gamma) in east-north-up), checked once against the product
  of the three elementary matrices written out with numpy;
- the camera frame is that matrix times Rz(-screen angle);
- quaternions are scipy's ``Rotation.from_matrix(...).as_quat()``;
- qΔ is the matrix M0ᵀ·M1; roll, pitch and yaw are scipy's ``as_euler('ZXY')`` of a matrix
  ([yaw, pitch, roll], the decomposition Rz(yaw)·Rx(pitch)·Ry(roll) that the thesis' eq. 4.17
  computes from a quaternion); within 1e-6 of gimbal lock (cos pitch ≈ 0) roll and yaw are
  undefined and written as null;
- the level tilt is the angle of the world's up (Mᵀ·(0, 0, 1)) from the screen's y axis, the
  compass heading the bearing of the back camera's direction M·(0, 0, -1); null when the
  direction has no horizontal (or in-screen) part;
- the rectangle's centre applies the thesis' x = (ROLL + π)/(2π)·W, y = (PITCH + π/2)/π·H to
  those angles.

Usage (with the venv's Python, .build-venv/tools/bin/python):
  attitude_reference.py generate [folder]   writes the case tables (default Tests/Conformance/attitude)
  attitude_reference.py check [folder]      regenerates them and fails (exit 1) when a committed
                                            table differs from the reference by more than 1e-12
  attitude_reference.py matrices INPUT.json INPUT = {"attitudes": [[alpha, beta, gamma, screen], ...],
                                            "pairs": [[[a, b, g, s], [a, b, g, s]], ...]}; prints
                                            {"matrices": [3×3 rows, ...], "pairs": [{"pitch", "roll"}, ...]}
"""

import json
import math
import os
import sys
import warnings

import numpy as np
from scipy.spatial.transform import Rotation

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FOLDER = os.path.join(HERE, "..", "Conformance", "attitude")

# Below GIMBAL, cos(pitch) counts as zero: roll and yaw are undefined. Below DEGENERATE a direction
# counts as zero; between the two nothing may fall (the table would depend on the threshold).
GIMBAL = 1e-6
DEGENERATE = 1e-12


def elementary(axis, degrees):
    """The right-handed rotation matrix about a coordinate axis, written out (not scipy)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def device_matrix(alpha, beta, gamma):
    """The device's rotation matrix from W3C angles, by scipy (intrinsic Z-X'-Y'')."""
    m = Rotation.from_euler("ZXY", [alpha, beta, gamma], degrees=True).as_matrix()
    by_hand = elementary("z", alpha) @ elementary("x", beta) @ elementary("y", gamma)
    if not np.allclose(m, by_hand, atol=1e-12):
        raise SystemExit(f"scipy's ZXY does not match Rz·Rx·Ry for {alpha, beta, gamma}")
    return m


def camera_matrix(alpha, beta, gamma, screen):
    """The camera frame: the device's matrix, then -screen about the device's z axis."""
    return device_matrix(alpha, beta, gamma) @ Rotation.from_euler("z", -screen, degrees=True).as_matrix()


def grey_zone(value, what):
    if DEGENERATE < value < GIMBAL:
        raise SystemExit(f"{what}: {value} lies between the thresholds; choose another case")


def quaternion(m):
    x, y, z, w = Rotation.from_matrix(m).as_quat(canonical=True)
    return {"w": float(w), "x": float(x), "y": float(y), "z": float(z)}


def euler(m):
    """(yaw, pitch, roll) of Rz(yaw)·Rx(pitch)·Ry(roll) = m; yaw and roll None at gimbal lock."""
    cos_pitch = math.hypot(m[2][0], m[2][2])
    grey_zone(cos_pitch, "cos(pitch)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns at gimbal lock, where we write null anyway
        yaw, pitch, roll = Rotation.from_matrix(m).as_euler("ZXY")
    if cos_pitch <= GIMBAL:
        return None, float(pitch), None
    return float(yaw), float(pitch), float(roll)


def level_tilt(m):
    up = m.T @ np.array([0.0, 0.0, 1.0])
    size = math.hypot(up[0], up[1])
    grey_zone(size, "screen-plane part of up")
    return None if size <= DEGENERATE else float(math.atan2(-up[0], up[1]))


def compass_heading(alpha, beta, gamma):
    camera = device_matrix(alpha, beta, gamma) @ np.array([0.0, 0.0, -1.0])
    size = math.hypot(camera[0], camera[1])
    grey_zone(size, "horizontal part of the camera's direction")
    if size <= DEGENERATE:
        return None
    heading = math.degrees(math.atan2(camera[0], camera[1])) % 360.0
    return 0.0 if heading >= 360.0 else heading


def angles(alpha, beta, gamma, screen=0):
    return {"angles": {"alpha": alpha, "beta": beta, "gamma": gamma, "screen": screen}}


def attitude_matrix(attitude):
    if "angles" in attitude:
        a = attitude["angles"]
        return camera_matrix(a["alpha"], a["beta"], a["gamma"], a["screen"])
    q = attitude["quaternion"]
    return Rotation.from_quat([q["x"], q["y"], q["z"], q["w"]]).as_matrix()


def negated(attitude):
    """The same attitude written as the quaternion -q (scipy's quaternion with every sign flipped)."""
    q = quaternion(attitude_matrix(attitude))
    return {"quaternion": {k: -v for k, v in q.items()}}


def attitude_case(name, alpha, beta, gamma, screen=0, note=None):
    m = camera_matrix(alpha, beta, gamma, screen)
    yaw, pitch, roll = euler(m)
    case = {"name": name}
    if note:
        case["note"] = note
    case.update(angles(alpha, beta, gamma, screen))
    case["expect"] = {
        "quaternion": quaternion(m),
        "roll": roll, "pitch": pitch, "yaw": yaw,
        "levelTilt": level_tilt(m),
        "compassHeading": compass_heading(alpha, beta, gamma),
    }
    return case


def navigation_case(name, reference, current, width=1080, height=1920, note=None):
    m0, m1 = attitude_matrix(reference), attitude_matrix(current)
    delta = m0.T @ m1
    _, pitch, roll = euler(delta)
    case = {"name": name}
    if note:
        case["note"] = note
    case.update({"reference": reference, "current": current, "view": {"width": width, "height": height}})
    case["expect"] = {
        "delta": quaternion(delta),
        "roll": roll, "pitch": pitch,
        "centre": {
            "x": None if roll is None else (roll + math.pi) / (2 * math.pi) * width,
            "y": (pitch + math.pi / 2) / math.pi * height,
        },
    }
    return case


# Quaternion components are well conditioned; angles a little less (asin near ±1, atan2 of small parts).
TOLERANCE = {"quaternion": 1e-12, "radians": 1e-9, "degrees": 1e-7, "pixels": 1e-6}
# Near beta = ±90° asin's argument is within rounding of ±1, where a 1e-16 change moves the angle by
# up to 1.5e-8 rad; roll and yaw are divided by cos(pitch) there.
GIMBAL_TOLERANCE = {"quaternion": 1e-12, "radians": 1e-7, "degrees": 1e-5, "pixels": 1e-4}

UPRIGHT = angles(30, 90, 0)  # portrait, camera facing 330° (alpha is anticlockwise)


def tables():
    """Every table, by file name."""
    quaternions = [
        attitude_case("flat on a table, top to north", 0, 0, 0),
        attitude_case("flat, turned 90° anticlockwise", 90, 0, 0),
        attitude_case("tilted up 30° about x", 0, 30, 0),
        attitude_case("leaning 30° about y", 0, 0, 30),
        attitude_case("all three angles", 40, 25, -15),
        attitude_case("all three angles, large", 300, -150, 70),
        attitude_case("upright portrait, camera to 330°", 30, 90 - 1e-3, 0,
                      note="just off beta = 90° so that yaw is defined"),
        attitude_case("upright portrait tilted 10° to the right", 30, 80, -10),
        attitude_case("screen 90: landscape, device turned anticlockwise", 120, 10, -80, 90),
        attitude_case("screen 270: landscape, device turned clockwise", 120, -170, -80, 270),
        attitude_case("screen -90 is screen 270", 120, -170, -80, -90),
        attitude_case("screen 180: upside down", 210, -80, 0, 180),
        attitude_case("screen 90 with an everyday attitude", 75, 10, -60, 90),
        attitude_case("range edges: beta -180, gamma -90", 0, -180, -90),
        attitude_case("face down, camera to the sky", 10, -180, 0,
                      note="no compass heading (the camera looks up) and no level tilt (flat)"),
    ]
    navigation = [
        navigation_case("same attitude: centred", UPRIGHT, UPRIGHT),
        navigation_case("turned 10° left of the reference: rectangle 30 px right (1080 px = 360°)",
                        UPRIGHT, angles(40, 90, 0)),
        navigation_case("turned 10° right of the reference", UPRIGHT, angles(20, 90, 0)),
        navigation_case("tilted 10° up: rectangle 106.7 px down (1920 px = 180°)", UPRIGHT, angles(30, 100, 0)),
        navigation_case("tilted 10° down", UPRIGHT, angles(30, 80, 0)),
        navigation_case("turned and tilted", angles(200, 85, 3), angles(215, 70, -4), 390, 844),
        navigation_case("leaning about the camera axis only: centred horizontally",
                        angles(30, 80, 0), angles(30, 80, 20)),
        navigation_case("flat reference, everyday current", angles(0, 0, 0), angles(40, 25, -15), 640, 480),
        navigation_case("portrait reference, landscape current facing the same way: centred",
                        UPRIGHT, angles(120, 0, -90, 90)),
        navigation_case("landscape reference, portrait current turned 5° left",
                        angles(120, 0, -90, 90), angles(35, 90, 0)),
        navigation_case("screen 270 current against a portrait reference", UPRIGHT, angles(125, -180, -90, 270)),
        navigation_case("turned half way round: rectangle at the edge", UPRIGHT, angles(210, 90, 0),
                        note="ROLL = ±π: x is 0 or the width, the same place"),
    ]
    signs = [
        navigation_case("-q1 for the current attitude gives the same rectangle", UPRIGHT, negated(angles(40, 80, 5))),
        navigation_case("-q0 for the reference gives the same rectangle", negated(UPRIGHT), angles(40, 80, 5)),
        navigation_case("both negated", negated(UPRIGHT), negated(angles(40, 80, 5))),
        navigation_case("q and -q of the same attitude: centred", UPRIGHT, negated(UPRIGHT)),
        navigation_case("negated everyday attitudes", negated(angles(300, -150, 70)), negated(angles(290, -140, 60)), 720, 1280),
    ]
    gimbal = []
    for beta in (89.9, 90, 90.1, -89.9, -90, -90.1, 179.9, -179.9):
        gimbal.append(attitude_case(f"beta {beta}°", 30, beta, 20))
    for gamma in (-89.9, -90, 89.9):
        gimbal.append(attitude_case(f"gamma {gamma}°", 30, 45, gamma))
    for beta in (89.9, 90, 90.1, -89.9, -90, -90.1):
        gimbal.append(navigation_case(f"flat reference, current beta {beta}°", angles(0, 0, 0), angles(0, beta, 15),
                                      note="qΔ at or near pitch ±90°: where it is undefined, roll and x are null"))
    for beta in (89.9, 90, 90.1):
        gimbal.append(navigation_case(f"reference and current both at beta {beta}°, 10° apart",
                                      angles(30, beta, 0), angles(40, beta, 0)))
    turn = []
    for alpha in range(0, 361, 30):
        turn.append(attitude_case(f"flat, alpha {alpha}°", alpha, 0, 0))
    for alpha in range(0, 361, 30):
        turn.append(attitude_case(f"raised 60°, alpha {alpha}°", alpha, 60, 0))
    for alpha in range(0, 361, 30):
        turn.append(navigation_case(f"turning round against an upright reference, alpha {alpha}°",
                                    angles(0, 90, 0), angles(alpha, 90, 0)))
    return {
        "angles.json": ("Quaternions, Euler angles, level tilt and compass heading from W3C angles and the screen orientation",
                        TOLERANCE, quaternions),
        "navigation.json": ("qΔ, ROLL/PITCH and the navigation rectangle's centre", TOLERANCE, navigation),
        "sign.json": ("q and -q are the same attitude: the rectangle does not move", TOLERANCE, signs),
        "gimbal-lock.json": ("Gimbal-lock neighbourhoods: beta near ±90°, gamma at its range's edge, qΔ near pitch ±90°",
                             GIMBAL_TOLERANCE, gimbal),
        "full-turn.json": ("A full turn: alpha from 0° to 360° in steps of 30°", TOLERANCE, turn),
    }


def write(folder):
    os.makedirs(folder, exist_ok=True)
    for name, (title, tolerance, cases) in tables().items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            json.dump({"title": title, "tolerance": tolerance, "cases": cases}, f, indent=1, ensure_ascii=False)
            f.write("\n")


def differences(a, b, where):
    """Where two JSON values differ (numbers by more than 1e-12)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [f"{where}: keys {sorted(a)} ≠ {sorted(b)}"]
        return [d for k in a for d in differences(a[k], b[k], f"{where}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items ≠ {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{where}[{i}]")]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return [] if abs(a - b) <= 1e-12 else [f"{where}: {a} ≠ {b}"]
    return [] if a == b else [f"{where}: {a!r} ≠ {b!r}"]


def check(folder):
    expected = tables()
    found = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    problems = []
    if found != sorted(expected):
        problems.append(f"files {found} ≠ {sorted(expected)}")
    for name in sorted(set(found) & set(expected)):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            committed = json.load(f)
        title, tolerance, cases = expected[name]
        problems += differences(committed, {"title": title, "tolerance": tolerance, "cases": cases}, name)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


def matrices(path):
    with open(path, encoding="utf-8") as f:
        request = json.load(f)
    out = {"matrices": [camera_matrix(*a).tolist() for a in request["attitudes"]], "pairs": []}
    for a0, a1 in request["pairs"]:
        delta = camera_matrix(*a0).T @ camera_matrix(*a1)
        cos_pitch = math.hypot(delta[2][0], delta[2][2])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, pitch, roll = Rotation.from_matrix(delta).as_euler("ZXY")
        out["pairs"].append({"pitch": float(pitch), "roll": None if cos_pitch <= GIMBAL else float(roll)})
    json.dump(out, sys.stdout)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] in ("generate", "check"):
        folder = argv[2] if len(argv) > 2 else DEFAULT_FOLDER
        if argv[1] == "generate":
            write(folder)
            return 0
        return check(folder)
    if len(argv) == 3 and argv[1] == "matrices":
        return matrices(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
