"""Linux's bbr (v1) on an empty, loss-free link: a packet-level simulation of its start-up.

What the simulation keeps of Linux (net/ipv4/tcp_bbr.c, tcp_output.c, tcp_rate.c); the
unpaced first segments, the bursts, the half slot and the warm response's rate are those
that captures of wirebench_wire's server show (docs/wire.md, "bbr's start-up and its warm
responses"):
- The first 10 data segments of a connection leave unpaced (tcp_update_skb_after_send
  paces only once data_segs_out reaches 10, as sch_fq does), so an initial window leaves as
  a burst, and so does a warm response while the connection has sent fewer than 10.
- Then every burst (skb) sets the next departure len / pacing rate later, less up to half
  of it when the sender had been idle or cwnd-limited past its departure time (the credit
  of tcp_update_skb_after_send): the first burst after a pause is followed by half a slot.
- A burst is tcp_tso_autosize's: pacing rate * 1 ms of segments (sk_pacing_shift 10), at
  least 2 at a pacing rate of 1.2 Mbit/s or more (bbr_min_tso_segs), else 1, and no more
  than cwnd leaves room for.
- The pacing rate starts at high_gain * initial window / RTT and, in STARTUP, only rises:
  to high_gain * the highest delivery-rate sample (delivered packets over the longer of the
  send and the ACK interval; a sample over less than the minimum RTT is dropped), with a
  1 % margin. The samples of a response that starts on an idle connection are
  application-limited, so bbr never sees its full bandwidth and stays in STARTUP, where
  CA_EVENT_TX_START changes nothing.
- cwnd grows by one per ACKed packet while it is below high_gain * that rate * min RTT + 3
  bursts, rounded up to an even number (bbr_set_cwnd in STARTUP), or fewer than the
  initial window have been delivered.
- Once the pacing rate reaches the link rate the rest goes back to back, and so does every
  later response on that connection.
A warm response (warm_idle) is the second response of its size on a connection, as
wirebench_wire --cold 1 --warm 1 measures it: it starts with the state the first one left.
The link serializes packets in order (the last holds the payload's rest) and delays them by
RTT/2 each way; the receiver ACKs every packet as it arrives.
"""

import functools
import heapq
import math

# Linux's bbr_high_gain, BBR_UNIT * 2885 / 1000 + 1 in units of 1/256: bbr's pacing and cwnd
# gain in start-up, about 2/ln 2, the smallest that doubles its delivery rate every round trip.
HIGH_GAIN = 739 / 256
# bbr_pacing_margin_percent: bbr paces 1 % below its rate.
PACING_MARGIN = 0.99
# bbr_min_tso_rate: at a pacing rate of at least this many bits per second a burst is at
# least 2 segments, below it 1 (bbr_min_tso_segs).
MIN_TSO_RATE_BPS = 1.2e6
# sk_pacing_shift: tcp_tso_autosize sizes a burst to 2**-10 s (about 1 ms) of the pacing rate.
PACING_SHIFT = 10
# The GSO size limit of the emulated link's TUN device (GSO_LEGACY_MAX_SIZE), which
# tcp_tso_autosize adds to a burst, shifted right by min RTT (us) >> tcp_tso_rtt_log (9).
GSO_MAX_BYTES = 65536
TSO_RTT_LOG = 9
# tcp_update_skb_after_send paces a connection's data only from its 10th segment on.
UNPACED_SEGMENTS = 10
# bbr's PROBE_RTT: when its minimum RTT sample is this old it drains the flight to 4 packets
# and holds them for PROBE_RTT_S (and at least a round trip) before sending on.
MIN_RTT_WINDOW_S = 10.0
PROBE_RTT_S = 0.2


def burst_segments(pace, mss, rtt_s=None):
    """Segments per burst at pace packets/s: tcp_tso_autosize with bbr's minimum, or with
    rtt_s None bbr_tso_segs_goal, which leaves out the RTT's share."""
    rate_bytes = pace * mss
    least = 2 if rate_bytes * 8 >= MIN_TSO_RATE_BPS else 1
    nbytes = rate_bytes / 2 ** PACING_SHIFT
    shift = 32 if rtt_s is None else int(rtt_s * 1e6) >> TSO_RTT_LOG
    if shift < 32:
        nbytes += GSO_MAX_BYTES >> shift
    return max(math.floor(min(nbytes, GSO_MAX_BYTES) / mss), least)


class _Connection:
    """One server socket under bbr, its ACK clock and the link, packet by packet."""

    def __init__(self, rtt_s, bandwidth_bps, mss, initial_window, header_bytes):
        self.rtt, self.mss, self.header_bytes = rtt_s, mss, header_bytes
        self.bandwidth = bandwidth_bps
        self.initial_window = initial_window
        self.one_way = rtt_s / 2
        self.packet_time = (mss + header_bytes) * 8 / bandwidth_bps
        self.pace = HIGH_GAIN * initial_window / rtt_s * PACING_MARGIN
        self.cwnd = float(initial_window)
        self.best_rate = 0.0
        self.now = 0.0
        self.sent = self.delivered = 0
        self.delivered_at = self.first_tx = 0.0
        self.departure = -math.inf  # tcp_wstamp_ns: the earliest departure of the next burst
        self.link_free = 0.0
        self.acks, self.in_flight = [], {}
        self.last_ack_round, self.rounds = -1, 0
        self.at_link_rate = False
        self.departures = []  # (seconds, segments) of every paced burst, for the tests

    def _ack(self):
        """Take the next ACK: a rate sample, the pacing rate and cwnd follow it."""
        self.now, index = heapq.heappop(self.acks)
        sent_at, delivered_then, delivered_at_then, first_tx_then = self.in_flight.pop(index)
        self.delivered += 1
        self.delivered_at = self.now
        if index > self.last_ack_round:  # a packet sent after the last round's end
            self.rounds += 1
            self.last_ack_round = self.sent - 1
        interval = max(sent_at - first_tx_then, self.now - delivered_at_then)
        if interval >= self.rtt:  # tcp_rate_gen drops a sample over less than min RTT
            self.best_rate = max(self.best_rate,
                                 (self.delivered - delivered_then) / interval)
        self.first_tx = sent_at
        self.pace = max(self.pace, HIGH_GAIN * self.best_rate * PACING_MARGIN)
        goal = burst_segments(self.pace, self.mss)
        target = math.ceil(HIGH_GAIN * self.best_rate * self.rtt) + 3 * goal
        target += target % 2
        if self.cwnd < target or self.delivered < self.initial_window:
            self.cwnd += 1

    def _send(self, count, last_time):
        """Send one burst now; its segments join the link's queue."""
        in_flight = self.sent - self.delivered
        segs = min(burst_segments(self.pace, self.mss, self.rtt),
                   int(self.cwnd) - in_flight, count - self.sent_in_response)
        credit = max(0.0, self.now - self.departure)
        self.departures.append((self.now, segs))
        if in_flight == 0:  # nothing in flight: a new measurement interval
            self.first_tx = self.delivered_at = self.now
        for _ in range(segs):
            self.sent_in_response += 1
            last = self.sent_in_response == count
            self.in_flight[self.sent] = (self.now, self.delivered, self.delivered_at,
                                         self.first_tx)
            self.link_free = max(self.now, self.link_free) + (
                last_time if last else self.packet_time)
            self.last_arrival = self.link_free + self.one_way
            heapq.heappush(self.acks, (self.last_arrival + self.one_way, self.sent))
            self.sent += 1
        slot = 0.0
        if self.sent >= UNPACED_SEGMENTS:
            slot = segs / self.pace
            slot -= min(slot / 2, credit)
        self.departure = self.now + slot

    def respond(self, nbytes):
        """Send a response of nbytes from now on; (first send, last arrival, round trips)."""
        count = max(1, math.ceil(nbytes / self.mss))
        last_time = (nbytes - (count - 1) * self.mss + self.header_bytes) * 8 / self.bandwidth
        start, rounds_before = self.now, self.rounds
        self.sent_in_response = 0
        self.last_arrival = start
        while self.sent_in_response < count:
            if self.at_link_rate or self.pace * self.packet_time >= 1:
                # Paced at the link rate or faster: the rest leaves back to back.
                self.at_link_rate = True
                rest = count - self.sent_in_response
                self.link_free = (max(self.link_free, self.now)
                                  + (rest - 1) * self.packet_time + last_time)
                self.last_arrival = self.link_free + self.one_way
                self.acks, self.in_flight = [], {}
                self.delivered = self.sent = self.sent + rest
                self.sent_in_response = count
                break
            next_ack = self.acks[0][0] if self.acks else math.inf
            can_send = self.sent - self.delivered < int(self.cwnd)
            send_at = max(self.departure, self.now) if can_send else math.inf
            if send_at <= next_ack:
                self.now = send_at
                self._send(count, last_time)
            else:
                self._ack()
        # The request took this response's first round trip.
        return start, self.last_arrival, max(1, self.rounds - rounds_before + 1)

    def idle_until(self, moment):
        """Take every ACK that arrives before moment; the sender is idle until then."""
        while self.acks and self.acks[0][0] <= moment:
            self._ack()
        self.now = max(self.now, moment)


# A crossover search asks for the same start-up at each bandwidth it tries, for every
# pairing of a payload size: kept, the page test's grid of the model runs in an eighth of the time.
@functools.lru_cache(maxsize=1 << 16)
def startup(nbytes, rtt_s, bandwidth_bps, mss=1448, initial_window=10, header_bytes=52):
    """(seconds from a new connection's first data packet to the arrival of its last one,
    round trips) of a response of nbytes."""
    connection = _Connection(rtt_s, bandwidth_bps, mss, initial_window, header_bytes)
    first, last, rounds = connection.respond(nbytes)
    return last - first, rounds


@functools.lru_cache(maxsize=1 << 16)
def warm(nbytes, rtt_s, bandwidth_bps, mss=1448, initial_window=10, header_bytes=52):
    """Seconds from the first data packet of a warm response of nbytes to the arrival of its
    last one: the second response of nbytes on a connection, whose request arrives with the
    ACK of the first one's last packet."""
    connection = _Connection(rtt_s, bandwidth_bps, mss, initial_window, header_bytes)
    _, last, _ = connection.respond(nbytes)
    connection.idle_until(last + rtt_s / 2)
    first, last, _ = connection.respond(nbytes)
    return last - first


def probe_rtt(seconds, rtt_s):
    """Seconds bbr's PROBE_RTT adds to a transfer of seconds: per 10 s of it, one round trip
    to drain the flight and max(200 ms, RTT) at 4 packets, the link next to idle."""
    return math.floor(seconds / MIN_RTT_WINDOW_S) * (rtt_s + max(PROBE_RTT_S, rtt_s))
