#!/usr/bin/env python3
"""Walked field paths for Waymark's FieldPath tests, from GeographicLib (nobody here wrote it).

A person walks round a field at 1 m/s and the phone records one point a second, so the points lie
1 m apart along the boundary. Every corner and every point is found with GeographicLib's direct
problem (``Geodesic.WGS84.Direct`` / ``Line.Position``); the reference area and perimeter of the
walked points come from ``Geodesic.WGS84.Polygon``.

Usage (with the venv's Python, .build-venv/tools/bin/python):
  field_path_reference.py walks
prints JSON on standard output:
  [{"label", "points": [[lat, lon, alt, unixTime], ...], "area" (m², signed: positive when the
    walk goes counter-clockwise), "perimeter" (m), "length" (m, along the walk, not closed)}, ...]
"""

import json
import math
import sys

from geographiclib.geodesic import Geodesic

WGS84 = Geodesic.WGS84
START_TIME = 1_750_000_000  # 2025-06-15T15:06:40Z


def square_corners(lat, lon, side, clockwise):
    """A side × side square: from the start, side metres north, then east, then south (each a
    geodesic leaving at a right angle to the last); the fourth edge goes back to the start."""
    corners = [(lat, lon)]
    for azimuth in (0, 90, 180):
        previous = corners[-1]
        step = WGS84.Direct(previous[0], previous[1], azimuth, side)
        corners.append((step["lat2"], step["lon2"]))
    # North, east, south, west is clockwise seen from above; reversed it is counter-clockwise.
    return corners if clockwise else [corners[0]] + corners[:0:-1]


def walk(corners, close):
    """Points 1 m apart along the geodesic edges between the corners (each edge divided into
    round(length) equal steps), the walk ending back on the start when `close`."""
    points = []
    ring = corners + [corners[0]]
    for (a, b) in zip(ring, ring[1:]):
        line = WGS84.InverseLine(a[0], a[1], b[0], b[1])
        steps = max(1, round(line.s13))
        for i in range(steps):
            position = line.Position(line.s13 * i / steps)
            points.append((position["lat2"], position["lon2"]))
    if close:
        points.append(corners[0])
    return points


def circle(lat, lon, radius, count):
    """`count` points round a circle of geodesic radius `radius`, counter-clockwise."""
    return [(p["lat2"], p["lon2"]) for p in
            (WGS84.Direct(lat, lon, -360 * i / count, radius) for i in range(count))]


def case(label, points, altitude=None):
    polygon = WGS84.Polygon()
    for lat, lon in points:
        polygon.AddPoint(lat, lon)
    # Counter-clockwise positive, the smaller of the two regions (GeographicLib's sign convention).
    _, perimeter, area = polygon.Compute(reverse=False, sign=True)
    length = sum(WGS84.Inverse(a[0], a[1], b[0], b[1])["s12"] for a, b in zip(points, points[1:]))
    rows = [[lat, lon, None if altitude is None else altitude + 0.01 * i, START_TIME + i]
            for i, (lat, lon) in enumerate(points)]
    return {"label": label, "points": rows, "area": area, "perimeter": perimeter, "length": length}


def walks():
    return [
        case("100 m square, Vienna, clockwise", walk(square_corners(48.2082, 16.3738, 100, True), False), 171.0),
        case("100 m square, Vienna, counter-clockwise, ends on the start",
             walk(square_corners(48.2082, 16.3738, 100, False), True), 171.0),
        case("100 m square, Cape Town, clockwise", walk(square_corners(-33.9249, 18.4241, 100, True), False)),
        case("100 m square, Tromsø, counter-clockwise", walk(square_corners(69.6492, 18.9553, 100, False), False), 10.0),
        case("100 m square across the antimeridian, Taveuni, clockwise",
             walk(square_corners(-16.8, 179.9995, 100, True), False)),
        case("circle of 3,600 points, radius 573 m", circle(50.0755, 14.4378, 573, 3600), 240.0),
    ]


if __name__ == "__main__":
    if sys.argv[1:] != ["walks"]:
        sys.exit(__doc__)
    json.dump(walks(), sys.stdout)
