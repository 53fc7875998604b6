"""Link profiles: the built-in tools/links.json, optionally extended by a user's file.

A user file has the same shape ({"profiles": {NAME: {...}}}); its profiles are added to the
built-in ones and replace those with the same name. Missing knobs take the defaults below.
A profile may name the stack its calls run over ("stack", one of links.json's "stacks"):
the stack's TLS handshake round trips then stand for tls_handshake_rtts unless the profile
states it.
"""

import os
from dataclasses import dataclass

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
    "connection": ("cold", "warm"),
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
    description: str = ""
    fitted_from: str = ""


def _number(profile, name, key, minimum, integer=False):
    value = profile[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < minimum \
            or (integer and int(value) != value):
        kind = "an integer" if integer else "a number"
        raise UserError(f"link profile '{name}': {key} must be {kind} >= {minimum}, got {value!r}")
    return int(value) if integer else float(value)


@dataclass(frozen=True)
class Stack:
    """One protocol stack: its TLS handshake's round trips on a cold connection."""

    name: str
    tls_handshake_rtts: int
    measured: str = ""


def load_stacks(path=DEFAULT_PATH):
    """The stacks of a links.json by name ({} for a file without them)."""
    data = read_json(path, "link profiles")
    stacks = data.get("stacks", {}) if isinstance(data, dict) else {}
    if not isinstance(stacks, dict):
        raise UserError(f"{path}: \"stacks\" is not an object")
    out = {}
    for name, stack in stacks.items():
        if name.startswith("_"):
            continue
        if not isinstance(stack, dict) or "tls_handshake_rtts" not in stack:
            raise UserError(f"{path}: stack '{name}' has no tls_handshake_rtts")
        out[name] = Stack(name, _number(stack, f"stack {name}", "tls_handshake_rtts", 0,
                                        integer=True), str(stack.get("measured", "")))
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


def pick(links, name):
    """The links to model: all of them, or the one named (case-insensitive)."""
    if not name:
        return list(links.values())
    for link in links.values():
        if link.name.lower() == name.lower():
            return [link]
    raise UserError(f"unknown link '{name}' (known: {', '.join(links)})")
