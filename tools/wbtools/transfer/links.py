"""Link profiles: the built-in tools/links.json, optionally extended by a user's file.

A user file has the same shape ({"profiles": {NAME: {...}}}); its profiles are added to the
built-in ones and replace those with the same name. Missing knobs take the defaults below.
A profile may name the stack its calls run over ("stack", one of links.json's "stacks"):
the stack's TLS handshake round trips then stand for tls_handshake_rtts unless the profile
states it, and the stack's bytes, flights, windows and handshake CPU are priced
(tools/wbtools/transfer/stacks.py). A stack's TLS figures are those of its version under
links.json's "tls".
"""

import os
from dataclasses import dataclass, replace

from ..cli import UserError, read_json

DEFAULT_PATH = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "links.json")

# Knob -> default; bandwidth and RTT have none: every profile states them.
_DEFAULTS = {
    "connection": "warm",
    "tcp_handshake_rtts": 1,
    "tls_handshake_rtts": 2,
    "auth_challenge": False,
    "delayed_ack_ms": 0.0,
    "middleware_hops": 0,
    "slow_start": True,
    "mss_bytes": 1448,
    "header_bytes": 52,
    "initial_window_segments": 10,
    "warm_keeps_window": True,
    "congestion": "cubic",
    "nagle": "linux",
    "header_write": "with_body",
}
# Knob -> the values a string knob takes.
_CHOICES = {
    "connection": ("cold", "resumed", "warm"),
    "congestion": ("cubic", "reno", "bbr"),
    "nagle": ("linux", "classic", "off"),
    "header_write": ("with_body", "separate"),
}


@dataclass(frozen=True)
class Link:
    """One link profile; times in seconds, bandwidth in bit/s."""

    name: str
    bandwidth_bps: float
    rtt_s: float
    connection: str = "warm"
    tcp_handshake_rtts: int = 1
    tls_handshake_rtts: int = 2
    auth_challenge: bool = False
    delayed_ack_s: float = 0.0
    middleware_hops: int = 0
    slow_start: bool = True
    mss_bytes: int = 1448
    header_bytes: int = 52
    initial_window_segments: int = 10
    warm_keeps_window: bool = True
    congestion: str = "cubic"
    nagle: str = "linux"
    header_write: str = "with_body"
    stack: str = ""
    # The stack's pricing (Stack), None for a profile that names no stack: then only
    # tls_handshake_rtts prices TLS, and no byte of HTTP or TLS is added.
    stack_spec: object = None
    description: str = ""
    fitted_from: str = ""


def _number(profile, name, key, minimum, integer=False, what="link profile"):
    value = profile[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < minimum \
            or (integer and int(value) != value):
        kind = "an integer" if integer else "a number"
        raise UserError(f"{what} '{name}': {key} must be {kind} >= {minimum}, got {value!r}")
    return int(value) if integer else float(value)


@dataclass(frozen=True)
class Tls:
    """One TLS version as the measured wire runs it (docs/wire-tls.md): round trips, bytes
    each way until the client's handshake is done, and each end's handshake CPU."""

    version: str
    handshake_rtts: int
    resumed_handshake_rtts: int
    # Bytes a record adds to its up to 16,384 bytes of plaintext: 5 of header, 16 of AEAD tag
    # and, in TLS 1.3, 1 of inner content type (22); TLS 1.2's AES-GCM 8 of explicit nonce (29).
    record_overhead_bytes: int
    # The server's records up to the first the client answers, and of them the records after
    # the Certificate (CertificateVerify and Finished in 1.3), which leave in a write of their
    # own: the flight's part-filled segments against the initial window (stacks.py).
    server_first_flight_bytes: int
    first_flight_tail_bytes: int
    server_bytes: int
    client_bytes: int
    # Handshake records after done ahead of the response: TLS 1.3's NewSessionTickets.
    post_handshake_bytes: int
    resumed_server_bytes: int
    resumed_client_bytes: int
    resumed_post_handshake_bytes: int
    client_cpu_ms: float
    server_cpu_ms: float
    resumed_client_cpu_ms: float
    resumed_server_cpu_ms: float
    measured: str = ""
    # CPU per MB (10^6 bytes) of application data: the server sealing it into records, the
    # client opening them (wirebench_tls_cpu; 0: not charged).
    seal_cpu_ms_per_mb: float = 0.0
    open_cpu_ms_per_mb: float = 0.0
    # TLS 1.3 0-RTT (state "early": a resumed connection whose request went as early data):
    # the handshake's round trips before the request, 0; None for a version without it.
    early_data_handshake_rtts: object = None


@dataclass(frozen=True)
class Stack:
    """One protocol stack: its TLS handshake's round trips on a cold connection, and what
    the model prices of it (stacks.py): its TLS version's figures, HTTP/2's header blocks,
    frames and flow-control window, gRPC's message prefix and trailers."""

    name: str
    tls_handshake_rtts: int
    measured: str = ""
    http: str = "http1"
    tls: object = None  # Tls, or None for a plain stack
    # HPACK blocks of the response's HEADERS (and gRPC's trailers): on a new connection and
    # on a kept-alive one, whose dynamic table holds the fields.
    header_block_bytes: tuple = (0, 0)
    trailer_block_bytes: tuple = (0, 0)
    # The server's frames ahead of the first response on a new connection (SETTINGS + ACK).
    preface_bytes: int = 0
    # The receiver's flow-control windows (stream's and connection's), whose credit it returns
    # half a window at a time (h2_flow.py); 0 = not limiting.
    flow_window_bytes: int = 0
    message_prefix_bytes: int = 0
    # Round trips a new connection waits after its handshakes before the first request goes
    # out (gRPC: its channel turns READY on the server's HTTP/2 SETTINGS); in
    # tls_handshake_rtts.
    ready_rtts: int = 0


_HTTP = ("http1", "h2", "grpc")
_TLS_INTS = ("handshake_rtts", "resumed_handshake_rtts", "record_overhead_bytes",
             "server_first_flight_bytes", "first_flight_tail_bytes", "server_bytes",
             "client_bytes", "post_handshake_bytes", "resumed_server_bytes",
             "resumed_client_bytes", "resumed_post_handshake_bytes")
_TLS_FLOATS = ("client_cpu_ms", "server_cpu_ms", "resumed_client_cpu_ms",
               "resumed_server_cpu_ms")
_TLS_OPTIONAL_FLOATS = ("seal_cpu_ms_per_mb", "open_cpu_ms_per_mb")


def _load_tls(path, data):
    """links.json's "tls": {version: Tls}."""
    found = data.get("tls", {})
    if not isinstance(found, dict):
        raise UserError(f"{path}: \"tls\" is not an object")
    out = {}
    for version, spec in found.items():
        if version.startswith("_"):
            continue
        if not isinstance(spec, dict):
            raise UserError(f"{path}: tls '{version}' is not an object")
        for key in _TLS_INTS + _TLS_FLOATS:
            if key not in spec:
                raise UserError(f"{path}: tls '{version}' has no {key}")
        out[version] = Tls(version, **{k: _number(spec, version, k, 0, True, "tls")
                                      for k in _TLS_INTS},
                           **{k: _number(spec, version, k, 0, what="tls") for k in _TLS_FLOATS},
                           **{k: _number(spec, version, k, 0, what="tls")
                              for k in _TLS_OPTIONAL_FLOATS if k in spec},
                           measured=str(spec.get("measured", "")),
                           early_data_handshake_rtts=(
                               _number(spec, version, "early_data_handshake_rtts", 0, True, "tls")
                               if "early_data_handshake_rtts" in spec else None))
    return out


def _pair(stack, name, key):
    value = stack.get(key, [0, 0])
    if not isinstance(value, list) or len(value) != 2:
        raise UserError(f"stack '{name}': {key} must be [new connection, kept-alive] bytes")
    return tuple(_number({key: v}, name, key, 0, True, "stack") for v in value)


def load_stacks(path=DEFAULT_PATH):
    """The stacks of a links.json by name ({} for a file without them)."""
    data = read_json(path, "link profiles")
    data = data if isinstance(data, dict) else {}
    stacks = data.get("stacks", {})
    if not isinstance(stacks, dict):
        raise UserError(f"{path}: \"stacks\" is not an object")
    versions = _load_tls(path, data)
    out = {}
    for name, stack in stacks.items():
        if name.startswith("_"):
            continue
        where = f"{path}: stack '{name}'"
        if not isinstance(stack, dict):
            raise UserError(f"{where} is not an object")
        tls = None
        if stack.get("tls"):
            if stack["tls"] not in versions:
                raise UserError(f"{where}: unknown tls {stack['tls']!r} (known: "
                                + ", ".join(versions) + ")")
            tls = versions[stack["tls"]]
        http = stack.get("http", "http1")
        if http not in _HTTP:
            raise UserError(f"{where}: http must be one of " + ", ".join(_HTTP)
                            + f", got {http!r}")
        ready = _number({"ready_rtts": 0, **stack}, name, "ready_rtts", 0, True, "stack")
        out[name] = Stack(
            name, (tls.handshake_rtts if tls else 0) + ready, str(stack.get("measured", "")),
            http, tls,
            _pair(stack, name, "header_block_bytes"), _pair(stack, name, "trailer_block_bytes"),
            *(_number({**{"preface_bytes": 0, "flow_window_bytes": 0,
                          "message_prefix_bytes": 0}, **stack}, name, key, 0, True, "stack")
              for key in ("preface_bytes", "flow_window_bytes", "message_prefix_bytes")),
            ready_rtts=ready)
    return out


def make_link(name, profile, stacks=None):
    """Validate one profile dict and build a Link; stacks: load_stacks() unless given."""
    if not isinstance(profile, dict):
        raise UserError(f"link profile '{name}' is not an object")
    for key in ("bandwidth_mbps", "rtt_ms"):
        if key not in profile:
            raise UserError(f"link profile '{name}' has no {key}")
    stack = profile.get("stack", "")
    if stack:
        stacks = load_stacks() if stacks is None else stacks
        if stack not in stacks:
            raise UserError(f"link profile '{name}': unknown stack {stack!r} (known: "
                            + ", ".join(stacks) + ")")
        if "tls_handshake_rtts" not in profile:
            profile = {**profile, "tls_handshake_rtts": stacks[stack].tls_handshake_rtts}
        stack_spec = stacks[stack]
    else:
        stack_spec = None
    merged = {**_DEFAULTS, **profile}
    for key, choices in _CHOICES.items():
        if merged[key] not in choices:
            raise UserError(f"link profile '{name}': {key} must be one of "
                            + ", ".join(f'"{c}"' for c in choices) + f", got {merged[key]!r}")
    for key in ("auth_challenge", "slow_start", "warm_keeps_window"):
        if not isinstance(merged[key], bool):
            raise UserError(f"link profile '{name}': {key} must be true or false")
    bandwidth = _number(merged, name, "bandwidth_mbps", 1e-6)
    return Link(
        name=name,
        bandwidth_bps=bandwidth * 1e6,
        rtt_s=_number(merged, name, "rtt_ms", 0) / 1e3,
        connection=merged["connection"],
        tcp_handshake_rtts=_number(merged, name, "tcp_handshake_rtts", 0, integer=True),
        tls_handshake_rtts=_number(merged, name, "tls_handshake_rtts", 0, integer=True),
        auth_challenge=merged["auth_challenge"],
        delayed_ack_s=_number(merged, name, "delayed_ack_ms", 0) / 1e3,
        middleware_hops=_number(merged, name, "middleware_hops", 0, integer=True),
        slow_start=merged["slow_start"],
        mss_bytes=_number(merged, name, "mss_bytes", 1, integer=True),
        header_bytes=_number(merged, name, "header_bytes", 0, integer=True),
        initial_window_segments=_number(merged, name, "initial_window_segments", 1, integer=True),
        warm_keeps_window=merged["warm_keeps_window"],
        congestion=merged["congestion"],
        nagle=merged["nagle"],
        header_write=merged["header_write"],
        stack=stack,
        stack_spec=stack_spec,
        description=str(merged.get("description", "")),
        fitted_from=str(merged.get("fitted_from", "")),
    )


def _read_profiles(path):
    data = read_json(path, "link profiles")
    if not isinstance(data, dict) or not isinstance(data.get("profiles"), dict):
        raise UserError(f"{path}: no \"profiles\" object")
    return data["profiles"]


def load_links(extra_path=None, builtin_path=DEFAULT_PATH):
    """Profiles by name, built-in first, then the user's file (added or replacing)."""
    profiles = dict(_read_profiles(builtin_path))
    if extra_path:
        profiles.update(_read_profiles(extra_path))
    stacks = load_stacks(builtin_path)
    return {name: make_link(name, profile, stacks) for name, profile in profiles.items()}


def with_stack(link, stack, stacks=None):
    """link over another stack (a name of links.json's "stacks"): its handshake round trips
    and its pricing, whatever the profile states."""
    stacks = load_stacks() if stacks is None else stacks
    if stack not in stacks:
        raise UserError(f"unknown stack {stack!r} (known: {', '.join(stacks)})")
    return replace(link, stack=stack, stack_spec=stacks[stack],
                   tls_handshake_rtts=stacks[stack].tls_handshake_rtts)


def pick(links, name):
    """The links to model: all of them, or the one named (case-insensitive)."""
    if not name:
        return list(links.values())
    for link in links.values():
        if link.name.lower() == name.lower():
            return [link]
    raise UserError(f"unknown link '{name}' (known: {', '.join(links)})")
