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

# Plain: the stack "http1", whatever stack the profile names (wan and mobile name TLS 1.3).
# Kept literal, not read from links.json's stacks, so that a revision's links.py from before
# the stacks models the same exchange (it ignores the "stack" key).
MEASURED_EXCHANGE = {"tls_handshake_rtts": 0, "auth_challenge": False, "delayed_ack_ms": 0,
                     "middleware_hops": 0, "nagle": "off", "stack": "http1"}


def measured_exchange(stack, stacks=None):
    """MEASURED_EXCHANGE over stack (links.json's "stacks"; `wirebench_wire --http --tls`):
    the stack's TLS handshake round trips in place of none."""
    stacks = current_links.load_stacks() if stacks is None else stacks
    if stack not in stacks:
        raise UserError(f"unknown stack {stack!r} (known: {', '.join(stacks)})")
    return {**MEASURED_EXCHANGE, "tls_handshake_rtts": stacks[stack].tls_handshake_rtts,
            "stack": stack}
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
# The files a model needs, relative to tools/: as they are laid out now (the transfer model in
# wbtools/transfer/) and as they were before, when wbtools/ was one flat folder, so that a
# revision of either time loads. The packages' __init__ files are written empty.
_LAYOUTS = (("wbtools/cli.py", "wbtools/transfer/links.py", "wbtools/transfer/tcp.py",
             "links.json"),
            ("wbtools/cli.py", "wbtools/links.py", "wbtools/tcp.py", "links.json"))
# The modules tcp.py imports beside it in the transfer folder, each from the revision on which
# it appeared: taken where the revision has it, left out where it does not.
_BESIDE_TCP = ("stacks.py", "bbr.py", "h2_flow.py")


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
    texts, errors = None, []
    for layout in _LAYOUTS:
        try:
            texts = {path: _show(commit, f"tools/{path}") for path in layout}
        except UserError as err:
            errors.append(str(err))
            continue
        folder_of_tcp = os.path.dirname(layout[2])
        for name in _BESIDE_TCP:
            try:
                texts[f"{folder_of_tcp}/{name}"] = _show(commit, f"tools/{folder_of_tcp}/{name}")
            except UserError:
                pass
        break
    if texts is None:
        raise UserError("; ".join(errors))
    folder = tempfile.mkdtemp(prefix="wb-model-")
    package = f"wbtools_at_{commit}"
    modules = {}
    for path, text in texts.items():
        # The files keep their places under tools/, wbtools/ renamed to the package: links.py
        # finds links.json in the folder above wbtools/.
        parts = path.split("/")
        if parts[0] == "wbtools":
            parts[0] = package
        target = os.path.join(folder, *parts)
        for depth in range(1, len(parts)):
            os.makedirs(os.path.join(folder, *parts[:depth]), exist_ok=True)
            with open(os.path.join(folder, *parts[:depth], "__init__.py"), "a", encoding="utf-8"):
                pass
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
        if path.endswith(".py"):
            modules[parts[-1][:-3]] = ".".join(parts)[:-3]
    sys.path.insert(0, folder)
    try:
        tcp = importlib.import_module(modules["tcp"])
        links = importlib.import_module(modules["links"])
    finally:
        sys.path.remove(folder)
    return Model(f"code at {commit}", tcp, links)


def _show(commit, path):
    """The text of path at commit (git show)."""
    try:
        return subprocess.run(["git", "-C", _ROOT, "show", f"{commit}:{path}"], check=True,
                              capture_output=True, text=True).stdout
    except subprocess.CalledProcessError as err:
        raise UserError(f"git show {commit}:{path}: {err.stderr.strip()}") from None


def annotate(cases, model, key):
    """Add model[key] = {"code", "ms", "ratio" (model / measured median)} to every case."""
    for case in cases:
        ms = model.ms(case["profile"], case["congestion"], case["bytes"], case["connection"])
        case.setdefault("model", {})[key] = {
            "code": model.label, "ms": round(ms, 3), "ratio": round(ms / case["median_ms"], 4)}
    return cases
