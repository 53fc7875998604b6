"""The transfer model of a measured case, by the current code or by the code of a git revision.

The measured exchange is plain TCP: an 8-byte request, a response of the payload's size,
TCP_NODELAY on both ends and the response written by one sender loop. So a case is modelled
with the profile's bandwidth, RTT and TCP knobs, no TLS handshake, no 401 challenge, no
middleware hop and Nagle off. A cold case's time runs from the connect() call (the TCP
handshake is in it), a warm one's from the request's send.
"""

import importlib
import os
import subprocess
import sys
import tempfile

from ..transfer import links as current_links
from ..transfer import tcp as current_tcp
from ..cli import UserError, read_json

MEASURED_EXCHANGE = {"tls_handshake_rtts": 0, "auth_challenge": False, "delayed_ack_ms": 0,
                     "middleware_hops": 0, "nagle": "off"}
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
# The files a model needs, relative to the repository; the package's __init__ is empty.
_FILES = ("tools/wbtools/cli.py", "tools/wbtools/links.py", "tools/wbtools/tcp.py",
          "tools/links.json")


class Model:
    """tcp.py + links.py + links.json of one code version, named by label."""

    def __init__(self, label, tcp, links):
        self.label, self.tcp, self.links = label, tcp, links
        self.profiles = read_json(links.DEFAULT_PATH, "link profiles")["profiles"]

    def link(self, profile, congestion):
        raw = dict(self.profiles[profile])
        raw.update(MEASURED_EXCHANGE)
        raw["congestion"] = congestion
        return self.links.make_link(profile, raw)

    def ms(self, profile, congestion, nbytes, connection):
        """Modelled transfer time of one case in ms."""
        parts = self.tcp.transfer(nbytes, self.link(profile, congestion), connection=connection)
        return parts["total"] * 1e3


def current():
    """The model of the working tree."""
    return Model("working tree", current_tcp, current_links)


def at_revision(rev):
    """The model as it was at git revision rev (its files read with git show)."""
    try:
        commit = subprocess.run(["git", "-C", _ROOT, "rev-parse", "--short", rev], check=True,
                                capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as err:
        raise UserError(f"git rev-parse {rev}: {getattr(err, 'stderr', '') or err}") from None
    folder = tempfile.mkdtemp(prefix="wb-model-")
    package = f"wbtools_at_{commit}"
    os.makedirs(os.path.join(folder, package))
    with open(os.path.join(folder, package, "__init__.py"), "w", encoding="utf-8"):
        pass
    for path in _FILES:
        try:
            text = subprocess.run(["git", "-C", _ROOT, "show", f"{commit}:{path}"], check=True,
                                  capture_output=True, text=True).stdout
        except subprocess.CalledProcessError as err:
            raise UserError(f"git show {commit}:{path}: {err.stderr.strip()}") from None
        # links.py finds links.json one folder above the package.
        target = (os.path.join(folder, "links.json") if path.endswith(".json")
                  else os.path.join(folder, package, os.path.basename(path)))
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
    sys.path.insert(0, folder)
    try:
        tcp = importlib.import_module(f"{package}.tcp")
        links = importlib.import_module(f"{package}.links")
    finally:
        sys.path.remove(folder)
    return Model(f"code at {commit}", tcp, links)


def annotate(cases, model, key):
    """Add model[key] = {"code", "ms", "ratio" (model / measured median)} to every case."""
    for case in cases:
        ms = model.ms(case["profile"], case["congestion"], case["bytes"], case["connection"])
        case.setdefault("model", {})[key] = {
            "code": model.label, "ms": round(ms, 3), "ratio": round(ms / case["median_ms"], 4)}
    return cases
