"""Finding 8 of #34 (privacy): a map cluster's bounding box kept the exact corner of a photo that
was made private, lost its place or was deleted (the cell index never shrank a box). When a
photo leaves a cell, the box is recomputed or rounded to the cell: it no longer reveals where
that photo was."""
import math

import pytest

# The smallest cell the three photos share is of level 7 (a tile of zoom 5 cut 4 × 4); the
# tiles of zooms 1, 3 and 5 are read from the server's cell index.
LEVEL = 7
ZOOMS = (1, 3, 5)
MAX_LATITUDE = 85.05112877980659


def cell(level, latitude, longitude):
    """MapTile.cell of the server: the Web Mercator cell of a point in the 2^level grid."""
    scale = 1 << level
    clamped = math.radians(min(max(latitude, -MAX_LATITUDE), MAX_LATITUDE))
    px = (longitude + 180) / 360 * scale
    py = (1 - math.log(math.tan(clamped) + 1 / math.cos(clamped)) / math.pi) / 2 * scale
    return min(max(int(px // 1), 0), scale - 1), min(max(int(py // 1), 0), scale - 1)


def cell_box(level, cx, cy):
    """(west, south, east, north) of a cell."""
    n = 1 << level

    def latitude(row):
        return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * row / n))))

    return cx / n * 360 - 180, latitude(cy + 1), (cx + 1) / n * 360 - 180, latitude(cy)


def corners(centre):
    """Three places in one level-7 cell: two near its middle, the third near its south-west
    corner, so that it alone stretches the cluster's box."""
    cx, cy = cell(LEVEL, *centre)
    west, south, east, north = cell_box(LEVEL, cx, cy)
    width, height = east - west, north - south
    a = (south + 0.55 * height, west + 0.55 * width)
    b = (south + 0.70 * height, west + 0.65 * width)
    c = (south + 0.08 * height, west + 0.07 * width)
    for place in (a, b, c):
        assert cell(LEVEL, *place) == (cx, cy)
    return a, b, c, (cx, cy)


def clusters(server, z, cx, cy):
    """The anonymous cluster answer of the zoom-z tile that holds the level-7 cell (cx, cy)."""
    shift = LEVEL - (z + 2)
    x, y = (cx >> shift) >> 2, (cy >> shift) >> 2
    answer = server.get(f"/api/v1/photos/clusters/{z}/{x}/{y}")
    assert answer.status == 200, answer
    return answer.json()["features"]


def reveals(box, place, cell_bounds):
    """Whether a cluster's [west, south, east, north] tells where `place` is: an edge on its
    latitude or longitude, or a box that holds it and is not merely the cell's own."""
    west, south, east, north = box
    latitude, longitude = place
    on_edge = any(abs(edge - longitude) < 1e-6 for edge in (west, east)) or any(abs(edge - latitude) < 1e-6 for edge in (south, north))
    holds = west <= longitude <= east and south <= latitude <= north
    is_cell = all(abs(p - q) < 1e-6 for p, q in zip(box, cell_bounds))
    return on_edge or (holds and not is_cell)


@pytest.mark.parametrize("change", ["made private", "deleted", "moved away"])
def test_finding_08_cluster_box_forgets_a_photo_that_left(server, change):
    owner = server.account("mapper")
    a, b, c, (cx, cy) = corners((46.05, 14.5))
    photos = [server.upload(owner, latitude=f"{p[0]:.7f}", longitude=f"{p[1]:.7f}", title=f"corner {n}") for n, p in enumerate((a, b, c))]
    for z in ZOOMS:
        counts = [f["properties"].get("count") for f in clusters(server, z, cx, cy) if f["properties"].get("cluster")]
        assert counts == [3], f"zoom {z}: one cluster of the three photos before: {counts}"

    leaving = photos[2]["id"]
    if change == "made private":
        answer = server.patch(f"/api/v1/photos/{leaving}", json_body={"visibility": "private"}, token=owner.token)
        assert answer.status == 200, answer
    elif change == "deleted":
        answer = server.delete(f"/api/v1/photos/{leaving}", token=owner.token)
        assert answer.status == 204, answer
    else:
        answer = server.patch(f"/api/v1/photos/{leaving}", json_body={"latitude": -33.8688, "longitude": 151.2093}, token=owner.token)
        assert answer.status == 200, answer

    problems = []
    for z in ZOOMS:
        features = [f for f in clusters(server, z, cx, cy) if f["properties"].get("cluster")]
        if [f["properties"]["count"] for f in features] != [2]:
            problems.append(f"zoom {z}: one cluster of the two photos left: {features}")
            continue
        box = features[0]["properties"]["bbox"]
        shift = LEVEL - (z + 2)
        bounds = cell_box(z + 2, cx >> shift, cy >> shift)
        if reveals(box, c, bounds):
            problems.append(f"zoom {z}: the cluster's box {box} still reveals the {change} photo at {c[0]:.7f}, {c[1]:.7f}")
    assert problems == [], "\n".join(problems)
