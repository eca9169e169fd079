#!/usr/bin/env python3
"""Reference magnetic declinations for Waymark's Web/inspection/declination.js, from pygeomag.

    declination_reference.py generate   writes Tests/Conformance/declination/declination.json

pygeomag (PyPI, pinned in scripts/python-tools.txt) is a port of NOAA's own geomag C program with
the official WMM.COF files; nobody here wrote it. The table holds:
  - `samples`: 600 seeded random places and dates spread over the globe (latitude −89…89, the
    geographic poles excepted; longitude −180…180; altitude 0…10 km above the ellipsoid) and over
    the model's years 2025.0…2030.0, with pygeomag's declination;
  - `outside`: places before and after the model's years (pygeomag with
    allow_date_outside_lifespan), which declination.js computes but flags;
  - `published`: pygeomag's documented example (the Space Needle, 2025.25: 15.0656…°).
Change a case here, regenerate, commit both.
"""
import json
import os
import random
import sys

from pygeomag import GeoMag

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'Conformance', 'declination', 'declination.json')
WITHIN = 0.01  # degrees


def model():
    return GeoMag(coefficients_file='wmm/WMM_2025.COF')


def case(geo, latitude, longitude, altitude, year, outside=False):
    result = geo.calculate(glat=latitude, glon=longitude, alt=altitude / 1000, time=year,
                           allow_date_outside_lifespan=outside)
    return {'latitude': latitude, 'longitude': longitude, 'altitude': altitude, 'year': year,
            'declination': round(result.d, 9)}


def generate():
    geo = model()
    rng = random.Random(20251113)
    samples = []
    for _ in range(600):
        samples.append(case(geo, round(rng.uniform(-89, 89), 6), round(rng.uniform(-180, 180), 6),
                            round(rng.uniform(0, 10000), 1), round(rng.uniform(2025.0, 2030.0), 6)))
    outside = []
    for year in (2023.0, 2024.9, 2030.1, 2032.0):
        for _ in range(5):
            outside.append(case(geo, round(rng.uniform(-80, 80), 6), round(rng.uniform(-180, 180), 6),
                                round(rng.uniform(0, 3000), 1), year, outside=True))
    published = case(geo, 47.6205, -122.3493, 0, 2025.25)
    published['published'] = 15.065629638512593
    data = {
        'title': 'Magnetic declination from WMM2025, by pygeomag',
        'note': 'Written by Tests/Reference/declination_reference.py generate; do not edit by hand. '
                'Altitude in metres above the WGS-84 ellipsoid, year decimal, declination degrees east positive.',
        'model': geo.model,
        'within': WITHIN,
        'samples': samples,
        'outside': outside,
        'published': [published],
    }
    with open(OUT, 'w') as f:
        json.dump(data, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    if sys.argv[1:] != ['generate']:
        sys.exit(__doc__)
    generate()
