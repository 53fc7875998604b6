"""Assemble report.html: the template, its style, Chart.js, the page's scripts and the data,
all inlined, so the one file works opened from disk with no network."""

import base64
import gzip
import json
import os

from . import chartlib

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = ("model.js", "format.js")  # shared by every page; each page adds its own app
# The report page's own scripts, in the order they depend on each other.
REPORT_APP = ("dom.js", "holds.js", "payload.js", "as_formats.js",
              "evidence.js", "sections.js", "app.js")


def _read(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as handle:
        return handle.read()


def script_json(data):
    """JSON safe inside a <script> element: no "</" can close it early."""
    return json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")


def gzip_text(text):
    """text as base64 of its gzip, for a page that unpacks it (dom.js's wbDom.unpack). No
    timestamp in the gzip, so the same text gives the same page."""
    return base64.b64encode(gzip.compress(text.encode("utf-8"), 9, mtime=0)).decode("ascii")


def gzip_json(data):
    """The data as base64 of its gzipped JSON (wbDom.data): a whole-suite run's 7.2 MB of
    JSON takes a fifth of the room."""
    return gzip_text(json.dumps(data, separators=(",", ":"), allow_nan=False))


def render(data, title, app=REPORT_APP, template="template.html"):
    """The page's HTML text. app: the page's own script, or a tuple of them. The template
    takes the data as JSON ({data}) or gzipped ({data_gzip}), and may take its "appendix"
    apart, gzipped ({appendix_gzip})."""
    app = (app,) if isinstance(app, str) else tuple(app)
    page = _read(template)
    parts = {"{title}": title, "{result}": data.get("result", ""),
             "{estimator}": data.get("estimator", "cpu_time medians"), "{css}": _read("page.css"),
             "{chartjs}": chartlib.source().replace("</script", "<\\/script"),
             "{scripts}": "\n".join(_read(name) for name in SCRIPTS + app)}
    if "{appendix_gzip}" in page:
        # The "All tables" appendix apart, unpacked when its section is opened: unpacking
        # its 3.9 MB of table HTML (a whole-suite run's) held up every load.
        parts["{appendix_gzip}"] = gzip_text(data.get("appendix", ""))
        data = {key: value for key, value in data.items() if key != "appendix"}
    if "{data_gzip}" in page:
        parts["{data_gzip}"] = gzip_json(data)
    else:
        parts["{data}"] = script_json(data)
    # One pass over the placeholders, in order, so text inside a replacement is never
    # taken for a placeholder.
    out, rest = [], page
    while True:
        found = [(rest.find(key), key) for key in parts if rest.find(key) >= 0]
        if not found:
            out.append(rest)
            break
        at, key = min(found)
        out.append(rest[:at])
        out.append(_escape(parts[key]) if key in ("{title}", "{result}", "{estimator}")
                   else parts[key])
        rest = rest[at + len(key):]
    return "".join(out)


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write(path, data, title, app=REPORT_APP, template="template.html"):
    """Write the page atomically; return its path."""
    text = render(data, title, app, template)
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(path + ".tmp", path)
    return path
