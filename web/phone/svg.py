"""The phone page's two pictures drawn as inline SVG: the table's QR code and the share price's chart."""

import functools
from typing import Any

from markupsafe import Markup, escape


def qr_svg(url: str) -> Markup:
    """The address as a QR code, inline SVG (segno)."""
    return Markup(_qr_text(url))


@functools.lru_cache(maxsize=16)
def _qr_text(url: str) -> str:
    # the same few addresses all game long: encoding one costs more than the rest of the table view
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", border=2))


def price_chart(points: list[Any], width: int = 320, height: int = 120) -> Markup:
    """The share price over the game as an inline SVG line (x: the event's number, y: the price)."""
    pts = [(int(s), int(p)) for s, p in points]
    if not pts:
        return Markup("")
    if len(pts) == 1:
        pts = pts + [(pts[0][0] + 1, pts[0][1])]
    x0, x1 = pts[0][0], max(pts[-1][0], pts[0][0] + 1)
    lo, hi = min(p for _, p in pts), max(p for _, p in pts)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    pad = 18

    def xy(s: int, p: int) -> str:
        x = pad + (s - x0) * (width - 2 * pad) / (x1 - x0)
        y = height - pad - (p - lo) * (height - 2 * pad) / (hi - lo)
        return f"{x:.1f},{y:.1f}"

    # a step line: the price holds until the event that changes it
    steps = [xy(*pts[0])]
    for (_, p), (s2, p2) in zip(pts, pts[1:]):
        steps.append(xy(s2, p))
        steps.append(xy(s2, p2))
    line = " ".join(steps)
    return Markup(
        f'<svg class="chart" id="price-chart" viewBox="0 0 {width} {height}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg"><polyline fill="none" stroke="currentColor" stroke-width="2" '
        f'points="{line}"/><text x="2" y="12" font-size="10">{hi}</text>'
        f'<text x="2" y="{height - 4}" font-size="10">{lo}</text>'
        f'<text x="{width - 40}" y="{height - 4}" font-size="10">#{escape(str(x1))}</text></svg>'
    )
