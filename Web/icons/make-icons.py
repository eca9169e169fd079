#!/usr/bin/env python3
"""Draws Waymark's app icons (a white map pin on green) as PNG with nothing but the standard
library, so they can be remade anywhere: python3 Web/icons/make-icons.py

icon-192.png and icon-512.png: rounded square, transparent corners ("any").
maskable-512.png: full-bleed background, the pin inside the 40 % safe-zone circle ("maskable").
../favicon.ico: 32 and 48 px PNGs in an ICO, for what browsers ask for by themselves (e.g. when
they show an API answer as a page).
"""
import math
import os
import struct
import zlib

GREEN = (15, 92, 74)
SHADOW = (9, 58, 47)
WHITE = (255, 255, 255)
SUPERSAMPLE = 4


def pin_shapes(scale):
    """Inside-tests for the shadow, the pin and its hole, in unit coordinates around (0.5, 0.5)."""
    cx, cy, r, tip = 0.5, 0.40, 0.20, 0.80
    # Pull every point towards the centre for the maskable icon's safe zone.
    def unscale(x, y):
        return 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale
    half_angle = math.asin(r / (tip - cy))
    tangent_y = cy + r * math.sin(half_angle)
    slope = math.tan(half_angle)

    def pin(x, y):
        x, y = unscale(x, y)
        if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
            return True
        return tangent_y <= y <= tip and abs(x - cx) <= (tip - y) * slope

    def hole(x, y):
        x, y = unscale(x, y)
        return (x - cx) ** 2 + (y - cy) ** 2 <= 0.075 ** 2

    def shadow(x, y):
        x, y = unscale(x, y)
        return ((x - 0.5) / 0.13) ** 2 + ((y - 0.805) / 0.035) ** 2 <= 1
    return pin, hole, shadow


def rounded_square(x, y, radius=0.19):
    dx = max(radius - x, 0, x - (1 - radius))
    dy = max(radius - y, 0, y - (1 - radius))
    return dx * dx + dy * dy <= radius * radius


def draw(size, maskable):
    pin, hole, shadow = pin_shapes(0.72 if maskable else 1.0)
    rows = []
    n = SUPERSAMPLE
    for py in range(size):
        row = bytearray([0])  # PNG filter type 0 for this row
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    x = (px + (sx + 0.5) / n) / size
                    y = (py + (sy + 0.5) / n) / size
                    if not maskable and not rounded_square(x, y):
                        continue
                    colour = GREEN
                    if pin(x, y) and not hole(x, y):
                        colour = WHITE
                    elif shadow(x, y) and not pin(x, y):
                        colour = SHADOW
                    acc[0] += colour[0]; acc[1] += colour[1]; acc[2] += colour[2]; acc[3] += 255
            samples = n * n
            alpha = acc[3] / samples
            if alpha == 0:
                row += bytes(4)
            else:
                covered = acc[3] / 255
                row += bytes([round(acc[0] / covered), round(acc[1] / covered), round(acc[2] / covered), round(alpha)])
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width, height, raw):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def ico(images):
    """An ICO file holding PNG images: [(size, png bytes)]."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, data = b"", b""
    for size, image in images:
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), offset + len(data))
        data += image
    return header + entries + data


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False), ("maskable-512.png", 512, True)):
        with open(os.path.join(here, name), "wb") as out:
            out.write(draw(size, maskable))
        print(name)
    with open(os.path.join(here, "..", "favicon.ico"), "wb") as out:
        out.write(ico([(32, draw(32, False)), (48, draw(48, False))]))
    print("../favicon.ico")
