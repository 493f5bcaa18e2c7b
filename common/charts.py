"""Charts drawn on the server as inline SVG: small pure functions, no JavaScript, no queries.

Each function returns one ``<svg>`` element (marked safe for templates) with

* a ``viewBox`` only 360 units wide (the progress chart of a wall screen: 640) and no fixed
  size: the drawing scales to the width of its
  box, so on a 390-pixel phone (about 320 pixels inside a card) a 15-unit label is still over
  13 pixels high and a 14-unit tick 12.5 (a stylesheet caps the width on a desktop);
* ``role="img"``, an ``aria-label`` and a ``<title>`` naming the chart, and a ``<title>`` on every
  bar and point (the exact number on hover or long press);
* every piece of text escaped (names come from people).

A chart never stands alone: the page puts a plain table of the same numbers next to or under it,
for the exact figures and for screen readers. Colours are presentation attributes (a page's
stylesheet may restyle them); text takes the page's font.

Words: a *category* is one bar (e.g. a bid size); a *series* is one colour in each bar (e.g.
made, set); a *band* is the shaded range around a line (e.g. ±2 standard deviations).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from django.utils.safestring import SafeString, mark_safe

WIDTH = 360
FONT = 15  # label size in viewBox units
SMALL = 14  # tick labels and the legend
CHAR = 0.58  # average glyph width as a share of the font size (for laying out labels)
INK = "#1c2330"
MUTED = "#5b6577"
GRID = "#d8dde6"
LINE = "#0b6e4f"


@dataclass(frozen=True)
class BarSeries:
    """One colour of a stacked bar chart: a value per category (counts, so never negative)."""

    name: str
    values: Sequence[float]
    colour: str


@dataclass(frozen=True)
class LinePoint:
    """One point of a line chart, in order. ``low``/``high``: the band around it (optional);
    ``note``: extra words for the point's tooltip."""

    label: str
    value: float
    low: float | None = None
    high: float | None = None
    note: str = ""


def number(value: float) -> str:
    """A figure for a label: whole numbers without a decimal point, others to one place."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}"


def nice_ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) from at or below ``low`` to
    at or above ``high``, about ``count`` of them (``whole``: steps of at least 1, for counts).
    A range too narrow to draw (``low == high``, or a millionth of the values) gets a range
    around it."""
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError("chart values must be finite numbers")
    if high < low:
        low, high = high, low
    if high - low <= max(abs(low), abs(high), 1e-3) * 1e-6:
        pad = max(abs(high) * 0.1, 1.0)
        low, high = low - pad, high + pad
    raw = (high - low) / max(count, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(f * magnitude for f in (1, 2, 5, 10) if f * magnitude >= raw)
    if whole:
        step = max(step, 1)
    first, last = math.floor(low / step), math.ceil(high / step)
    digits = max(0, -math.floor(math.log10(step))) + 1
    ticks = [round((first + k) * step, digits) for k in range(last - first + 1)]
    if ticks[0] > low:  # a value too small for the division above to see
        ticks.insert(0, round(ticks[0] - step, digits))
    if ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, digits))
    return ticks


def _text_width(text: str, size: float = FONT) -> float:
    return len(text) * size * CHAR


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _open(title: str, width: float, height: float, kind: str) -> list[str]:
    label = escape(title)
    return [
        f'<svg class="chart chart-{kind}" viewBox="0 0 {number(width)} {number(height)}" '
        f'role="img" aria-label="{label}" preserveAspectRatio="xMidYMid meet" '
        f'font-size="{FONT}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{label}</title>",
    ]


def _empty(title: str, message: str, kind: str) -> SafeString:
    parts = _open(title, WIDTH, 60, kind)
    parts.append(f'<text x="{WIDTH / 2:g}" y="34" text-anchor="middle" fill="{MUTED}">'
                 f"{escape(message)}</text></svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every piece above is escaped


def _legend(series: Sequence[BarSeries], top: float) -> tuple[list[str], float]:
    """Coloured squares with the series' names, wrapping onto more lines; returns the markup
    and the height it takes."""
    parts, x, y = [], 0.0, top
    for item in series:
        name = _shorten(item.name, 28)
        width = 18 + _text_width(name, SMALL) + 14
        if x > 0 and x + width > WIDTH:
            x, y = 0.0, y + 20
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="13" height="13" rx="2" '
            f'fill="{escape(item.colour)}"/>'
            f'<text x="{x + 18:.1f}" y="{y + 11.5:.1f}" font-size="{SMALL}" fill="{INK}">'
            f"{escape(name)}</text>"
        )
        x += width
    return parts, (y - top) + 20 + 8 if series else 0.0


def bar_chart(
    *, title: str, categories: Sequence[str], series: Sequence[BarSeries], unit: str = "",
    empty: str = "Nothing to show yet.",
) -> SafeString:
    """Horizontal stacked bars, one per category (read top to bottom), each split by series,
    with the bar's total at its end. Horizontal so a phone never squeezes the category labels:
    more categories make the chart taller, not narrower. ``unit`` names what is counted (it goes
    into the tooltips: "55–59 · made: 3 bids")."""
    for item in series:
        if len(item.values) != len(categories):
            raise ValueError(f"series {item.name!r} has {len(item.values)} values for "
                             f"{len(categories)} categories")
        if any(not math.isfinite(v) or v < 0 for v in item.values):
            raise ValueError(f"series {item.name!r}: bar values are counts (0 or more)")
    totals = [sum(item.values[i] for item in series) for i in range(len(categories))]
    if not categories or not series or not any(totals):
        return _empty(title, empty, "bar")

    labels = [_shorten(c, 18) for c in categories]
    label_width = min(max(_text_width(label) for label in labels) + 10, 150)
    total_width = max(_text_width(number(t)) for t in totals) + 10
    left, right = label_width, WIDTH - total_width
    legend, legend_height = _legend(series, 0)
    row, bar = 30, 20
    top = legend_height
    plot_height = row * len(categories)
    height = top + plot_height + 24
    ticks = nice_ticks(0, max(totals), 4, whole=True)
    scale_max = ticks[-1]

    def x(value: float) -> float:
        return left + (right - left) * value / scale_max

    parts = _open(title, WIDTH, height, "bar")
    parts += legend
    parts.append('<g class="chart-grid">')
    for tick in ticks:
        parts.append(
            f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="{top:.1f}" '
            f'y2="{top + plot_height:.1f}" stroke="{GRID}"/>'
            f'<text x="{x(tick):.1f}" y="{top + plot_height + 17:.1f}" text-anchor="middle" '
            f'font-size="{SMALL}" fill="{MUTED}">{number(tick)}</text>'
        )
    parts.append("</g>")
    what = f" {unit}" if unit else ""
    for i, (category, label) in enumerate(zip(categories, labels, strict=True)):
        y = top + i * row + (row - bar) / 2
        parts.append(f'<g class="bar"><text x="{left - 8:.1f}" y="{y + bar / 2:.1f}" '
                     f'text-anchor="end" dominant-baseline="central" fill="{INK}">'
                     f"{escape(label)}</text>")
        start = 0.0
        for item in series:
            value = item.values[i]
            if value:
                parts.append(
                    f'<rect x="{x(start):.1f}" y="{y:.1f}" width="{x(start + value) - x(start):.1f}" '
                    f'height="{bar}" fill="{escape(item.colour)}"><title>'
                    f"{escape(category)} · {escape(item.name)}: {number(value)}{escape(what)}"
                    "</title></rect>"
                )
            start += value
        parts.append(f'<text x="{x(totals[i]) + 5:.1f}" y="{y + bar / 2:.1f}" '
                     f'dominant-baseline="central" font-weight="600" fill="{INK}">'
                     f"{number(totals[i])}</text></g>")
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every piece above is escaped


def line_chart(
    *, title: str, points: Sequence[LinePoint], band_label: str = "",
    empty: str = "Nothing to show yet.", height: int = 220,
) -> SafeString:
    """A line through the points in order (evenly spaced: one point per event or game), with
    the shaded band between each point's ``low`` and ``high`` where given (``band_label`` says
    what it means, in the chart's title). One point is a dot in the middle; no points, a
    sentence."""
    if not points:
        return _empty(title, empty, "line")
    values = [p.value for p in points]
    lows = [p.value if p.low is None else p.low for p in points]
    highs = [p.value if p.high is None else p.high for p in points]
    if any(not math.isfinite(v) for v in (*values, *lows, *highs)):
        raise ValueError("chart values must be finite numbers")
    has_band = any(p.low is not None or p.high is not None for p in points)
    ticks = nice_ticks(min(*values, *lows), max(*values, *highs), 4)
    low, high = ticks[0], ticks[-1]
    tick_labels = [number(t) for t in ticks]
    left = max(_text_width(t, SMALL) for t in tick_labels) + 10
    right, top, bottom = WIDTH - 14, 10, height - 28
    count = len(points)

    def x(i: int) -> float:
        return (left + right) / 2 if count == 1 else left + (right - left) * i / (count - 1)

    def y(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    full_title = f"{title} ({band_label})" if has_band and band_label else title
    parts = _open(full_title, WIDTH, height, "line")
    parts.append('<g class="chart-grid">')
    for tick, text in zip(ticks, tick_labels, strict=True):
        colour = MUTED if tick == 0 and low < 0 < high else GRID
        parts.append(
            f'<line x1="{left:.1f}" x2="{right:.1f}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="{colour}"/><text x="{left - 6:.1f}" y="{y(tick):.1f}" text-anchor="end" '
            f'dominant-baseline="central" font-size="{SMALL}" fill="{MUTED}">{text}</text>'
        )
    # x labels: the first and the last point (and the middle one when there is room)
    shown = [0] if count == 1 else [0, count - 1]
    if count >= 5:
        shown.insert(1, count // 2)
    for i in shown:
        middle = count == 1 or 0 < i < count - 1
        anchor = "middle" if middle else "start" if i == 0 else "end"
        label = _shorten(points[i].label, 14)
        parts.append(f'<text x="{x(i):.1f}" y="{bottom + 19:.1f}" text-anchor="{anchor}" '
                     f'font-size="{SMALL}" fill="{MUTED}">{escape(label)}</text>')
    parts.append("</g>")
    if has_band:
        if count == 1:
            parts.append(f'<line class="band" x1="{x(0):.1f}" x2="{x(0):.1f}" '
                         f'y1="{y(highs[0]):.1f}" y2="{y(lows[0]):.1f}" stroke="{LINE}" '
                         'stroke-opacity="0.3" stroke-width="10"/>')
        else:
            outline = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs)]
            outline += [f"{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lows)))]
            parts.append(f'<polygon class="band" points="{" ".join(outline)}" fill="{LINE}" '
                         'fill-opacity="0.15" stroke="none"/>')
    if count > 1:
        line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<polyline class="line" points="{line}" fill="none" stroke="{LINE}" '
                     'stroke-width="2.5" stroke-linejoin="round"/>')
    radius = 3.5 if count <= 60 else 2
    for i, point in enumerate(points):
        words = f"{point.label}: {number(point.value)}"
        if point.low is not None or point.high is not None:
            words += f" ({number(lows[i])} to {number(highs[i])})"
        if point.note:
            words += f" · {point.note}"
        parts.append(f'<circle cx="{x(i):.1f}" cy="{y(point.value):.1f}" r="{radius}" '
                     f'fill="{LINE}"><title>{escape(words)}</title></circle>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every piece above is escaped


# --- progress: cumulative lines of several series, e.g. the leaders' points round by round ------
SERIES_COLOURS = ["#0b6e4f", "#c2410c", "#1d4ed8", "#a21caf", "#b91c1c", "#0e7490", "#4d7c0f",
                  "#7c2d12", "#6d28d9", "#be185d"]


@dataclass(frozen=True)
class ProgressLine:
    """One line of a progress chart, in ``viewBox`` units. Series whose values coincide share
    a line (``name`` joins the first two names, "+N" the rest)."""

    name: str
    colour: str
    points: str  # the polyline's points
    last_x: float
    last_y: float
    total: float
    label_y: float  # the name beside the line's end, moved apart from its neighbours


@dataclass(frozen=True)
class ProgressLayout:
    """Where everything of a progress chart goes (pure coordinates; :func:`progress_chart`
    draws it)."""

    width: int
    height: int
    steps: list[tuple[str, float]]  # (label, x) of each step after the start
    y_ticks: list[tuple[float, float]]  # (value, y)
    zero_y: float
    lines: list[ProgressLine]
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int


NAMES_ROOM = 200  # right of a progress chart's plot: the names beside the lines' ends


def progress_layout(
    series: Sequence[tuple[str, Sequence[float]]], *, steps: Sequence[str], width: int = 640,
    height: int = 300, tick_size: float = SMALL, names: bool = True,
) -> ProgressLayout | None:
    """Lay out one line per ``(name, values)`` series: ``values[0]`` at the start, then one
    value after each of ``steps`` (their labels, e.g. "R1"). Lines end in order of their last
    value, highest first, each with its name beside its end, 14 units at least below the one
    above (``names=False``: no names, so no room kept for them; a legend names the lines).
    The plot starts right of the widest tick label at ``tick_size``. None when there are no
    steps or no series."""
    if not steps or not series:
        return None
    for name, values in series:
        if len(values) != len(steps) + 1:
            raise ValueError(f"series {name!r} has {len(values)} values for {len(steps)} steps "
                             "and the start")
        if any(not math.isfinite(v) for v in values):
            raise ValueError("chart values must be finite numbers")
    count = len(steps)
    ticks = nice_ticks(min(0, *(v for _, vs in series for v in vs)),
                       max(1, *(v for _, vs in series for v in vs)), 5, whole=True)
    low, high = ticks[0], ticks[-1]
    widest = max(_text_width(number(t), tick_size) for t in ticks)
    left = max(48, math.ceil(widest) + 12)
    right, top, bottom = width - (NAMES_ROOM if names else 16), 12, height - 28

    def x(i: int) -> float:
        return round(left + (right - left) * i / count, 1)

    def y(v: float) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    merged: dict[tuple[float, ...], list[str]] = {}
    for name, values in series:
        merged.setdefault(tuple(values), []).append(name)
    ends = sorted(merged.items(), key=lambda item: -item[0][-1])
    label_ys: list[float] = []
    for values, _ in ends:
        wanted = y(values[-1])
        label_ys.append(max(wanted, label_ys[-1] + 14) if label_ys else wanted)
    lines = []
    for i, ((values, sharing), label_y) in enumerate(zip(ends, label_ys, strict=True)):
        lines.append(ProgressLine(
            name=" & ".join(sharing[:2]) + (f" +{len(sharing) - 2}" if len(sharing) > 2 else ""),
            colour=SERIES_COLOURS[i % len(SERIES_COLOURS)],
            points=" ".join(f"{x(k)},{y(v)}" for k, v in enumerate(values)),
            last_x=x(count), last_y=y(values[-1]), total=values[-1], label_y=label_y,
        ))
    return ProgressLayout(
        width=width, height=height, steps=[(label, x(k)) for k, label in enumerate(steps, 1)],
        y_ticks=[(t, y(t)) for t in ticks], zero_y=y(0), lines=lines, plot_left=left,
        plot_right=right, plot_top=top, plot_bottom=bottom,
    )


def progress_chart(
    *, title: str, series: Sequence[tuple[str, Sequence[float]]], steps: Sequence[str],
    width: int = 640, height: int = 300, empty: str = "Nothing to show yet.",
    tick_size: float = SMALL, names: bool = True,
) -> SafeString:
    """Cumulative lines, one per series (:func:`progress_layout`), each named at its end
    (unless ``names`` is false: a wall names them in a legend beside the chart), its total in
    its tooltip. Wider than the other charts (``width``, 640 by default): the names beside the
    lines' ends need the room, and a wall screen shows it large, with its tick labels at
    ``tick_size``. Its parts carry the classes ``grid``, ``zero`` and ``series`` for a page's
    stylesheet."""
    layout = progress_layout(series, steps=steps, width=width, height=height,
                             tick_size=tick_size, names=names)
    if layout is None:
        return _empty(title, empty, "progress")
    parts = _open(title, layout.width, layout.height, "progress")
    parts.append('<g class="grid">')
    for value, y in layout.y_ticks:
        parts.append(
            f'<line x1="{layout.plot_left}" x2="{layout.plot_right}" y1="{y}" y2="{y}" '
            f'stroke="{GRID}"/><text x="{layout.plot_left - 6}" y="{y}" text-anchor="end" '
            f'dominant-baseline="middle" font-size="{tick_size:g}" fill="{MUTED}">'
            f"{number(value)}</text>")
    parts.append(f'<line class="zero" x1="{layout.plot_left}" x2="{layout.plot_right}" '
                 f'y1="{layout.zero_y}" y2="{layout.zero_y}" stroke="{MUTED}"/>')
    for label, x in layout.steps:
        parts.append(f'<text x="{x}" y="{layout.plot_bottom + 18}" text-anchor="middle" '
                     f'font-size="{SMALL}" fill="{MUTED}">{escape(label)}</text>')
    parts.append("</g>")
    for line in layout.lines:
        colour = escape(line.colour)
        parts.append(
            f'<g class="series"><polyline fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round" points="{line.points}"/>'
            f'<circle cx="{line.last_x}" cy="{line.last_y}" r="3.5" fill="{colour}"/>'
            + (f'<text x="{line.last_x + 8}" y="{line.label_y}" fill="{colour}" '
               f'dominant-baseline="middle">{escape(_shorten(line.name, 26))}</text>'
               if names else "")
            + f"<title>{escape(line.name)}: {number(line.total)}</title></g>")
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every piece above is escaped
