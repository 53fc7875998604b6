"""A small SVG writer for the report's charts: shapes, text, linear/log axes and a legend.

The charts used matplotlib, whose Debian package conflicts with libboost-json1.81-dev; two
chart kinds need only this much. Coordinates are pixels, y growing downwards as in SVG.
"""

import math
from xml.sax.saxutils import escape, quoteattr

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
# Average glyph width of FONT as a fraction of its size: enough to lay out labels, not to
# measure them exactly (an SVG writer cannot know the viewer's font).
CHAR_WIDTH = 0.6
_SUPERSCRIPT = str.maketrans("-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076"
                             "\u2077\u2078\u2079")


_SHIFT = {"middle": "0.35em", "top": "0.8em", "baseline": None}


def text_width(text, size):
    return len(text) * size * CHAR_WIDTH


def _number(value):
    return f"{value:.2f}".rstrip("0").rstrip(".")


class Document:
    """Elements appended in drawing order (later ones on top)."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.elements = [f'<rect width="{_number(width)}" height="{_number(height)}" '
                         'fill="white"/>']

    def _add(self, tag, attributes, body=None):
        attrs = " ".join(f"{key.replace('_', '-')}={quoteattr(str(value))}"
                         for key, value in attributes.items() if value is not None)
        self.elements.append(f"<{tag} {attrs}/>" if body is None else
                             f"<{tag} {attrs}>{escape(body)}</{tag}>")

    def rect(self, x, y, width, height, fill, title=None):
        self._add("rect", {"x": _number(x), "y": _number(y), "width": _number(width),
                           "height": _number(height), "fill": fill})
        if title:  # a hover tooltip with the exact value: replace the self-closed tag
            self.elements[-1] = self.elements[-1][:-2] + f"><title>{escape(title)}</title></rect>"

    def line(self, x1, y1, x2, y2, stroke="black", width=1, dash=None, opacity=None):
        self._add("line", {"x1": _number(x1), "y1": _number(y1), "x2": _number(x2),
                           "y2": _number(y2), "stroke": stroke, "stroke_width": width,
                           "stroke_dasharray": dash, "stroke_opacity": opacity})

    def polyline(self, points, stroke, width=1.5, dash=None):
        self._add("polyline", {"points": " ".join(f"{_number(x)},{_number(y)}" for x, y in points),
                               "fill": "none", "stroke": stroke, "stroke_width": width,
                               "stroke_dasharray": dash, "stroke_linejoin": "round"})

    def circle(self, x, y, radius, fill):
        self._add("circle", {"cx": _number(x), "cy": _number(y), "r": radius, "fill": fill})

    def text(self, x, y, text, size=10, anchor="start", color="black", rotate=None,
             align="middle"):
        """align: where y is on the text, "middle", "top" or "baseline". Done with dy, as
        dominant-baseline is not honoured by every viewer."""
        transform = f"rotate({rotate} {_number(x)} {_number(y)})" if rotate else None
        self._add("text", {"x": _number(x), "y": _number(y), "dy": _SHIFT[align],
                           "font_size": size, "text_anchor": anchor, "fill": color,
                           "transform": transform}, text)

    def render(self):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_number(self.width)}" '
                f'height="{_number(self.height)}" viewBox="0 0 {_number(self.width)} '
                f'{_number(self.height)}" font-family={quoteattr(FONT)}>\n' +
                "\n".join(self.elements) + "\n</svg>\n")

    def write(self, path):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self.render())


class LinearScale:
    """Data [low, high] onto pixels [start, end]; ticks at 1, 2 or 5 times a power of ten."""

    def __init__(self, low, high, start, end):
        self.low, self.high = low, high if high > low else low + 1
        self.start, self.end = start, end

    def __call__(self, value):
        return self.start + (value - self.low) / (self.high - self.low) * (self.end - self.start)

    def ticks(self, count=6):
        raw = (self.high - self.low) / count
        power = 10 ** math.floor(math.log10(raw))
        step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
        first = math.ceil(self.low / step - 1e-9)
        values = [i * step for i in range(first, int(math.floor(self.high / step + 1e-9)) + 1)]
        return [(value, f"{value:g}") for value in values]


class LogScale:
    """Log10 of data [low, high] onto pixels [start, end]; ticks at the powers of ten."""

    def __init__(self, low, high, start, end):
        self.low, self.high = math.log10(low), math.log10(high)
        self.start, self.end = start, end

    def __call__(self, value):
        return self.start + ((math.log10(value) - self.low) / (self.high - self.low) *
                             (self.end - self.start))

    def ticks(self):
        return [(10.0 ** k, "10" + str(k).translate(_SUPERSCRIPT))
                for k in range(math.ceil(self.low - 1e-9), math.floor(self.high + 1e-9) + 1)]


def decades(low, high):
    """The powers of ten around [low, high] (low > 0): a log axis's range."""
    return 10.0 ** math.floor(math.log10(low)), 10.0 ** math.ceil(math.log10(high))


def axes(doc, x_scale, y_scale, x_label=None, y_label=None, size=9, grid=False, y_ticks=True):
    """The plot frame with ticks and tick labels on the bottom (x) and left (y) edges (none on
    the left when y_ticks is false: bar charts label their bars). grid: light lines at the
    ticks."""
    left, right = sorted((x_scale.start, x_scale.end))
    top, bottom = sorted((y_scale.start, y_scale.end))
    for value, label in x_scale.ticks():
        x = x_scale(value)
        if grid:
            doc.line(x, top, x, bottom, "#000", 0.5, opacity=0.15)
        doc.line(x, bottom, x, bottom + 4)
        doc.text(x, bottom + 6, label, size, "middle", align="top")
    for value, label in y_scale.ticks() if y_ticks else ():
        y = y_scale(value)
        if grid:
            doc.line(left, y, right, y, "#000", 0.5, opacity=0.15)
        doc.line(left - 4, y, left, y)
        doc.text(left - 6, y, label, size, "end")
    doc._add("rect", {"x": _number(left), "y": _number(top), "width": _number(right - left),
                      "height": _number(bottom - top), "fill": "none", "stroke": "black"})
    if x_label:
        doc.text((left + right) / 2, bottom + 2.4 * size + 6, x_label, size + 1, "middle")
    if y_label:
        doc.text(left - 4.5 * size, (top + bottom) / 2, y_label, size + 1, "middle", rotate=-90)


def legend(doc, x, y, entries, size=9, columns=1, column_width=None):
    """entries: (label, color, style) with style "bar" (a swatch) or "line"; rows of
    `columns` entries from (x, y) down. Returns the y below the legend."""
    column_width = column_width or max(text_width(label, size) for label, _, _ in entries) + 34
    row_height = size * 1.7
    for index, (label, color, style) in enumerate(entries):
        left = x + (index % columns) * column_width
        middle = y + (index // columns) * row_height + row_height / 2
        if style == "bar":
            doc.rect(left, middle - size / 2, 20, size, color)
        else:
            doc.line(left, middle, left + 20, middle, color, 2)
        doc.text(left + 26, middle, label, size)
    return y + -(-len(entries) // columns) * row_height
