#!/usr/bin/env python3
"""Reference satellite positions for Waymark's SGP4 tests, from the python `sgp4` package.

Reads on stdin a JSON list of cases
    [{"line1": "1 …", "line2": "2 …", "latitude": deg, "longitude": deg, "height": m,
      "time": unix seconds (UTC)}, …]
and writes on stdout a JSON list, one object per case:
    {"error": sgp4 error code (0 = fine), "position": [x, y, z] km TEME,
     "velocity": [vx, vy, vz] km/s TEME, "azimuth": deg, "elevation": deg, "range": km}

The propagation is the package's own (Satrec.twoline2rv with its defaults — WGS-72, the
improved 'i' mode — and Satrec.sgp4(jd, fr)). The topocentric conversion is the textbook one,
written here independently of Waymark's Swift code:
  - GMST by the IAU-82 formula (Vallado, Fundamentals of Astrodynamics, eq. 3-47), UTC for UT1;
  - TEME -> Earth-fixed by a rotation of GMST about z (polar motion ignored);
  - observer geodetic (WGS-84) -> ECEF, then the difference vector projected on the local
    east, north and up unit vectors; azimuth = atan2(E, N), elevation = atan2(U, hypot(E, N)).
"""
import json
import math
import sys

import numpy as np
from sgp4.api import Satrec

WGS84_A = 6378.137  # km
WGS84_F = 1 / 298.257223563


def gmst_iau82(jd_ut1):
    t = (jd_ut1 - 2451545.0) / 36525.0
    seconds = (67310.54841 + (876600.0 * 3600.0 + 8640184.812866) * t
               + 0.093104 * t ** 2 - 6.2e-6 * t ** 3)
    return math.radians((seconds / 240.0) % 360.0)


def observer_ecef(lat_deg, lon_deg, height_m):
    phi, lam = math.radians(lat_deg), math.radians(lon_deg)
    e2 = WGS84_F * (2 - WGS84_F)
    n = WGS84_A / math.sqrt(1 - e2 * math.sin(phi) ** 2)
    h = height_m / 1000.0
    return np.array([(n + h) * math.cos(phi) * math.cos(lam),
                     (n + h) * math.cos(phi) * math.sin(lam),
                     (n * (1 - e2) + h) * math.sin(phi)])


def enu_matrix(lat_deg, lon_deg):
    phi, lam = math.radians(lat_deg), math.radians(lon_deg)
    return np.array([
        [-math.sin(lam), math.cos(lam), 0.0],
        [-math.sin(phi) * math.cos(lam), -math.sin(phi) * math.sin(lam), math.cos(phi)],
        [math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi)],
    ])


def main():
    cases = json.load(sys.stdin)
    satellites = {}
    answers = []
    for case in cases:
        key = (case["line1"], case["line2"])
        if key not in satellites:
            satellites[key] = Satrec.twoline2rv(*key)
        sat = satellites[key]
        days = case["time"] / 86400.0
        whole = math.floor(days)
        jd, fr = 2440587.5 + whole, days - whole
        error, r, v = sat.sgp4(jd, fr)
        answer = {"error": int(error), "position": list(r), "velocity": list(v)}
        if error == 0:
            theta = gmst_iau82(jd + fr)
            c, s = math.cos(theta), math.sin(theta)
            rotation = np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])
            ecef = rotation @ np.array(r)
            east, north, up = enu_matrix(case["latitude"], case["longitude"]) @ (
                ecef - observer_ecef(case["latitude"], case["longitude"], case["height"]))
            answer["azimuth"] = math.degrees(math.atan2(east, north)) % 360.0
            answer["elevation"] = math.degrees(math.atan2(up, math.hypot(east, north)))
            answer["range"] = float(np.linalg.norm([east, north, up]))
        answers.append(answer)
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
