"""HTTP/2's flow-control window on one response, packet by packet, as nghttp2 runs it.

What the measured wire's h2 exchange does (docs/wire-h2.md, wire/h2_server.cpp and
wire/h2_client.cpp over nghttp2 1.52):
- The server cuts DATA frames to min(16,384, the stream's window, the connection's window)
  and sends all the credit allows; it gathers the frames into writes of at least 64 KB (a
  write ends when nghttp2 has nothing more to send), after the response's head in a write of
  its own. Over TLS each write leaves in records of 16,384 bytes of plaintext, the last one
  part-filled. New credit (a WINDOW_UPDATE) reaches the server half an RTT after the client
  sent it and is spent at once.
- TCP (Nagle off) sends the written bytes in segments of mss bytes while fewer than cwnd
  are unACKed; in slow start cwnd grows by one per ACKed segment from the initial window (a
  kept-alive connection keeps a cwnd that never limits here). The link serializes every
  segment with its headers at the link rate and delays it by half an RTT; the client ACKs
  every segment.
- The client reads each segment as it arrives (h2c) or each TLS record once it is whole,
  and nghttp2 counts the DATA payload it reads: once the connection's or the stream's
  unreturned bytes reach half its window (integer division) it sends a WINDOW_UPDATE of all
  of them, after that read. The stream's is not sent for the bytes that end the stream.
- What the connection's window lacks at the end of a response (bytes read but not yet
  returned, under half a window) is missing from the next response's window on a kept-alive
  connection: carried().
tcp.transfer prices a response over an HTTP/2 stack with window_stalls() where limits() says
the window can hold it back. Not played: a stream window other than the connection's, the
ends' CPU, delayed ACKs, loss.
"""

import collections
import functools
import heapq

H2_FRAME_HEADER_BYTES = 9
H2_MAX_FRAME_BYTES = 16384
TLS_RECORD_BYTES = 16384
# The server gathers frames into writes of at least this many bytes (wire/h2_server.cpp).
WRITE_CHUNK_BYTES = 64 * 1024
# A gap on the link shorter than this is float rounding, not a stall.
IDLE_S = 1e-9
# Responses beyond this many bytes are simulated up to it and extrapolated at the rate of its
# second half (the window's steady state): a crossover search asks for hundreds of bandwidths.
SIMULATED_BYTES = 2 << 20
# Above the bandwidth at which a window takes this fraction of an RTT to serialize, round
# trips alone set the stalls: the idle time of that bandwidth is kept (off by under half a
# percent of the time).
FAST_WINDOW_RTT_FRACTION = 0.01


def _threshold(window):
    """nghttp2_should_send_window_update: half the local window, rounded down."""
    return window // 2


# One response as response() simulates it: seconds from the request's arrival at the server
# to the last byte's at the client; round trips (1 + the times the sender resumed after the
# link went idle); the connection's bytes read but not yet returned at the end (what the next
# response on the connection lacks); DATA frames; WINDOW_UPDATEs the client sent for the
# stream and for the connection.
Response = collections.namedtuple(
    "Response", "seconds round_trips unreturned data_frames stream_updates connection_updates")


class _Writes:
    """The server's byte stream: frames and TLS records, as offsets on the wire."""

    def __init__(self, record_overhead):
        self.overhead = record_overhead  # None: no TLS
        self.wire = 0        # wire bytes written so far
        self.plain = 0       # plaintext (HTTP/2) bytes written so far
        # (plaintext end, wire end) of every record, in order; h2c: one per write.
        self.records = []
        # (plaintext start of the payload, payload length, ends the stream) of every DATA frame.
        self.frames = []

    def write(self, plain_bytes):
        """One write of plain_bytes: its records' ends."""
        left = plain_bytes
        while left > 0:
            piece = min(left, TLS_RECORD_BYTES) if self.overhead is not None else left
            self.plain += piece
            self.wire += piece + (self.overhead or 0)
            self.records.append((self.plain, self.wire))
            left -= piece


@functools.lru_cache(maxsize=1 << 14)
def response(nbytes, rtt_s, bandwidth_bps, window=65535, unreturned=0,
             lead_bytes=0, record_overhead=None, mss=1448, initial_window=None,
             header_bytes=52):
    """simulate(), but a response of more than SIMULATED_BYTES from simulations of
    SIMULATED_BYTES and half of it: seconds and round trips grow at the rate between them,
    frames and updates with the bytes; the unreturned bytes are the longer one's."""
    args = (rtt_s, bandwidth_bps, window, unreturned, lead_bytes, record_overhead, mss,
            initial_window, header_bytes)
    if nbytes <= SIMULATED_BYTES:
        return simulate(nbytes, *args)
    full, half = simulate(SIMULATED_BYTES, *args), simulate(SIMULATED_BYTES // 2, *args)
    scale = (nbytes - SIMULATED_BYTES) / (SIMULATED_BYTES - SIMULATED_BYTES // 2)

    def grown(field):
        return getattr(full, field) + (getattr(full, field) - getattr(half, field)) * scale

    return Response(grown("seconds"), round(grown("round_trips")), full.unreturned,
                    round(grown("data_frames")), round(grown("stream_updates")),
                    round(grown("connection_updates")))


@functools.lru_cache(maxsize=1 << 14)
def simulate(nbytes, rtt_s, bandwidth_bps, window=65535, unreturned=0,
             lead_bytes=0, record_overhead=None, mss=1448, initial_window=None,
             header_bytes=52):
    """One response of nbytes of DATA payload after lead_bytes of plaintext (tickets, the
    server's preface, the HEADERS frame: a write of their own), both windows window bytes but
    the connection's short of the unreturned bytes the client read before it (a kept-alive
    connection's carry-over), over TLS records of record_overhead bytes (None: h2c).

    Returns a Response."""
    one_way = rtt_s / 2
    packet_ser = 8 / bandwidth_bps
    out = _Writes(record_overhead)
    if lead_bytes:
        out.write(lead_bytes)
    stream_credit = window
    conn_credit = window - unreturned
    left = nbytes

    def spend():
        """The frames the credit allows, in writes of WRITE_CHUNK_BYTES or more."""
        nonlocal stream_credit, conn_credit, left
        gathered = 0
        while left > 0 and min(stream_credit, conn_credit) > 0:
            size = min(H2_MAX_FRAME_BYTES, left, stream_credit, conn_credit)
            start = out.plain + gathered + H2_FRAME_HEADER_BYTES
            left -= size
            stream_credit -= size
            conn_credit -= size
            out.frames.append((start, size, left == 0))
            gathered += H2_FRAME_HEADER_BYTES + size
            if gathered >= WRITE_CHUNK_BYTES:
                out.write(gathered)
                gathered = 0
        if gathered:
            out.write(gathered)

    spend()
    cwnd = initial_window
    sent = acked = 0           # wire bytes sent; segments ACKed
    segments = []              # wire end of every segment sent
    link_free = 0.0
    now = 0.0
    events = []                # (time, order, kind, value): "ack" seg index, "arrive" index,
    order = 0                  # "credit" (stream, connection)
    # Client side: wire bytes arrived, records read, payload read, unreturned bytes.
    arrived, record_index, frame_index, frame_done = 0, 0, 0, 0
    conn_unreturned, stream_unreturned = unreturned, 0
    updates = [0, 0]           # WINDOW_UPDATEs sent: stream, connection
    last_arrival = 0.0
    # A round trip more each time the sender resumes after the link went idle (a stall).
    rounds = 1

    def push(at, kind, value):
        nonlocal order
        order += 1
        heapq.heappush(events, (at, order, kind, value))

    def send():
        nonlocal sent, link_free, rounds
        while sent < out.wire and (cwnd is None or len(segments) - acked < cwnd):
            size = min(mss, out.wire - sent)
            sent += size
            if segments and now > link_free + IDLE_S:
                rounds += 1
            link_free = max(link_free, now) + (size + header_bytes) * packet_ser
            segments.append(sent)
            push(link_free + one_way, "arrive", len(segments) - 1)

    def read(upto_plain):
        """The client reads plaintext up to upto_plain: credit it returns, as (stream, conn)."""
        nonlocal frame_index, frame_done, conn_unreturned, stream_unreturned
        stream_back = conn_back = 0
        while frame_index < len(out.frames):
            start, size, last = out.frames[frame_index]
            chunk = min(size, upto_plain - start) - frame_done
            if chunk <= 0:
                break
            frame_done += chunk
            conn_unreturned += chunk
            if conn_unreturned >= _threshold(window):
                conn_back += conn_unreturned
                conn_unreturned = 0
                updates[1] += 1
            stream_unreturned += chunk
            ends = last and frame_done == size
            if not ends and stream_unreturned >= _threshold(window):
                stream_back += stream_unreturned
                stream_unreturned = 0
                updates[0] += 1
            if frame_done < size:
                break
            frame_index, frame_done = frame_index + 1, 0
        return stream_back, conn_back

    send()
    while events:
        now, _, kind, value = heapq.heappop(events)
        if kind == "arrive":
            arrived = segments[value]
            last_arrival = now
            push(now + one_way, "ack", value)
            upto = None
            while record_index < len(out.records) and out.records[record_index][1] <= arrived:
                upto = out.records[record_index][0]
                record_index += 1
            if record_overhead is None:  # h2c: every byte is read as it arrives
                upto = arrived
            if upto is not None:
                back = read(upto)
                if any(back):
                    push(now + one_way, "credit", back)
        elif kind == "ack":
            acked += 1
            if cwnd is not None:
                cwnd += 1
            send()
        else:
            stream_credit += value[0]
            conn_credit += value[1]
            before = out.wire
            spend()
            if out.wire > before:
                send()
    return Response(last_arrival, rounds, conn_unreturned, len(out.frames), *updates)


# Kept-alive calls simulated in search of the carry-over's cycle (a measured run has 7).
MAX_WARM_CALLS = 8


@functools.lru_cache(maxsize=1 << 12)
def carried(nbytes, rtt_s, bandwidth_bps, window=65535, lead_bytes=(0, 0), record_overhead=None,
            mss=1448, initial_window=10, header_bytes=52, warm_initial_window=None):
    """The kept-alive calls after a cold one (lead_bytes: the cold call's and a kept-alive
    one's), each with the connection's window short of what the call before left unreturned:
    the Response of each call of the cycle the carry-over settles in, or of all
    MAX_WARM_CALLS calls when it has not repeated by then."""
    unreturned = response(nbytes, rtt_s, bandwidth_bps, window, 0, lead_bytes[0],
                          record_overhead, mss, initial_window, header_bytes).unreturned
    seen, calls = {}, []
    while unreturned not in seen and len(calls) < MAX_WARM_CALLS:
        seen[unreturned] = len(calls)
        call = response(nbytes, rtt_s, bandwidth_bps, window, unreturned, lead_bytes[1],
                        record_overhead, mss, warm_initial_window, header_bytes)
        calls.append(call)
        unreturned = call.unreturned
    start = seen.get(unreturned, 0)
    return tuple(calls[start:])


def lead_bytes(stack, state):
    """Plaintext ahead of the DATA on a connection in state: TLS 1.3's session tickets on a
    new one, the server's preface frames on a new one, the response's HEADERS frame."""
    new = state != "warm"
    lead = H2_FRAME_HEADER_BYTES + stack.header_block_bytes[0 if new else 1]
    if new:
        lead += stack.preface_bytes
    if stack.tls is not None and state == "cold":
        lead += stack.tls.post_handshake_bytes
    elif stack.tls is not None and state == "resumed":
        lead += stack.tls.resumed_post_handshake_bytes
    return lead


def limits(stack, nbytes, rtt_s, bandwidth_bps, mss):
    """Whether the flow-control window can hold back a response of nbytes over stack: it
    exceeds what a kept-alive connection's window may have left (half a window), and the
    credit of the first half of that takes longer than the serialization of the rest (less a
    TLS record and a segment, the reads' granularity) to come back."""
    window = stack.flow_window_bytes if stack is not None else 0
    if not window or stack.http != "h2":
        return False
    rest = window - _threshold(window)
    return nbytes > rest and \
        (rest - TLS_RECORD_BYTES - mss) * 8 < bandwidth_bps * rtt_s


def window_stalls(nbytes, stack, state, rtt_s, bandwidth_bps, mss, initial_window,
                  header_bytes, serialization_s, warm_keeps_window=True):
    """(seconds the response waits beyond RTT + serialization_s, round trips) for nbytes of
    DATA over stack on a connection in state. A kept-alive call is the median call, by time,
    of the cycle its carried window settles in after a cold call (carried()): the figure a
    measured median of kept-alive calls gives. Above the bandwidth at which a window takes
    FAST_WINDOW_RTT_FRACTION of an RTT, the idle time of that bandwidth."""
    window = stack.flow_window_bytes
    fast = window * 8 / (FAST_WINDOW_RTT_FRACTION * rtt_s)
    if bandwidth_bps > fast:
        return window_stalls(nbytes, stack, state, rtt_s, fast, mss, initial_window,
                             header_bytes, serialization_s * bandwidth_bps / fast,
                             warm_keeps_window)
    overhead = stack.tls.record_overhead_bytes if stack.tls is not None else None
    if state == "warm":
        calls = carried(nbytes, rtt_s, bandwidth_bps, window,
                        (lead_bytes(stack, "cold"), lead_bytes(stack, "warm")), overhead, mss,
                        initial_window, header_bytes,
                        None if warm_keeps_window else initial_window)
        seconds, rounds = sorted(c[:2] for c in calls)[(len(calls) - 1) // 2]
    else:
        seconds, rounds = response(nbytes, rtt_s, bandwidth_bps, window, 0,
                                   lead_bytes(stack, state), overhead, mss, initial_window,
                                   header_bytes)[:2]
    # seconds run from the request's arrival at the server, half an RTT after it left.
    return max(0.0, rtt_s / 2 + seconds - rtt_s - serialization_s), rounds - 1
