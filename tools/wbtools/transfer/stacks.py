"""What a protocol stack adds to one call: bytes on the stream, handshake round trips and
their flights, the flow-control window, handshake CPU (links.Stack, links.Tls).

The arithmetic, as the measured wire runs each stack (docs/wire-tls.md, docs/wire-h2.md):
- TLS records: every up to 16,384 bytes of plaintext carry record_overhead_bytes (TLS 1.3:
  22; TLS 1.2 with AES-GCM: 29). A response's head frames leave in a record of their own.
- HTTP/2 and gRPC: the response's HEADERS frame (9 bytes + its HPACK block, smaller on a
  kept-alive connection, whose dynamic table holds the fields), DATA frames of up to 16,384
  bytes with 9 bytes of header each, gRPC's 5-byte prefix before the message and its
  trailers' HEADERS frame after it; on a new connection the server's preface frames first.
- The handshake on a new connection: the TLS version's round trips, plus one more for every
  slow-start window the server's first flight needs beyond the first. OpenSSL writes that
  flight in three pieces (its 4,096-byte handshake buffer when full, the rest of the
  Certificate record, then the records after it), and with Nagle off each piece ends in a
  part-filled segment: 2 certificates of 6.5 KB (13,113 bytes) take 3 + 7 + 1 = 11 segments,
  one more than an initial window of 10, and pay a round trip (measured: 2.11).
  A resumed handshake sends no certificate: its version's resumed round trips. Both flights'
  bytes each way cross the link as packets, and TLS 1.3's session tickets go ahead of the
  response. With 0-RTT ("early": TLS 1.3, a resumed connection whose request rides with the
  ClientHello as early data) no round trip precedes the request
  (early_data_handshake_rtts, 0), the server answers right after its flight, and its
  tickets follow the answer (they wait for the client's Finished): none ahead of it.
- Handshake CPU: both ends' measured handshake thread time, charged as CPU, not wire.
- Record CPU: the server seals and the client opens every byte of the response, at the
  measured CPU per MB (wirebench_tls_cpu, AES-128-GCM), on every connection, warm or new:
  CPU, not wire.
- The flow-control window (HTTP/2): the credit nghttp2's client returns, packet by packet
  (h2_flow.py).
"""

import math

TLS_RECORD_BYTES = 16384
H2_FRAME_HEADER_BYTES = 9
H2_MAX_FRAME_BYTES = 16384
# OpenSSL's handshake write buffer: a first flight leaves in a write of this size first.
OPENSSL_WRITE_PIECE_BYTES = 4096


def _records(nbytes, overhead):
    return math.ceil(nbytes / TLS_RECORD_BYTES) * overhead if nbytes > 0 else 0


def response_bytes(stack, nbytes, state):
    """Bytes the TCP stream carries for a response of nbytes of payload over stack, on a
    connection in state ("cold", "resumed", "early": a new one; "warm": kept alive)."""
    if stack is None:
        return nbytes
    new = state != "warm"
    head, body = 0, nbytes
    if stack.http in ("h2", "grpc"):
        message = nbytes + stack.message_prefix_bytes
        frames = max(1, math.ceil(message / H2_MAX_FRAME_BYTES))
        body = message + frames * H2_FRAME_HEADER_BYTES
        trailers = stack.trailer_block_bytes[0 if new else 1]
        if trailers:
            body += H2_FRAME_HEADER_BYTES + trailers
        head = H2_FRAME_HEADER_BYTES + stack.header_block_bytes[0 if new else 1]
        if new:
            head += stack.preface_bytes
    if stack.tls is None:
        return head + body
    overhead = stack.tls.record_overhead_bytes
    tickets = 0  # "early": the tickets follow the answer
    if state == "cold":
        tickets = stack.tls.post_handshake_bytes
    elif state == "resumed":
        tickets = stack.tls.resumed_post_handshake_bytes
    return (tickets + head + _records(head, overhead) + body + _records(body, overhead))


def first_flight_segments(tls, mss):
    """Segments the server's first flight leaves in: one part-filled segment at the end of
    each of OpenSSL's writes (the module doc)."""
    front = tls.server_first_flight_bytes - tls.first_flight_tail_bytes
    writes = (min(front, OPENSSL_WRITE_PIECE_BYTES), max(0, front - OPENSSL_WRITE_PIECE_BYTES),
              tls.first_flight_tail_bytes)
    return sum(math.ceil(w / mss) for w in writes)


def overflow_rtts(count, initial_window):
    """Round trips beyond the first that count segments take in slow start."""
    extra, window = 0, initial_window
    while count > window:
        count -= window
        window *= 2
        extra += 1
    return extra


def handshake(stack, state, mss, initial_window, header_bytes):
    """The TLS handshake on a connection in state: {"rtts", "overflow_rtts", "bytes" (both
    ways, as IP packets), "cpu_s"}; all 0 on a kept-alive connection or a plain stack."""
    none = {"rtts": 0, "overflow_rtts": 0, "bytes": 0, "cpu_s": 0.0}
    tls = stack.tls if stack is not None else None
    if tls is None or state == "warm":
        return none
    if state in ("resumed", "early"):
        rtts, overflow = tls.resumed_handshake_rtts, 0
        if state == "early" and tls.early_data_handshake_rtts is not None:
            rtts = tls.early_data_handshake_rtts
        flights = (tls.resumed_server_bytes, tls.resumed_client_bytes)
        cpu_ms = tls.resumed_client_cpu_ms + tls.resumed_server_cpu_ms
    else:
        rtts = tls.handshake_rtts
        overflow = overflow_rtts(first_flight_segments(tls, mss), initial_window)
        flights = (tls.server_bytes, tls.client_bytes)
        cpu_ms = tls.client_cpu_ms + tls.server_cpu_ms
    packets = sum(math.ceil(b / mss) for b in flights)
    return {"rtts": rtts, "overflow_rtts": overflow, "bytes": sum(flights) + packets * header_bytes,
            "cpu_s": cpu_ms / 1e3}


def record_cpu_s(stack, nbytes):
    """Seconds of CPU both ends spend on the records of a response of nbytes over stack: the
    server seals them, the client opens them (0 on a plain stack)."""
    tls = stack.tls if stack is not None else None
    if tls is None:
        return 0.0
    return nbytes / 1e6 * (tls.seal_cpu_ms_per_mb + tls.open_cpu_ms_per_mb) / 1e3
