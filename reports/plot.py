"""An inline SVG line plot of structure usage (%) over a trace, against the structures' thresholds.

Pure (reports/README.md): records in, text out; every number is formatted with a
fixed precision so the same record always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

#: Structure colours (colour-blind-safe Okabe-Ito palette), in structure order.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 150, 24, 40


def _f(value: float) -> str:
    """A coordinate with one decimal, no trailing zeros (stable output)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _x(step: float, steps: int) -> float:
    span = max(steps - 1, 1)
    return LEFT + (WIDTH - LEFT - RIGHT) * step / span


def _y(pct: float) -> float:
    pct = min(max(pct, 0.0), 100.0)
    return TOP + (HEIGHT - TOP - BOTTOM) * (100.0 - pct) / 100.0


def _axes(steps: int) -> list[str]:
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, _y(0), _y(100)
    out = [f'<rect x="{x0}" y="{_f(y1)}" width="{x1 - x0}" height="{_f(y0 - y1)}" fill="#fff" stroke="#999"/>']
    for pct in (0, 25, 50, 75, 100):
        y = _f(_y(pct))
        out.append(f'<line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="#eee"/>')
        out.append(f'<text x="{x0 - 4}" y="{y}" text-anchor="end" dominant-baseline="middle">{pct}%</text>')
    ticks = sorted({0, steps - 1, *range(0, steps, max(1, steps // 8 or 1))}) if steps else [0]
    for step in ticks:
        x = _f(_x(step, steps))
        out.append(f'<text x="{x}" y="{_f(y0 + 14)}" text-anchor="middle">{step}</text>')
    out.append(f'<text x="{x1}" y="{HEIGHT - 6}" text-anchor="end" dominant-baseline="middle">step →</text>')
    return out


def _threshold_labels(marks: list[tuple[float, str, str]]) -> list[str]:
    """Labels at the right of the plot, nudged apart so equal thresholds stay readable."""
    out, last_y = [], -1000.0
    for pct, label, colour in sorted(marks, key=lambda m: (-m[0], m[1])):
        y = max(_y(pct), last_y + 11)
        last_y = y
        out.append(
            f'<text x="{WIDTH - RIGHT + 6}" y="{_f(y)}" dominant-baseline="middle" fill="{colour}">'
            f"{escape(label)}</text>"
        )
    return out


def render_usage_svg(
    series: Mapping[str, Sequence[float]],
    thresholds: Mapping[str, Mapping[str, float]],
    step: int | None = None,
    title: str = "structure usage",
    mark: str = "diverges",
) -> str:
    """An ``<svg>`` element: one polyline per structure, a dashed line per threshold, the diverging step marked.

    ``series`` maps a structure to its usage (percent) after each step; ``thresholds`` maps a
    structure to ``{name: percent}``; ``step`` is the diverging step (a vertical red line).
    """
    names = sorted(set(series) | set(thresholds))
    colour = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}
    steps = max((len(v) for v in series.values()), default=0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="usage" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" font-size="10" '
        'font-family="sans-serif">',
        f"<title>{escape(title)}</title>",
        *_axes(steps),
    ]
    marks = []
    for name in names:
        for threshold, pct in sorted((thresholds.get(name) or {}).items(), key=lambda kv: (kv[1], kv[0])):
            y = _f(_y(pct))
            parts.append(
                f'<line x1="{LEFT}" y1="{y}" x2="{WIDTH - RIGHT}" y2="{y}" stroke="{colour[name]}" '
                f'stroke-dasharray="5 3" stroke-opacity="0.8"><title>{escape(name)} {escape(threshold)} '
                f"{_f(pct)}%</title></line>"
            )
            marks.append((pct, f"{name} {threshold} {_f(pct)}%", colour[name]))
    for name in names:
        values = list(series.get(name) or [])
        if not values:
            continue
        points = " ".join(f"{_f(_x(i, steps))},{_f(_y(v))}" for i, v in enumerate(values))
        parts.append(
            f'<polyline fill="none" stroke="{colour[name]}" stroke-width="2" points="{points}">'
            f"<title>{escape(name)}</title></polyline>"
        )
        parts += [
            f'<circle cx="{_f(_x(i, steps))}" cy="{_f(_y(v))}" r="2.5" fill="{colour[name]}"/>'
            for i, v in enumerate(values)
        ]
    if step is not None and steps:
        x = _f(_x(min(step, steps - 1), steps))
        parts.append(
            f'<line x1="{x}" y1="{_f(_y(100))}" x2="{x}" y2="{_f(_y(0))}" stroke="#c00" '
            'stroke-width="1.5" stroke-dasharray="2 2"/>'
        )
        left_half = 2 * min(step, steps - 1) <= steps - 1
        anchor, dx = ("start", 4) if left_half else ("end", -4)
        parts.append(
            f'<text x="{_f(float(x) + dx)}" y="{TOP - 8}" text-anchor="{anchor}" fill="#c00">'
            f"step {step} {escape(mark)}</text>"
        )
    parts += _threshold_labels(marks)
    legend_y = HEIGHT - 6
    for i, name in enumerate(names):
        x = LEFT + i * 90
        parts.append(f'<rect x="{x}" y="{legend_y - 5}" width="10" height="3" fill="{colour[name]}"/>')
        parts.append(f'<text x="{x + 14}" y="{legend_y - 3}" dominant-baseline="middle">{escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
