#!/usr/bin/env python3
"""Reference numbers for Waymark's field geometry, from tools nobody here wrote.

Polygon area and perimeter come from GeographicLib (PyPI geographiclib, Karney's algorithms):
``Geodesic.WGS84.Polygon``. The convex-hull centroid is computed independently of Waymark's code:
WGS-84 geodetic -> ECEF -> ENU with numpy from the textbook formulas, the mean position back to
latitude/longitude by Heikkinen's closed form (1982), the hull by scipy.spatial.ConvexHull (Qhull),
and the hull's area-weighted centroid by the shoelace formula.

Usage (with the venv's Python, .build-venv/tools/bin/python):
  geodesic_reference.py generate [folder]   writes polygons.json and centroids.json
                                             (default Tests/Conformance/geometry)
  geodesic_reference.py check INPUT.json     INPUT = {"polygons": [[[lat, lon], ...], ...],
                                             "hulls": [[[lat, lon], ...], ...]}; prints the
                                             reference answers as JSON on standard output
"""

import json
import math
import os
import sys

import numpy as np
from geographiclib.geodesic import Geodesic
from scipy.spatial import ConvexHull, QhullError

WGS84 = Geodesic.WGS84
A = 6378137.0
F = 1 / 298.257223563
B = A * (1 - F)
E2 = F * (2 - F)
EP2 = E2 / (1 - F) ** 2


def polygon(points):
    """Area (m², positive), perimeter (m) and orientation of the geodesic polygon, by GeographicLib."""
    p = WGS84.Polygon()
    for lat, lon in points:
        p.AddPoint(lat, lon)
    _, perimeter, area = p.Compute(False, True)
    orientation = "counterclockwise" if area > 0 else "clockwise" if area < 0 else "flat"
    return {"area": abs(area), "perimeter": perimeter, "orientation": orientation}


def ecef(lat, lon):
    """Geodetic degrees (height 0) to ECEF metres, as numpy arrays."""
    phi, lam = np.radians(lat), np.radians(lon)
    n = A / np.sqrt(1 - E2 * np.sin(phi) ** 2)
    return np.stack([n * np.cos(phi) * np.cos(lam), n * np.cos(phi) * np.sin(lam), n * (1 - E2) * np.sin(phi)], axis=-1)


def geodetic(v):
    """ECEF metres to geodetic latitude/longitude in degrees, Heikkinen's closed form."""
    x, y, z = v
    r = math.hypot(x, y)
    big_f = 54 * B * B * z * z
    g = r * r + (1 - E2) * z * z - E2 * (A * A - B * B)
    c = E2 * E2 * big_f * r * r / g ** 3
    s = (1 + c + math.sqrt(c * c + 2 * c)) ** (1 / 3)
    p = big_f / (3 * (s + 1 / s + 1) ** 2 * g * g)
    q = math.sqrt(1 + 2 * E2 * E2 * p)
    r0 = -(p * E2 * r) / (1 + q) + math.sqrt(A * A / 2 * (1 + 1 / q) - p * (1 - E2) * z * z / (q * (1 + q)) - p * r * r / 2)
    v_ = math.sqrt((r - E2 * r0) ** 2 + (1 - E2) * z * z)
    z0 = B * B * z / (A * v_)
    lat = math.degrees(math.atan2(z + EP2 * z0, r))
    lon = math.degrees(math.atan2(y, x))
    return lat, lon


def centroid(points):
    """The area-weighted centroid of the convex hull on the tangent plane at the mean position."""
    pts = np.array(points, dtype=float)
    xyz = ecef(pts[:, 0], pts[:, 1])
    lat0, lon0 = geodetic(xyz.mean(axis=0))
    origin = ecef(np.array(lat0), np.array(lon0))
    phi, lam = math.radians(lat0), math.radians(lon0)
    rotation = np.array([
        [-math.sin(lam), math.cos(lam), 0.0],
        [-math.sin(phi) * math.cos(lam), -math.sin(phi) * math.sin(lam), math.cos(phi)],
    ])
    plane = (xyz - origin) @ rotation.T
    order = np.lexsort((plane[:, 1], plane[:, 0]))
    middle = (plane[order[0]] + plane[order[-1]]) / 2
    point = middle
    if len(plane) >= 3:
        try:
            hull = ConvexHull(plane)
            ring = plane[hull.vertices]  # counter-clockwise
            extent = np.hypot(*(ring.max(axis=0) - ring.min(axis=0)))
            if hull.volume > 0.5e-12 * extent * extent:
                x, y = ring[:, 0] - ring[0, 0], ring[:, 1] - ring[0, 1]
                xn, yn = np.roll(x, -1), np.roll(y, -1)
                w = x * yn - xn * y
                area2 = w.sum()
                point = np.array([ring[0, 0] + (w * (x + xn)).sum() / (3 * area2),
                                  ring[0, 1] + (w * (y + yn)).sum() / (3 * area2)])
        except QhullError:
            point = middle
    lat, lon = geodetic(origin + point @ rotation)
    return {"latitude": lat, "longitude": lon, "samples": len(points)}


def direct(lat, lon, azimuth, distance):
    g = WGS84.Direct(lat, lon, azimuth, distance)
    return [g["lat2"], g["lon2"]]


def square(lat, lon, side):
    """A geodesic 'square': side metres east, then north from both ends (counter-clockwise)."""
    p1 = direct(lat, lon, 90, side)
    return [[lat, lon], p1, direct(p1[0], p1[1], 0, side), direct(lat, lon, 0, side)]


def star(lat, lon, radii, seed_angle=0.0):
    """A star-shaped polygon round a centre: one vertex per radius, counter-clockwise."""
    n = len(radii)
    return [direct(lat, lon, (seed_angle - 360 * i / n) % 360, r) for i, r in enumerate(radii)]


ANTARCTICA = [[-63.1, -58], [-72.9, -74], [-71.9, -102], [-74.9, -102], [-74.3, -131], [-77.5, -163],
              [-77.4, 163], [-71.7, 172], [-65.9, 140], [-65.7, 113], [-66.6, 88], [-66.9, 59],
              [-69.8, 25], [-70.0, -4], [-71.0, -14], [-77.3, -33], [-77.9, -46], [-74.7, -61]]

# A coarse outline of Czechia, west to north to east to south (clockwise as drawn on a map).
CZECHIA = [[50.32, 12.09], [50.25, 12.52], [50.87, 14.29], [51.05, 14.82], [50.88, 15.27], [50.78, 15.86],
           [50.42, 16.34], [50.19, 16.64], [50.32, 17.22], [49.98, 18.29], [49.51, 18.85], [48.87, 17.90],
           [48.61, 16.95], [48.76, 16.10], [48.56, 14.84], [48.58, 14.01], [49.12, 13.32], [49.72, 12.39]]

FIELD = [[49.15102, 16.61011], [49.15098, 16.61342], [49.15213, 16.61417], [49.15340, 16.61390],
         [49.15371, 16.61188], [49.15302, 16.61097], [49.15256, 16.60990], [49.15170, 16.60962]]


# Values printed in documentation, to the digits printed (checked besides GeographicLib's own numbers).
PUBLISHED = {
    "Antarctica, GeographicLib's documented Polygon example": {
        "area": 13662703680020.1, "areaWithin": 0.05, "perimeter": 16831067.893, "perimeterWithin": 0.0005,
        "source": "GeographicLib documentation, Polygon example: perimeter/area of Antarctica 16831067.893 m, 13662703680020.1 m²"},
    "1° square at the equator, geographiclib-rs's documented PolygonArea example": {
        "area": 12308778361.469452, "areaWithin": 1e-4, "perimeter": 443770.917248302, "perimeterWithin": 1e-6,
        "source": "docs.rs geographiclib-rs PolygonArea example: (0,0), (0,1), (1,1), (1,0) → 443770.917248302 m, 12308778361.469452 m²"},
}


def polygon_cases():
    brno = square(49.1951, 16.6068, 100)
    cases = [
        ("Antarctica, GeographicLib's documented Polygon example", ANTARCTICA),
        ("1° square at the equator, geographiclib-rs's documented PolygonArea example", [[0, 0], [0, 1], [1, 1], [1, 0]]),
        ("Antarctica, the other way round", ANTARCTICA[::-1]),
        ("100 m × 100 m geodesic square near Brno, counter-clockwise", brno),
        ("the Brno square clockwise", brno[::-1]),
        ("the Brno square with its first point repeated at the end", brno + [brno[0]]),
        ("the Brno square starting at another corner", brno[2:] + brno[:2]),
        ("an irregular field of about 6 ha south of Brno, counter-clockwise", FIELD[::-1]),
        ("the field clockwise", FIELD),
        ("1 m × 1 m square near Brno", square(49.2, 16.6, 1)),
        ("a coarse outline of Czechia, clockwise", CZECHIA),
        ("Czechia counter-clockwise", CZECHIA[::-1]),
        ("Fiji-sized box across the antimeridian", [[-19.5, 176.5], [-19.5, -178.2], [-15.5, -178.2], [-15.5, 176.5]]),
        ("the antimeridian box with longitudes beyond ±180", [[-19.5, 176.5], [-19.5, 181.8], [-15.5, 181.8], [-15.5, 176.5]]),
        ("a ring round the North Pole at 80° N, eastward", [[80, lon] for lon in range(-180, 180, 30)]),
        ("the North Pole ring westward", [[80, lon] for lon in range(180, -180, -30)]),
        ("a ring round the South Pole at 85° S, westward", [[-85, lon] for lon in range(0, -360, -45)]),
        ("a triangle with a corner at the North Pole", [[60, 10], [60, 20], [90, 0]]),
        ("the octant: equator from 0° to 90° E, up to the pole and back", [[0, 0], [0, 90], [90, 0]]),
        ("a strip along the equator", [[-0.001, 10], [-0.001, 11], [0.001, 11], [0.001, 10]]),
        ("a sliver triangle with collinear-looking points", [[0, 0], [0.0005, 0.5], [0, 1]]),
        ("a 500 km square in the Sahara", square(20, 5, 500000)),
        ("a 2000 km star round Kazakhstan", star(48, 68, [2e6, 1.6e6, 1.9e6, 1.2e6, 1.7e6, 2.1e6, 1.5e6])),
        ("a 300 m star near Bergen, 14 points", star(60.39, 5.32, [300, 260, 310, 220, 290, 240, 330, 280, 200, 300, 250, 320, 270, 230])),
        ("a bow-tie whose halves cancel", [[0, 0], [1, 1], [1, 0], [0, 1]]),
    ]
    out = []
    for name, points in cases:
        ref = polygon(points)
        area_within = max(0.001, 1e-11 * ref["area"])
        case = {"name": name, "points": points, "area": ref["area"], "perimeter": ref["perimeter"],
                "orientation": ref["orientation"], "areaWithin": area_within,
                "perimeterWithin": max(1e-6, 1e-12 * ref["perimeter"])}
        if name in PUBLISHED:
            case["published"] = PUBLISHED[name]
        out.append(case)
    refused = [
        {"name": "no points", "points": [], "error": "tooFewPoints", "distinct": 0},
        {"name": "one point", "points": [[49.2, 16.6]], "error": "tooFewPoints", "distinct": 1},
        {"name": "two points", "points": [[49.2, 16.6], [49.3, 16.6]], "error": "tooFewPoints", "distinct": 2},
        {"name": "three points, two the same", "points": [[49.2, 16.6], [49.3, 16.6], [49.2, 16.6]], "error": "tooFewPoints", "distinct": 2},
        {"name": "two points and the same one 360° round", "points": [[49.2, 16.6], [49.3, 16.6], [49.2, 376.6]], "error": "tooFewPoints", "distinct": 2},
        {"name": "a latitude that is not a number", "points": [[49.2, 16.6], ["NaN", 16.7], [49.3, 16.6]], "error": "invalidPoint", "index": 1},
        {"name": "a latitude beyond the pole", "points": [[49.2, 16.6], [49.3, 16.7], [91, 16.6]], "error": "invalidPoint", "index": 2},
        {"name": "an infinite longitude", "points": [[49.2, "Infinity"], [49.3, 16.7], [49.2, 16.8]], "error": "invalidPoint", "index": 0},
        {"name": "three corners all at the North Pole", "points": [[90, 0], [90, 120], [90, -45]], "error": "tooFewPoints", "distinct": 1},
    ]
    return {"title": "Geodesic polygons on WGS-84: area and perimeter by GeographicLib (geographiclib "
                     + geographiclib_version() + ", Geodesic.WGS84.Polygon)",
            "note": "Written by Tests/Reference/geodesic_reference.py generate; do not edit by hand.",
            "polygons": out, "refused": refused}


def centroid_cases():
    rng = np.random.default_rng(3)
    noise = [[49.19510 + d[0] * 3e-5, 16.60680 + d[1] * 4.6e-5] for d in rng.normal(size=(10, 2))]
    cases = [
        ("one fix", [[49.1951, 16.6068]], 1e-4),
        ("two fixes: their midpoint", [[49.1951, 16.6068], [49.1953, 16.6072]], 1e-4),
        ("three collinear fixes on the equator: the middle of the segment", [[0, 10], [0, 10.003], [0, 10.001]], 1e-4),
        ("ten noisy fixes round a standing phone", noise, 1e-4),
        ("a square with fixes inside, which do not move the hull's centroid",
         square(49.1951, 16.6068, 20) + [[49.19511, 16.60681], [49.19512, 16.60690], [49.19515, 16.60684]], 1e-4),
        ("fixes bunched on one side: the hull's centroid, not their mean",
         [[49.1951, 16.6068], [49.19510, 16.60681], [49.19511, 16.60680], [49.19510, 16.60680], [49.1953, 16.6068], [49.1951, 16.6071]], 1e-4),
        ("fixes across the antimeridian", [[-17.0, 179.9995], [-17.0, -179.9995], [-16.9993, 179.9999], [-17.0004, -179.9998]], 1e-4),
        ("fixes near the North Pole", [[89.9995, 0], [89.9995, 90], [89.9995, 180], [89.9995, -90], [89.9997, 45]], 1e-4),
        ("a 10 km hull", star(49.2, 16.6, [10000, 7000, 9000, 6000, 8000]), 1e-4),
        ("the field's corners", FIELD, 1e-4),
    ]
    out = []
    for name, points, within in cases:
        ref = centroid(points)
        out.append({"name": name, "points": points, "latitude": ref["latitude"], "longitude": ref["longitude"],
                    "samples": ref["samples"], "withinMetres": within})
    refused = [
        {"name": "no fixes", "points": [], "error": "noPoints"},
        {"name": "a fix without latitude", "points": [[49.2, 16.6], ["NaN", 16.6]], "error": "invalidPoint", "index": 1},
        {"name": "a latitude below the South Pole", "points": [[-90.5, 16.6]], "error": "invalidPoint", "index": 0},
        {"name": "an infinite longitude", "points": [[49.2, 16.6], [49.2, "-Infinity"]], "error": "invalidPoint", "index": 1},
    ]
    return {"title": "Convex-hull centroids on the local tangent plane, computed independently with numpy "
                     "(ENU) and scipy.spatial.ConvexHull",
            "note": "Written by Tests/Reference/geodesic_reference.py generate; do not edit by hand.",
            "centroids": out, "refused": refused}


def layout(book):
    """The book as JSON with one case per line, so that a diff shows which case changed."""
    lines = ["{"]
    keys = list(book)
    for i, key in enumerate(keys):
        end = "," if i + 1 < len(keys) else ""
        value = book[key]
        if isinstance(value, list):
            lines.append(f" {json.dumps(key)}: [")
            for j, case in enumerate(value):
                lines.append("  " + json.dumps(case, ensure_ascii=False) + ("," if j + 1 < len(value) else ""))
            lines.append(" ]" + end)
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def geographiclib_version():
    import geographiclib
    return getattr(geographiclib, "__version__", "?")


def main(argv):
    if len(argv) >= 2 and argv[1] == "generate":
        here = os.path.dirname(os.path.abspath(__file__))
        folder = argv[2] if len(argv) > 2 else os.path.join(here, "..", "Conformance", "geometry")
        os.makedirs(folder, exist_ok=True)
        for name, book in (("polygons.json", polygon_cases()), ("centroids.json", centroid_cases())):
            with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
                out.write(layout(book))
        return 0
    if len(argv) == 3 and argv[1] == "check":
        with open(argv[2], encoding="utf-8") as source:
            request = json.load(source)
        answer = {"polygons": [polygon(p) for p in request.get("polygons", [])],
                  "centroids": [centroid(p) for p in request.get("hulls", [])]}
        json.dump(answer, sys.stdout)
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
