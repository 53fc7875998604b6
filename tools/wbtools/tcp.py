"""Wire-time arithmetic: TCP slow start over a loss-free link, plus the profile's extra round trips.

The model (Kurose & Ross's slow-start latency, with an initial window of several segments):
  transfer = setup round trips * RTT              (TCP + TLS handshake when cold, 401 challenge)
           + RTT                                  (the request goes out, the first byte comes back)
           + bytes * 8 / bandwidth                (serialization of the whole response)
           + sum of the slow-start stalls         (the sender waits for ACKs)
           + delayed-ACK stall
- Slow start: window k holds initial_window * 2**(k-1) segments of mss bytes. After sending
  window k (w_k segments) the sender idles until the first ACK of it returns, that is for
  max(0, S/R + RTT - w_k * S/R) with S/R the time to put one segment on the wire. There is a
  stall after every window but the last. Once a window takes longer to send than an RTT the
  pipe is full and the stalls end: the model is continuous in bandwidth.
- With an infinitely fast link every stall is one RTT: a response of n segments then costs
  slow_start_rounds(n) round trips, the smallest k with initial_window * (2**k - 1) >= n.
- Delayed-ACK stall: a response of more than one segment that ends in a partial segment waits
  for the ACK of the previous segment (Nagle), which the receiver delays.
"""

import math


def segments(nbytes, mss):
    """Number of TCP segments for nbytes of payload (headers not counted)."""
    return max(0, math.ceil(nbytes / mss))


def slow_start_rounds(nbytes, mss=1460, initial_window=10):
    """Round trips to deliver nbytes when every window waits a full RTT (>= 1)."""
    remaining = segments(nbytes, mss) - initial_window
    window = initial_window
    rounds = 1
    while remaining > 0:
        window *= 2
        remaining -= window
        rounds += 1
    return rounds


def slow_start_stalls(nbytes, rtt_s, bandwidth_bps, mss=1460, initial_window=10):
    """(seconds the sender idles waiting for ACKs, number of windows followed by a stall)."""
    count = segments(nbytes, mss)
    segment_time = mss * 8 / bandwidth_bps
    sent, window, idle, stalls = 0, initial_window, 0.0, 0
    while sent + window < count:  # window k is not the last one: a stall may follow it
        stall = max(0.0, segment_time + rtt_s - window * segment_time)
        if stall > 0:
            idle += stall
            stalls += 1
        sent += window
        window *= 2
    return idle, stalls


def transfer(nbytes, link, bandwidth_bps=None, connection=None):
    """Seconds to move one response of nbytes over link, split into parts.

    bandwidth_bps overrides the profile's bandwidth (for the crossover search); connection
    ("cold"/"warm") overrides the profile's connection state (paged requests reuse it).
    Returns a dict: setup (handshake + auth), rounds (request RTT + slow-start stalls),
    serialization, stall (delayed ACK), total (seconds) and round_trips (1 + stalls).
    """
    bandwidth = bandwidth_bps if bandwidth_bps is not None else link.bandwidth_bps
    state = connection or link.connection
    rtt = link.rtt_s
    setup_rtts = (link.tcp_handshake_rtts + link.tls_handshake_rtts) if state == "cold" else 0
    if link.auth_challenge:
        setup_rtts += 1
    idle, stalls = (slow_start_stalls(nbytes, rtt, bandwidth, link.mss_bytes,
                                      link.initial_window_segments)
                    if link.slow_start else (0.0, 0))
    count = segments(nbytes, link.mss_bytes)
    delayed_ack = link.delayed_ack_s if count > 1 and nbytes % link.mss_bytes else 0.0
    parts = {
        "setup": setup_rtts * rtt,
        "rounds": rtt + idle,
        "serialization": nbytes * 8 / bandwidth,
        "stall": delayed_ack,
        "round_trips": 1 + stalls,
    }
    parts["total"] = parts["setup"] + parts["rounds"] + parts["serialization"] + parts["stall"]
    return parts
