"""Draw the site's app icons (the spade of ``static/favicon.svg``) as PNG files, with the standard
library only (zlib and struct: no imaging library is installed).

    .venv/bin/python scripts/make_icons.py        # writes static/icons/*.png

* ``icon-192.png``, ``icon-512.png``: the rounded green square with the white spade, transparent
  corners (the web app manifest's ``any`` icons);
* ``icon-maskable-512.png``: green to every edge, the spade inside the central circle of 80 % that
  every mask keeps (``purpose: maskable``);
* ``apple-touch-icon.png`` (180): green to every edge, no transparency (iOS rounds it itself).

The shapes are the favicon's, in its 32-unit box; each pixel is sampled 4 × 4 times, so edges
are smooth. The files are committed; run this again only when the drawing changes.
"""

from __future__ import annotations

import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "static" / "icons"
GREEN = (0x0B, 0x6E, 0x4F)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4

Inside = Callable[[float, float], bool]


def _triangle(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> Inside:
    def side(p: tuple[float, float], q: tuple[float, float], x: float, y: float) -> float:
        return (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0])

    def inside(x: float, y: float) -> bool:
        d1, d2, d3 = side(a, b, x, y), side(b, c, x, y), side(c, a, x, y)
        return not ((d1 < 0 or d2 < 0 or d3 < 0) and (d1 > 0 or d2 > 0 or d3 > 0))

    return inside


def _circle(cx: float, cy: float, r: float) -> Inside:
    return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r


# static/favicon.svg's spade, in its 32-unit box
SPADE: list[Inside] = [
    _circle(10.5, 17, 6), _circle(21.5, 17, 6),
    _triangle((16, 2.5), (4.7, 16), (27.3, 16)),
    _triangle((16, 18), (10.5, 29.5), (21.5, 29.5)),
]


def _rounded_square(radius: float) -> Inside:
    def inside(x: float, y: float) -> bool:
        if not (0 <= x <= 32 and 0 <= y <= 32):
            return False
        cx = min(max(x, radius), 32 - radius)
        cy = min(max(y, radius), 32 - radius)
        return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius

    return inside


def draw(size: int, *, radius: float, spade_scale: float) -> bytes:
    """RGBA rows of an icon ``size`` pixels square: the background square (corner ``radius`` in
    favicon units; 0: to every edge) and the spade scaled about the centre by ``spade_scale``."""
    background = _rounded_square(radius) if radius else (lambda x, y: True)
    rows = bytearray()
    step = 32 / size
    for py in range(size):
        rows.append(0)  # PNG filter: none
        for px in range(size):
            covered = spade = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) * step
                    y = (py + (sy + 0.5) / SAMPLES) * step
                    if not background(x, y):
                        continue
                    covered += 1
                    # the spade's own coordinates: scaled about the box's centre
                    u, v = 16 + (x - 16) / spade_scale, 16 + (y - 16) / spade_scale
                    if any(shape(u, v) for shape in SPADE):
                        spade += 1
            if not covered:
                rows += b"\x00\x00\x00\x00"
                continue
            share = spade / covered
            rows += bytes(round(g + (w - g) * share) for g, w in zip(GREEN, WHITE, strict=True))
            rows.append(round(255 * covered / SAMPLES ** 2))
    return bytes(rows)


def png(size: int, rows: bytes) -> bytes:
    """A PNG file (8-bit RGBA) of ``size`` square from its filtered rows."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


# file -> (size, corner radius in favicon units, spade scale)
ICONS = {
    "icon-192.png": (192, 6.0, 1.0),
    "icon-512.png": (512, 6.0, 1.0),
    # the spade (about 27 units of 32 tall) inside the central 80 % circle
    "icon-maskable-512.png": (512, 0.0, 0.62),
    "apple-touch-icon.png": (180, 0.0, 0.8),
}


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (size, radius, scale) in ICONS.items():
        (OUT / name).write_bytes(png(size, draw(size, radius=radius, spade_scale=scale)))
        print(f"wrote static/icons/{name} ({size} × {size})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
