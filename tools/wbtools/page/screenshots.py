"""Screenshots of a report page's first view at a desktop and a phone width."""

import os

from . import chromium

# (file name, width, height, mobile): a common laptop viewport and a common phone's.
VIEWS = (("report-desktop.png", 1366, 900, False), ("report-phone.png", 390, 844, True))


def take(page, out_dir, browser=None):
    """Write one PNG per view into out_dir; return their paths. Raises OSError when the page
    logs a console error (a page that fails is not photographed as if it worked)."""
    paths = []
    own = browser is None
    browser = browser or chromium.Browser()
    if own:
        browser.__enter__()
    try:
        for name, width, height, mobile in VIEWS:
            browser.open(page, width, height, mobile)
            browser.drain()
            if browser.console_errors:
                raise OSError("console errors: " + "; ".join(browser.console_errors))
            paths.append(browser.screenshot(os.path.join(out_dir, name)))
    finally:
        if own:
            browser.__exit__(None, None, None)
    return paths
