"""The chart library the page inlines: Chart.js from Debian's libjs-chart.js.

Chart.js draws every chart kind the page needs (stacked and floating bars, lines and points
on logarithmic axes, point markers) from one 200 KB file without dependencies, and Debian 12
ships it. docs/report.md says why it is preferred to libjs-vega and libjs-d3.
"""

import os

from ..cli import UserError

PACKAGE = "libjs-chart.js"
PATH = "/usr/share/javascript/chart.js/chart.min.js"


def source(path=PATH):
    """The library's text; UserError naming the package when it is not installed."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        raise UserError(f"{path} not found: the report page inlines Chart.js from the Debian "
                        f"package {PACKAGE} (apt-get install {PACKAGE}; tools/lib.sh installs "
                        "it)") from None


def available(path=PATH):
    return os.path.exists(path)
