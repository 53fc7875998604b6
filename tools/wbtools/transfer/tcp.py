"""Wire-time arithmetic: TCP slow start over a loss-free link, plus the profile's extra round trips.

The model (Kurose & Ross's slow-start latency, with an initial window of several segments),
with Linux's TCP as wirebench wire --matrix measures it (docs/wire.md):
  transfer = setup round trips * RTT              (TCP + TLS handshake when cold, 401 challenge)
           + RTT                                  (the request goes out, the first byte comes back)
           + packets * 8 / bandwidth              (serialization of the whole response as IP
                                                   packets: payload + header_bytes each)
           + sum of the slow-start stalls         (the sender waits for ACKs)
           + delayed-ACK stall
- Packets: a full segment carries mss_bytes of payload (1,448 with TCP timestamps) in an
  IP packet of mss_bytes + header_bytes (40 B of IP and TCP headers + 12 B of options =
  1,500 B); the link's rate counts whole packets.
- Slow start: window k holds initial_window * 2**(k-1) segments. After sending window k
  (w_k segments) the sender idles until the first ACK of it returns, that is for
  max(0, P/R + RTT - w_k * P/R) with P/R the time to put one packet on the wire. There is a
  stall after every window but the last. Once a window takes longer to send than an RTT the
  pipe is full and the stalls end: the model is continuous in bandwidth.
- A warm connection keeps its window (warm_keeps_window): Linux keeps cwnd on a connection
  reused within an RTO (at least 200 ms) of its last send, and always with
  tcp_slow_start_after_idle=0; bbr keeps its pacing rate anyway. A kept-alive connection
  that has carried responses of this size then sends the whole response in one window: no
  stall. warm_keeps_window false is a connection idle for longer than an RTO: slow start
  from the initial window again.
- bbr (congestion "bbr", bbr.py) sends its first 10 segments as a burst and paces the rest
  of its start-up (bbr.startup()), paces a warm response at the rate the connection's first
  response left (bbr.warm()) and drains its flight every 10 s to measure the RTT
  (bbr.probe_rtt()).
- Delayed-ACK stall (nagle):
    "classic": a response of more than one segment that ends in a partial segment waits for
      the ACK of the previous segment, which the receiver delays (BSD Nagle);
    "linux": Linux's Nagle holds a partial segment only while an earlier partial one is
      unACKed (Minshall), so a response written with one send() never waits; a body under
      one segment written after a separate header write (header_write "separate") waits
      for the header's ACK on a warm connection, whose receiver delays its ACKs (a cold
      one ACKs at once: quick-ACK mode);
    "off": TCP_NODELAY, no stall.
  The stall is delayed_ack_ms (Linux: 40 ms; 0 = no stall).
- A profile's stack (links.Stack; stacks.py) adds its bytes to the response (TLS records,
  HTTP/2 frames and header blocks, gRPC's prefix and trailers), its handshake's round trips
  (one more per slow-start window its first flight overflows) and flights to the setup, its
  handshake CPU as a part of its own ("handshake_cpu", CPU and not wire), and holds the
  response to its HTTP/2 flow-control window, simulated packet by packet (h2_flow.py). A
  "resumed" connection is a new one whose TLS handshake resumes a session.
"""

import math

from . import bbr, h2_flow, stacks


def segments(nbytes, mss):
    """Number of TCP segments for nbytes of payload (headers not counted)."""
    return max(0, math.ceil(nbytes / mss))


def wire_bytes(nbytes, mss, header_bytes):
    """Bytes the link carries for nbytes of payload: every segment's headers added."""
    return nbytes + segments(nbytes, mss) * header_bytes


def slow_start_rounds(nbytes, mss=1448, initial_window=10):
    """Round trips to deliver nbytes when every window waits a full RTT (>= 1)."""
    remaining = segments(nbytes, mss) - initial_window
    window = initial_window
    rounds = 1
    while remaining > 0:
        window *= 2
        remaining -= window
        rounds += 1
    return rounds


def slow_start_stalls(nbytes, rtt_s, bandwidth_bps, mss=1448, initial_window=10,
                      header_bytes=52):
    """(seconds the sender idles waiting for ACKs, number of windows followed by a stall)."""
    count = segments(nbytes, mss)
    packet_time = (mss + header_bytes) * 8 / bandwidth_bps
    sent, window, idle, stalls = 0, initial_window, 0.0, 0
    while sent + window < count:  # window k is not the last one: a stall may follow it
        stall = max(0.0, packet_time + rtt_s - window * packet_time)
        if stall > 0:
            idle += stall
            stalls += 1
        sent += window
        window *= 2
    return idle, stalls




def delayed_ack_stall(nbytes, link, state):
    """Seconds the response's last segment waits for a delayed ACK (see the module doc)."""
    if link.delayed_ack_s <= 0 or link.nagle == "off":
        return 0.0
    count = segments(nbytes, link.mss_bytes)
    if link.nagle == "classic":
        return link.delayed_ack_s if count > 1 and nbytes % link.mss_bytes else 0.0
    # linux: only a body under one segment sent after its own header, on a warm connection.
    if link.header_write == "separate" and 0 < nbytes < link.mss_bytes and state == "warm":
        return link.delayed_ack_s
    return 0.0


def transfer(nbytes, link, bandwidth_bps=None, connection=None):
    """Seconds to move one response of nbytes over link, split into parts.

    bandwidth_bps overrides the profile's bandwidth (for the crossover search); connection
    ("cold"/"resumed"/"warm", or "early": resumed with TLS 1.3 0-RTT) overrides the profile's
    connection state (paged requests reuse it). Returns a dict: setup (handshakes, their flights, auth), rounds (request RTT +
    slow-start and window stalls), serialization (the response's IP packets at the line
    rate, its stack's bytes in them), stall (delayed ACK), total (seconds of wire),
    round_trips (1 + stalls), handshake_rtts (the TLS handshake's, with a first flight's
    overflow), handshake_cpu (seconds of both ends' handshake CPU: not in total) and
    record_cpu (seconds of both ends' sealing and opening the response: not in total).
    """
    bandwidth = bandwidth_bps if bandwidth_bps is not None else link.bandwidth_bps
    state = connection or link.connection
    rtt = link.rtt_s
    spec = link.stack_spec
    shake = stacks.handshake(spec, state, link.mss_bytes, link.initial_window_segments,
                             link.header_bytes)
    tls_rtts = 0
    if state != "warm":
        # Resumed or 0-RTT (whose 0 round trips count) over a TLS stack: its own.
        tls_rtts = shake["rtts"] if state != "cold" and shake["bytes"] else \
            link.tls_handshake_rtts
        tls_rtts += shake["overflow_rtts"]
    setup_rtts = link.tcp_handshake_rtts + tls_rtts if state != "warm" else 0
    if link.auth_challenge:
        setup_rtts += 1
    payload = nbytes
    record_cpu = stacks.record_cpu_s(spec, nbytes)
    nbytes = stacks.response_bytes(spec, nbytes, state)
    serialization = wire_bytes(nbytes, link.mss_bytes, link.header_bytes) * 8 / bandwidth
    starts_slow = link.slow_start and not (state == "warm" and link.warm_keeps_window)
    idle, stalls = 0.0, 0
    if link.slow_start and rtt > 0 and h2_flow.limits(spec, payload, rtt, bandwidth,
                                                      link.mss_bytes):
        idle, stalls = h2_flow.window_stalls(
            payload, spec, state, rtt, bandwidth, link.mss_bytes,
            link.initial_window_segments, link.header_bytes, serialization,
            link.warm_keeps_window)
    elif starts_slow and link.congestion == "bbr" and nbytes > 0 and rtt > 0:
        # The paced start-up's own time, less what serialization already counts.
        # The last packet arrives startup after the first is sent, which is half an RTT
        # after the request left; the model's RTT and serialization hold part of that.
        startup, rounds = bbr.startup(nbytes, rtt, bandwidth, link.mss_bytes,
                                      link.initial_window_segments, link.header_bytes)
        idle, stalls = max(0.0, startup - rtt / 2 - serialization), rounds - 1
    elif link.congestion == "bbr" and link.slow_start and state == "warm" and nbytes > 0 \
            and rtt > 0:
        # A kept window, but paced at the rate the connection's first response left.
        elapsed = bbr.warm(nbytes, rtt, bandwidth, link.mss_bytes,
                           link.initial_window_segments, link.header_bytes)
        idle = max(0.0, elapsed - rtt / 2 - serialization)
    elif starts_slow:
        idle, stalls = slow_start_stalls(nbytes, rtt, bandwidth, link.mss_bytes,
                                         link.initial_window_segments, link.header_bytes)
    parts = {
        "setup": setup_rtts * rtt + shake["bytes"] * 8 / bandwidth,
        "rounds": rtt + idle,
        "serialization": serialization,
        "stall": delayed_ack_stall(nbytes, link, state),
        "round_trips": 1 + stalls,
        "handshake_rtts": tls_rtts,
        "handshake_cpu": shake["cpu_s"],
        "record_cpu": record_cpu,
    }
    if link.slow_start and link.congestion == "bbr":
        # The handshake's RTT sample is bbr's minimum: data packets are never faster.
        parts["rounds"] += bbr.probe_rtt(
            parts["setup"] + parts["rounds"] + parts["serialization"], rtt)
    parts["total"] = parts["setup"] + parts["rounds"] + parts["serialization"] + parts["stall"]
    return parts
