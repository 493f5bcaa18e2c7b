"""Server-drawn SVG charts (common.charts): well-formed, accessible, escaped, to scale, and
sensible with no data or a single point."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.charts import (
    BarSeries,
    LinePoint,
    bar_chart,
    line_chart,
    nice_ticks,
    number,
    progress_chart,
    progress_layout,
)

SVG = "{http://www.w3.org/2000/svg}"
NASTY = "<script>alert('x')</script> & \"Bob\""


def parse(markup: str) -> ET.Element:
    """The chart as XML: fails on anything unescaped or unbalanced."""
    return ET.fromstring(str(markup))


def accessible(root: ET.Element, title: str) -> None:
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("aria-label") == title
    assert re.fullmatch(r"0 0 \d+ \d+(\.\d+)?", root.get("viewBox", ""))
    assert root.get("width") is None and root.get("height") is None  # scales to its box
    first = list(root)[0]
    assert first.tag == f"{SVG}title" and first.text == title


def bars() -> list[BarSeries]:
    return [BarSeries("Made", [3, 1, 0], "#0b6e4f"), BarSeries("Set", [1, 2, 4], "#c2410c")]


def test_bar_chart_is_accessible_and_to_scale() -> None:
    markup = bar_chart(title="Bids by size", categories=["50–54", "55–59", "60"], series=bars(),
                       unit="bids")
    root = parse(markup)
    accessible(root, "Bids by size")
    rects = [r for r in root.iter(f"{SVG}rect") if r.find(f"{SVG}title") is not None]
    widths = {r.find(f"{SVG}title").text: float(r.get("width")) for r in rects}
    assert set(widths) == {"50–54 · Made: 3 bids", "50–54 · Set: 1 bids", "55–59 · Made: 1 bids",
                           "55–59 · Set: 2 bids", "60 · Set: 4 bids"}  # no bar for a zero
    unit = widths["60 · Set: 4 bids"] / 4
    for label, width in widths.items():
        assert width == pytest.approx(unit * int(label.split(": ")[1].split()[0]), abs=0.15)
    # each bar ends with its total; stacked segments touch
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert {"4", "3"} <= set(texts) and "Made" in texts and "Set" in texts
    made, set_ = (r for r in rects if r.find(f"{SVG}title").text.startswith("50–54"))
    assert float(made.get("x")) + float(made.get("width")) == pytest.approx(
        float(set_.get("x")), abs=0.15)
    # the categories go down the page: more of them make the chart taller, never narrower
    more = parse(bar_chart(title="t", categories=[str(i) for i in range(12)],
                           series=[BarSeries("n", list(range(12)), "#000")]))
    assert more.get("viewBox").split()[2] == root.get("viewBox").split()[2]
    assert float(more.get("viewBox").split()[3]) > float(root.get("viewBox").split()[3])


def test_line_chart_is_accessible_to_scale_and_draws_its_band() -> None:
    points = [LinePoint("5 Mar", 100, 80, 120), LinePoint("9 Apr", 150, 140, 160),
              LinePoint("14 May", 50)]
    root = parse(line_chart(title="Points per game", points=points, band_label="± 1 s.e."))
    accessible(root, "Points per game (± 1 s.e.)")
    circles = list(root.iter(f"{SVG}circle"))
    assert len(circles) == 3
    xs = [float(c.get("cx")) for c in circles]
    ys = [float(c.get("cy")) for c in circles]
    assert xs == sorted(xs) and xs[1] - xs[0] == pytest.approx(xs[2] - xs[1], abs=0.15)
    assert ys[1] < ys[0] < ys[2]  # higher values are drawn higher
    # equal value steps are equal distances
    assert ys[0] - ys[1] == pytest.approx(ys[2] - ys[0], abs=0.3)
    line = root.find(f".//{SVG}polyline")
    assert line is not None and len(line.get("points").split()) == 3
    band = root.find(f".//{SVG}polygon")
    assert band is not None and band.get("class") == "band"
    band_ys = [float(p.split(",")[1]) for p in band.get("points").split()]
    assert min(band_ys) < min(ys) and max(band_ys) == pytest.approx(ys[2], abs=0.15)
    titles = [c.find(f"{SVG}title").text for c in circles]
    assert titles[0] == "5 Mar: 100 (80 to 120)" and titles[2] == "14 May: 50"
    # without lows and highs there is no band and the title says nothing of one
    plain = parse(line_chart(title="Plain", points=[LinePoint("a", 1), LinePoint("b", 2)],
                             band_label="± 1 s.e."))
    assert plain.find(f".//{SVG}polygon") is None and plain.get("aria-label") == "Plain"


def test_labels_are_escaped_everywhere() -> None:
    markup = str(bar_chart(title=NASTY, categories=[NASTY], series=[BarSeries(NASTY, [2], "#000")],
                           unit=NASTY))
    markup += str(line_chart(title=NASTY, points=[LinePoint(NASTY, 1, note=NASTY),
                                                  LinePoint("b", 2)], band_label=NASTY))
    assert "<script>" not in markup and "&lt;script&gt;" in markup
    assert "alert('x')" not in markup and '"Bob"' not in markup
    for chart in markup.split("</svg>")[:-1]:
        root = parse(chart + "</svg>")
        assert NASTY in root.get("aria-label")  # the text, once unescaped, is the name given


def test_a_colour_cannot_break_out_of_its_attribute() -> None:
    markup = str(bar_chart(title="t", categories=["a"],
                           series=[BarSeries("n", [1], '#000" onload="alert(1)')]))
    parse(markup)
    assert 'onload="' not in markup


@pytest.mark.parametrize("chart", [
    lambda: bar_chart(title="Bids", categories=[], series=[]),
    lambda: bar_chart(title="Bids", categories=["50", "55"],
                      series=[BarSeries("Made", [0, 0], "#000")]),
    lambda: line_chart(title="Bids", points=[]),
])
def test_no_data_is_a_sentence_not_an_empty_box(chart) -> None:
    root = parse(chart())
    accessible(root, "Bids")
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts == ["Nothing to show yet."]
    assert root.find(f".//{SVG}rect") is None and root.find(f".//{SVG}circle") is None


def test_the_empty_sentence_can_be_chosen() -> None:
    root = parse(line_chart(title="t", points=[], empty="No games <yet>"))
    assert [t.text for t in root.iter(f"{SVG}text")] == ["No games <yet>"]


def test_a_single_point_is_a_dot_in_the_middle() -> None:
    root = parse(line_chart(title="One", points=[LinePoint("5 Mar", 120, 100, 140)]))
    circles = list(root.iter(f"{SVG}circle"))
    assert len(circles) == 1 and root.find(f".//{SVG}polyline") is None
    width = float(root.get("viewBox").split()[2])
    left = float(next(root.iter(f"{SVG}line")).get("x1"))
    assert float(circles[0].get("cx")) == pytest.approx((left + width - 14) / 2, abs=0.15)
    band = [ln for ln in root.iter(f"{SVG}line") if ln.get("class") == "band"]
    assert len(band) == 1  # its band is a bar through the dot
    # a single value still gets a y range around it
    flat = parse(line_chart(title="Flat", points=[LinePoint("a", 7)]))
    assert math.isfinite(float(next(flat.iter(f"{SVG}circle")).get("cy")))


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="values for 2 categories"):
        bar_chart(title="t", categories=["a", "b"], series=[BarSeries("n", [1], "#000")])
    with pytest.raises(ValueError, match="counts"):
        bar_chart(title="t", categories=["a"], series=[BarSeries("n", [-1], "#000")])
    with pytest.raises(ValueError, match="finite"):
        line_chart(title="t", points=[LinePoint("a", float("nan"))])


def test_many_points_are_drawn_smaller_and_labelled_sparsely() -> None:
    points = [LinePoint(f"game {i}", i % 7) for i in range(150)]
    root = parse(line_chart(title="Rating", points=points))
    radii = {c.get("r") for c in root.iter(f"{SVG}circle")}
    assert radii == {"2"}
    x_labels = [t.text for t in root.iter(f"{SVG}text") if t.text and t.text.startswith("game")]
    assert x_labels == ["game 0", "game 75", "game 149"]


@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6), st.integers(2, 8))
def test_nice_ticks_cover_the_range_in_round_equal_steps(a: float, b: float, count: int) -> None:
    low, high = min(a, b), max(a, b)
    ticks = nice_ticks(low, high, count)
    assert ticks[0] <= low and ticks[-1] >= high
    steps = [y - x for x, y in zip(ticks, ticks[1:], strict=False)]
    assert all(math.isclose(s, steps[0], rel_tol=1e-6) for s in steps)
    mantissa = steps[0] / 10 ** math.floor(math.log10(steps[0]))
    assert any(math.isclose(mantissa, m, rel_tol=1e-6) for m in (1, 2, 5, 10))
    assert len(ticks) <= 2 * count + 2


def test_whole_ticks_for_counts() -> None:
    assert nice_ticks(0, 1, 4, whole=True) == [0, 1]
    assert nice_ticks(0, 3, 4, whole=True) == [0, 1, 2, 3]
    assert nice_ticks(0, 9, 5) == [0, 2, 4, 6, 8, 10]


def test_progress_layout_merges_coinciding_lines_and_separates_labels() -> None:
    layout = progress_layout(
        [("Ann", [0, 300, 500]), ("Bob", [0, 300, 500]), ("Cy", [0, 250, 498]),
         ("Di", [0, -50, -50]), ("Eve", [0, 300, 500]), ("Flo", [0, 300, 500])],
        steps=["R1", "R2"])
    assert layout is not None
    assert [line.name for line in layout.lines] == ["Ann & Bob +2", "Cy", "Di"]
    assert [line.total for line in layout.lines] == [500, 498, -50]
    labels = [line.label_y for line in layout.lines]
    assert all(b - a >= 14 for a, b in zip(labels, labels[1:], strict=False))
    assert layout.lines[0].points.startswith(f"{float(layout.plot_left)},")  # the start: 0
    assert [label for label, _ in layout.steps] == ["R1", "R2"]
    assert [value for value, _ in layout.y_ticks] == [-200, 0, 200, 400, 600]  # steps of 200
    assert layout.lines[0].colour != layout.lines[1].colour


def test_progress_layout_keeps_room_left_for_its_widest_tick_label_at_its_size() -> None:
    """A tick label ends 6 units left of the plot: the plot starts far enough right that the
    widest one (e.g. "-1500" at a wall's 26 units) starts inside the drawing, not cut off."""
    series = [("Ann", [0, 900, 1500]), ("Bob", [0, -400, -1200])]
    for size in (14, 26, 40):
        layout = progress_layout(series, steps=["R1", "R2"], tick_size=size)
        assert layout is not None
        widest = max(len(number(value)) for value, _ in layout.y_ticks)
        # digits are at most 0.6 of the font size wide in the fonts pages use
        assert layout.plot_left - 6 - widest * size * 0.6 >= 0, (size, layout.plot_left)
    small = progress_layout([("A", [0, 5])], steps=["R1"])
    assert small is not None and small.plot_left == 48  # short labels: the usual margin
    named = progress_layout(series, steps=["R1"] * 2, tick_size=26)
    unnamed = progress_layout(series, steps=["R1"] * 2, tick_size=26, names=False)
    assert named is not None and unnamed is not None
    assert named.plot_right == 640 - 200 and unnamed.plot_right == 640 - 16


def test_progress_chart_without_names_leaves_them_to_a_legend() -> None:
    series = [("Ann", [0, 150]), ("Bob", [0, 90])]
    named = str(progress_chart(title="Points", series=series, steps=["R1"]))
    bare = str(progress_chart(title="Points", series=series, steps=["R1"], tick_size=26,
                              names=False))
    assert ">Ann</text>" in named and ">Ann</text>" not in bare
    assert "<title>Ann: 150</title>" in bare  # the tooltip still names the line
    assert 'font-size="26"' in bare and 'font-size="26"' not in named


def test_progress_chart_escapes_names_and_says_when_empty() -> None:
    svg = str(progress_chart(title="Points <so far>", series=[("<script>", [0, 5])],
                             steps=["R1"]))
    assert 'aria-label="Points &lt;so far&gt;"' in svg and "<script>" not in svg
    assert "&lt;script&gt;: 5</title>" in svg
    empty = str(progress_chart(title="Points", series=[], steps=[]))
    assert "Nothing to show yet." in empty and "<polyline" not in empty
    with pytest.raises(ValueError, match="values for 2 steps"):
        progress_layout([("A", [0, 1])], steps=["R1", "R2"])
