// The transfer model of tools/wbtools/transfer/tcp.py and the call composition of tools/wbtools/transfer/calls.py,
// for the page: the same arithmetic in the same order, so the page ranks exactly as
// `wirebench model` does (tools/tests/test_page_model.py holds both to one grid of cases).
// A link has the field names of links.Link (bandwidth_bps, rtt_s, ...); a pairing those of
// model.Pairing (wire_bytes, encode, decode, compress, decompress, settled).
"use strict";

const wbModel = (() => {
  // Linux's bbr (v1) as tools/wbtools/transfer/bbr.py simulates it; the constants are its.
  const BBR_HIGH_GAIN = 739 / 256;
  const BBR_PACING_MARGIN = 0.99;
  const BBR_MIN_TSO_RATE_BPS = 1.2e6;
  const BBR_PACING_SHIFT = 10;
  const BBR_GSO_MAX_BYTES = 65536;
  const BBR_TSO_RTT_LOG = 9;
  const BBR_UNPACED_SEGMENTS = 10;
  const BBR_MIN_RTT_WINDOW_S = 10.0;
  const BBR_PROBE_RTT_S = 0.2;

  function segments(nbytes, mss) {
    return Math.max(0, Math.ceil(nbytes / mss));
  }

  function wireBytes(nbytes, mss, headerBytes) {
    return nbytes + segments(nbytes, mss) * headerBytes;
  }

  function slowStartStalls(nbytes, rttS, bandwidthBps, mss, initialWindow, headerBytes) {
    const count = segments(nbytes, mss);
    const packetTime = (mss + headerBytes) * 8 / bandwidthBps;
    let sent = 0, window = initialWindow, idle = 0.0, stalls = 0;
    while (sent + window < count) {  // window k is not the last one: a stall may follow it
      const stall = Math.max(0.0, packetTime + rttS - window * packetTime);
      if (stall > 0) {
        idle += stall;
        stalls += 1;
      }
      sent += window;
      window *= 2;
    }
    return [idle, stalls];
  }

  // Segments per burst at pace packets/s, as bbr.burst_segments (rttS null: the goal).
  function bbrBurstSegments(pace, mss, rttS) {
    const rateBytes = pace * mss;
    const least = rateBytes * 8 >= BBR_MIN_TSO_RATE_BPS ? 2 : 1;
    let nbytes = rateBytes / 2 ** BBR_PACING_SHIFT;
    const shift = rttS === null ? 32 : Math.trunc(rttS * 1e6) >> BBR_TSO_RTT_LOG;
    if (shift < 32) nbytes += BBR_GSO_MAX_BYTES >> shift;
    return Math.max(Math.floor(Math.min(nbytes, BBR_GSO_MAX_BYTES) / mss), least);
  }

  // One server socket under bbr, packet by packet, as bbr._Connection. ACKs are kept sorted
  // by time (a heap in Python; ties cannot occur in a different order, as both pop the
  // earliest time and the lowest index first).
  function bbrConnection(rttS, bandwidthBps, mss, initialWindow, headerBytes) {
    const c = {
      oneWay: rttS / 2, packetTime: (mss + headerBytes) * 8 / bandwidthBps,
      pace: BBR_HIGH_GAIN * initialWindow / rttS * BBR_PACING_MARGIN, cwnd: initialWindow,
      bestRate: 0.0, now: 0.0, sent: 0, delivered: 0, deliveredAt: 0.0, firstTx: 0.0,
      departure: -Infinity, linkFree: 0.0, acks: [], inFlight: new Map(), lastAckRound: -1,
      rounds: 0, atLinkRate: false, sentInResponse: 0, lastArrival: 0.0,
    };
    function ack() {
      const [ackAt, index] = c.acks.shift();
      c.now = ackAt;
      const [sentAt, deliveredThen, deliveredAtThen, firstTxThen] = c.inFlight.get(index);
      c.inFlight.delete(index);
      c.delivered += 1;
      c.deliveredAt = c.now;
      if (index > c.lastAckRound) {
        c.rounds += 1;
        c.lastAckRound = c.sent - 1;
      }
      const interval = Math.max(sentAt - firstTxThen, c.now - deliveredAtThen);
      if (interval >= rttS) {
        c.bestRate = Math.max(c.bestRate, (c.delivered - deliveredThen) / interval);
      }
      c.firstTx = sentAt;
      c.pace = Math.max(c.pace, BBR_HIGH_GAIN * c.bestRate * BBR_PACING_MARGIN);
      const goal = bbrBurstSegments(c.pace, mss, null);
      let target = Math.ceil(BBR_HIGH_GAIN * c.bestRate * rttS) + 3 * goal;
      target += target % 2;
      if (c.cwnd < target || c.delivered < initialWindow) c.cwnd += 1;
    }
    function send(count, lastTime) {
      const inFlight = c.sent - c.delivered;
      const segs = Math.min(bbrBurstSegments(c.pace, mss, rttS), Math.trunc(c.cwnd) - inFlight,
                            count - c.sentInResponse);
      const credit = Math.max(0.0, c.now - c.departure);
      if (inFlight === 0) c.firstTx = c.deliveredAt = c.now;
      for (let i = 0; i < segs; i++) {
        c.sentInResponse += 1;
        const last = c.sentInResponse === count;
        c.inFlight.set(c.sent, [c.now, c.delivered, c.deliveredAt, c.firstTx]);
        c.linkFree = Math.max(c.now, c.linkFree) + (last ? lastTime : c.packetTime);
        c.lastArrival = c.linkFree + c.oneWay;
        const entry = [c.lastArrival + c.oneWay, c.sent];
        let at = c.acks.length;
        while (at > 0 && (c.acks[at - 1][0] > entry[0] ||
                          (c.acks[at - 1][0] === entry[0] && c.acks[at - 1][1] > entry[1]))) at--;
        c.acks.splice(at, 0, entry);
        c.sent += 1;
      }
      let slot = 0.0;
      if (c.sent >= BBR_UNPACED_SEGMENTS) {
        slot = segs / c.pace;
        slot -= Math.min(slot / 2, credit);
      }
      c.departure = c.now + slot;
    }
    // A response of nbytes from now on: [first send, last arrival, round trips].
    c.respond = (nbytes) => {
      const count = Math.max(1, Math.ceil(nbytes / mss));
      const lastTime = (nbytes - (count - 1) * mss + headerBytes) * 8 / bandwidthBps;
      const start = c.now, roundsBefore = c.rounds;
      c.sentInResponse = 0;
      c.lastArrival = start;
      while (c.sentInResponse < count) {
        if (c.atLinkRate || c.pace * c.packetTime >= 1) {
          c.atLinkRate = true;
          const rest = count - c.sentInResponse;
          c.linkFree = Math.max(c.linkFree, c.now) + (rest - 1) * c.packetTime + lastTime;
          c.lastArrival = c.linkFree + c.oneWay;
          c.acks = [];
          c.inFlight = new Map();
          c.delivered = c.sent = c.sent + rest;
          c.sentInResponse = count;
          break;
        }
        const nextAck = c.acks.length ? c.acks[0][0] : Infinity;
        const canSend = c.sent - c.delivered < Math.trunc(c.cwnd);
        const sendAt = canSend ? Math.max(c.departure, c.now) : Infinity;
        if (sendAt <= nextAck) {
          c.now = sendAt;
          send(count, lastTime);
        } else {
          ack();
        }
      }
      return [start, c.lastArrival, Math.max(1, c.rounds - roundsBefore + 1)];
    };
    c.idleUntil = (moment) => {
      while (c.acks.length && c.acks[0][0] <= moment) ack();
      c.now = Math.max(c.now, moment);
    };
    return c;
  }

  // A crossover search asks for the same start-up at each bandwidth it tries: kept, as
  // bbr.py keeps them (its lru_cache), up to 65,536 at a time.
  function kept(simulate) {
    const found = new Map();
    return (...args) => {
      const key = args.join(",");
      let value = found.get(key);
      if (value === undefined) {
        if (found.size >= 65536) found.clear();
        value = simulate(...args);
        found.set(key, value);
      }
      return value;
    };
  }
  // [seconds from a new connection's first data packet to its last one's arrival, rounds].
  const bbrStartup = kept((nbytes, rttS, bandwidthBps, mss, initialWindow, headerBytes) => {
    const c = bbrConnection(rttS, bandwidthBps, mss, initialWindow, headerBytes);
    const [first, last, rounds] = c.respond(nbytes);
    return [last - first, rounds];
  });
  // Seconds of the second response of nbytes on a connection, as bbr.warm.
  const bbrWarm = kept((nbytes, rttS, bandwidthBps, mss, initialWindow, headerBytes) => {
    const c = bbrConnection(rttS, bandwidthBps, mss, initialWindow, headerBytes);
    const [, opened] = c.respond(nbytes);
    c.idleUntil(opened + rttS / 2);
    const [first, last] = c.respond(nbytes);
    return last - first;
  });

  // HTTP/2's flow-control window, packet by packet, as tools/wbtools/transfer/h2_flow.py.
  const H2_WRITE_CHUNK_BYTES = 64 * 1024, H2_IDLE_S = 1e-9;
  const H2_SIMULATED_BYTES = 2 << 20, H2_FAST_WINDOW_RTT_FRACTION = 0.01;
  // Kept as h2_flow.py keeps them (its lru_cache), up to 16,384 at a time.
  const h2Kept = new Map();
  function keptH2(fn, args) {
    const key = fn.name + ":" + args.join(",");
    let found = h2Kept.get(key);
    if (found === undefined) {
      if (h2Kept.size >= 16384) h2Kept.clear();
      found = fn(...args);
      h2Kept.set(key, found);
    }
    return found;
  }
  // One response: [seconds from the request's arrival at the server to the last byte's at
  // the client, round trips, the connection's bytes read but not returned]; beyond
  // H2_SIMULATED_BYTES extrapolated from it and its half (h2_flow.response).
  function h2Response(nbytes, ...args) {
    if (nbytes <= H2_SIMULATED_BYTES) return keptH2(h2Simulate, [nbytes, ...args]);
    const full = keptH2(h2Simulate, [H2_SIMULATED_BYTES, ...args]);
    const half = keptH2(h2Simulate, [Math.floor(H2_SIMULATED_BYTES / 2), ...args]);
    const scale = (nbytes - H2_SIMULATED_BYTES) /
      (H2_SIMULATED_BYTES - Math.floor(H2_SIMULATED_BYTES / 2));
    return [full[0] + (full[0] - half[0]) * scale,
            pyRound(full[1] + (full[1] - half[1]) * scale), full[2]];
  }
  // Python's round(): halves to even.
  function pyRound(x) {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  function h2Simulate(nbytes, rttS, bandwidthBps, window, unreturned, leadBytes,
                      recordOverhead, mss, initialWindow, headerBytes) {
    const oneWay = rttS / 2;
    const packetSer = 8 / bandwidthBps;
    const threshold = Math.floor(window / 2);
    let wire = 0, plain = 0;
    const records = [], frames = [];
    const write = (plainBytes) => {
      let left = plainBytes;
      while (left > 0) {
        const piece = recordOverhead !== null ? Math.min(left, TLS_RECORD_BYTES) : left;
        plain += piece;
        wire += piece + (recordOverhead || 0);
        records.push([plain, wire]);
        left -= piece;
      }
    };
    if (leadBytes) write(leadBytes);
    let streamCredit = window, connCredit = window - unreturned, left = nbytes;
    const spend = () => {
      let gathered = 0;
      while (left > 0 && Math.min(streamCredit, connCredit) > 0) {
        const size = Math.min(H2_MAX_FRAME_BYTES, left, streamCredit, connCredit);
        const start = plain + gathered + H2_FRAME_HEADER_BYTES;
        left -= size;
        streamCredit -= size;
        connCredit -= size;
        frames.push([start, size, left === 0]);
        gathered += H2_FRAME_HEADER_BYTES + size;
        if (gathered >= H2_WRITE_CHUNK_BYTES) {
          write(gathered);
          gathered = 0;
        }
      }
      if (gathered) write(gathered);
    };
    spend();
    let cwnd = initialWindow, sent = 0, acked = 0, linkFree = 0.0, now = 0.0, order = 0;
    const segs = [], events = [];
    let recordIndex = 0, frameIndex = 0, frameDone = 0;
    let connUnreturned = unreturned, streamUnreturned = 0, lastArrival = 0.0;
    let rounds = 1;
    const push = (at, kind, value) => {
      order += 1;
      let i = events.length;
      while (i > 0 && (events[i - 1][0] > at ||
                       (events[i - 1][0] === at && events[i - 1][1] > order))) i--;
      events.splice(i, 0, [at, order, kind, value]);
    };
    const send = () => {
      while (sent < wire && (cwnd === null || segs.length - acked < cwnd)) {
        const size = Math.min(mss, wire - sent);
        sent += size;
        if (segs.length && now > linkFree + H2_IDLE_S) rounds += 1;
        linkFree = Math.max(linkFree, now) + (size + headerBytes) * packetSer;
        segs.push(sent);
        push(linkFree + oneWay, "arrive", segs.length - 1);
      }
    };
    const read = (uptoPlain) => {
      let streamBack = 0, connBack = 0;
      while (frameIndex < frames.length) {
        const [start, size, last] = frames[frameIndex];
        const chunk = Math.min(size, uptoPlain - start) - frameDone;
        if (chunk <= 0) break;
        frameDone += chunk;
        connUnreturned += chunk;
        if (connUnreturned >= threshold) {
          connBack += connUnreturned;
          connUnreturned = 0;
        }
        streamUnreturned += chunk;
        const ends = last && frameDone === size;
        if (!ends && streamUnreturned >= threshold) {
          streamBack += streamUnreturned;
          streamUnreturned = 0;
        }
        if (frameDone < size) break;
        frameIndex += 1;
        frameDone = 0;
      }
      return [streamBack, connBack];
    };
    send();
    while (events.length) {
      const [at, , kind, value] = events.shift();
      now = at;
      if (kind === "arrive") {
        const arrived = segs[value];
        lastArrival = now;
        push(now + oneWay, "ack", value);
        let upto = null;
        while (recordIndex < records.length && records[recordIndex][1] <= arrived) {
          upto = records[recordIndex][0];
          recordIndex += 1;
        }
        if (recordOverhead === null) upto = arrived;
        if (upto !== null) {
          const back = read(upto);
          if (back[0] || back[1]) push(now + oneWay, "credit", back);
        }
      } else if (kind === "ack") {
        acked += 1;
        if (cwnd !== null) cwnd += 1;
        send();
      } else {
        streamCredit += value[0];
        connCredit += value[1];
        const before = wire;
        spend();
        if (wire > before) send();
      }
    }
    return [lastArrival, rounds, connUnreturned];
  }
  const H2_MAX_WARM_CALLS = 8;
  // The kept-alive calls after a cold one, the connection's window carried (h2_flow.carried).
  function h2Carried(nbytes, rttS, bandwidthBps, window, coldLead, warmLead, recordOverhead,
                     mss, initialWindow, headerBytes, warmInitialWindow) {
    let unreturned = keptH2(h2Response, [nbytes, rttS, bandwidthBps, window, 0, coldLead,
                                          recordOverhead, mss, initialWindow, headerBytes])[2];
    const seen = new Map(), calls = [];
    while (!seen.has(unreturned) && calls.length < H2_MAX_WARM_CALLS) {
      seen.set(unreturned, calls.length);
      const [seconds, rounds, next] = keptH2(h2Response, [
        nbytes, rttS, bandwidthBps, window, unreturned, warmLead, recordOverhead, mss,
        warmInitialWindow, headerBytes]);
      calls.push([seconds, rounds]);
      unreturned = next;
    }
    return calls.slice(seen.has(unreturned) ? seen.get(unreturned) : 0);
  }
  function h2LeadBytes(stack, state) {
    const isNew = state !== "warm";
    let lead = H2_FRAME_HEADER_BYTES + stack.header_block_bytes[isNew ? 0 : 1];
    if (isNew) lead += stack.preface_bytes;
    if (stack.tls && state === "cold") lead += stack.tls.post_handshake_bytes;
    else if (stack.tls && state === "resumed") lead += stack.tls.resumed_post_handshake_bytes;
    return lead;
  }
  function h2Limits(stack, nbytes, rttS, bandwidthBps, mss) {
    const window = stack ? stack.flow_window_bytes : 0;
    if (!window || stack.http !== "h2") return false;
    const rest = window - Math.floor(window / 2);
    return nbytes > rest && (rest - TLS_RECORD_BYTES - mss) * 8 < bandwidthBps * rttS;
  }
  // [idle, stalls] of a response held back by the window (h2_flow.window_stalls).
  function h2WindowStalls(nbytes, stack, state, rttS, bandwidthBps, mss, initialWindow,
                          headerBytes, serializationS, warmKeepsWindow) {
    const window = stack.flow_window_bytes;
    const fast = window * 8 / (H2_FAST_WINDOW_RTT_FRACTION * rttS);
    if (bandwidthBps > fast) {
      return h2WindowStalls(nbytes, stack, state, rttS, fast, mss, initialWindow, headerBytes,
                            serializationS * bandwidthBps / fast, warmKeepsWindow);
    }
    const overhead = stack.tls ? stack.tls.record_overhead_bytes : null;
    let seconds, rounds;
    if (state === "warm") {
      const calls = keptH2(h2Carried, [
        nbytes, rttS, bandwidthBps, window, h2LeadBytes(stack, "cold"), h2LeadBytes(stack, "warm"),
        overhead, mss, initialWindow, headerBytes, warmKeepsWindow ? null : initialWindow]);
      const sorted = calls.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      [seconds, rounds] = sorted[Math.floor((sorted.length - 1) / 2)];
    } else {
      [seconds, rounds] = keptH2(h2Response, [nbytes, rttS, bandwidthBps, window, 0,
                                               h2LeadBytes(stack, state), overhead, mss,
                                               initialWindow, headerBytes]);
    }
    return [Math.max(0.0, rttS / 2 + seconds - rttS - serializationS), rounds - 1];
  }

  // A stack's pricing, as tools/wbtools/transfer/stacks.py.
  const TLS_RECORD_BYTES = 16384, H2_FRAME_HEADER_BYTES = 9, H2_MAX_FRAME_BYTES = 16384;
  const OPENSSL_WRITE_PIECE_BYTES = 4096;
  function records(nbytes, overhead) {
    return nbytes > 0 ? Math.ceil(nbytes / TLS_RECORD_BYTES) * overhead : 0;
  }
  function responseBytes(stack, nbytes, state) {
    if (!stack) return nbytes;
    const slot = state !== "warm" ? 0 : 1;
    let head = 0, body = nbytes;
    if (stack.http === "h2" || stack.http === "grpc") {
      const message = nbytes + stack.message_prefix_bytes;
      body = message + Math.max(1, Math.ceil(message / H2_MAX_FRAME_BYTES)) * H2_FRAME_HEADER_BYTES;
      const trailers = stack.trailer_block_bytes[slot];
      if (trailers) body += H2_FRAME_HEADER_BYTES + trailers;
      head = H2_FRAME_HEADER_BYTES + stack.header_block_bytes[slot];
      if (state !== "warm") head += stack.preface_bytes;
    }
    const tls = stack.tls;
    if (!tls) return head + body;
    const tickets = state === "cold" ? tls.post_handshake_bytes
      : state === "resumed" ? tls.resumed_post_handshake_bytes : 0;
    return tickets + head + records(head, tls.record_overhead_bytes) + body +
      records(body, tls.record_overhead_bytes);
  }
  function firstFlightSegments(tls, mss) {
    const front = tls.server_first_flight_bytes - tls.first_flight_tail_bytes;
    return [Math.min(front, OPENSSL_WRITE_PIECE_BYTES), Math.max(0, front - OPENSSL_WRITE_PIECE_BYTES),
            tls.first_flight_tail_bytes].reduce((sum, w) => sum + Math.ceil(w / mss), 0);
  }
  function overflowRtts(count, initialWindow) {
    let extra = 0, window = initialWindow;
    while (count > window) {
      count -= window;
      window *= 2;
      extra += 1;
    }
    return extra;
  }
  function handshake(stack, state, mss, initialWindow, headerBytes) {
    const tls = stack ? stack.tls : null;
    if (!tls || state === "warm") return {rtts: 0, overflow_rtts: 0, bytes: 0, cpu_s: 0.0};
    const resumed = state === "resumed";
    const flights = resumed ? [tls.resumed_server_bytes, tls.resumed_client_bytes]
      : [tls.server_bytes, tls.client_bytes];
    const cpuMs = resumed ? tls.resumed_client_cpu_ms + tls.resumed_server_cpu_ms
      : tls.client_cpu_ms + tls.server_cpu_ms;
    const packets = flights.reduce((sum, b) => sum + Math.ceil(b / mss), 0);
    return {rtts: resumed ? tls.resumed_handshake_rtts : tls.handshake_rtts,
            overflow_rtts: resumed ? 0 : overflowRtts(firstFlightSegments(tls, mss), initialWindow),
            bytes: flights[0] + flights[1] + packets * headerBytes, cpu_s: cpuMs / 1e3};
  }
  // As stacks.record_cpu_s: both ends sealing and opening a response's records.
  function recordCpuS(stack, nbytes) {
    const tls = stack ? stack.tls : null;
    if (!tls) return 0.0;
    return nbytes / 1e6 * ((tls.seal_cpu_ms_per_mb || 0) + (tls.open_cpu_ms_per_mb || 0)) / 1e3;
  }

  function bbrProbeRtt(seconds, rttS) {
    return Math.floor(seconds / BBR_MIN_RTT_WINDOW_S) * (rttS + Math.max(BBR_PROBE_RTT_S, rttS));
  }

  function delayedAckStall(nbytes, link, state) {
    if (link.delayed_ack_s <= 0 || link.nagle === "off") return 0.0;
    const count = segments(nbytes, link.mss_bytes);
    if (link.nagle === "classic") {
      return count > 1 && nbytes % link.mss_bytes ? link.delayed_ack_s : 0.0;
    }
    if (link.header_write === "separate" && nbytes > 0 && nbytes < link.mss_bytes &&
        state === "warm") {
      return link.delayed_ack_s;
    }
    return 0.0;
  }

  // Seconds to move one response of nbytes over link, split as tcp.transfer splits it.
  function transfer(nbytes, link, bandwidthBps, connection) {
    const bandwidth = bandwidthBps != null ? bandwidthBps : link.bandwidth_bps;
    const state = connection || link.connection;
    const rtt = link.rtt_s;
    const spec = link.stack_spec;
    const shake = handshake(spec, state, link.mss_bytes, link.initial_window_segments,
                            link.header_bytes);
    let tlsRtts = 0;
    if (state !== "warm") {
      tlsRtts = state === "resumed" && shake.rtts ? shake.rtts : link.tls_handshake_rtts;
      tlsRtts += shake.overflow_rtts;
    }
    let setupRtts = state !== "warm" ? link.tcp_handshake_rtts + tlsRtts : 0;
    if (link.auth_challenge) setupRtts += 1;
    const payload = nbytes;
    const recordCpu = recordCpuS(spec, nbytes);
    nbytes = responseBytes(spec, nbytes, state);
    const serialization = wireBytes(nbytes, link.mss_bytes, link.header_bytes) * 8 / bandwidth;
    const startsSlow = link.slow_start && !(state === "warm" && link.warm_keeps_window);
    let idle = 0.0, stalls = 0;
    if (link.slow_start && rtt > 0 && h2Limits(spec, payload, rtt, bandwidth, link.mss_bytes)) {
      [idle, stalls] = h2WindowStalls(payload, spec, state, rtt, bandwidth, link.mss_bytes,
                                      link.initial_window_segments, link.header_bytes,
                                      serialization, link.warm_keeps_window);
    } else if (startsSlow && link.congestion === "bbr" && nbytes > 0 && rtt > 0) {
      const [startup, rounds] = bbrStartup(nbytes, rtt, bandwidth, link.mss_bytes,
                                           link.initial_window_segments, link.header_bytes);
      idle = Math.max(0.0, startup - rtt / 2 - serialization);
      stalls = rounds - 1;
    } else if (link.congestion === "bbr" && link.slow_start && state === "warm" && nbytes > 0 &&
               rtt > 0) {
      const elapsed = bbrWarm(nbytes, rtt, bandwidth, link.mss_bytes,
                              link.initial_window_segments, link.header_bytes);
      idle = Math.max(0.0, elapsed - rtt / 2 - serialization);
    } else if (startsSlow) {
      [idle, stalls] = slowStartStalls(nbytes, rtt, bandwidth, link.mss_bytes,
                                       link.initial_window_segments, link.header_bytes);
    }
    const parts = {
      setup: setupRtts * rtt + shake.bytes * 8 / bandwidth,
      rounds: rtt + idle,
      serialization,
      stall: delayedAckStall(nbytes, link, state),
      round_trips: 1 + stalls,
      handshake_rtts: tlsRtts,
      handshake_cpu: shake.cpu_s,
      record_cpu: recordCpu,
    };
    if (link.slow_start && link.congestion === "bbr") {
      parts.rounds += bbrProbeRtt(parts.setup + parts.rounds + parts.serialization, rtt);
    }
    parts.total = parts.setup + parts.rounds + parts.serialization + parts.stall;
    return parts;
  }

  // One call's seconds, split as model.call splits them.
  function call(p, link, bandwidthBps, connection) {
    const wire = transfer(p.wire_bytes, link, bandwidthBps, connection);
    const hops = link.middleware_hops;
    const hopWire = hops * transfer(p.wire_bytes, link, bandwidthBps, "warm").total;
    const parts = {
      encode: p.encode,
      compress: p.compress,
      wire: wire.total + hopWire,
      decompress: p.decompress,
      decode: p.decode,
      hops_cpu: hops * (p.decompress + p.decode + p.encode + p.compress),
      handshake_cpu: wire.handshake_cpu,
      record_cpu: wire.record_cpu,
      round_trips: wire.round_trips,
    };
    const tlsCpu = parts.handshake_cpu + parts.record_cpu;
    parts.cpu = p.encode + p.compress + p.decompress + p.decode + parts.hops_cpu + tlsCpu;
    parts.total = parts.cpu + parts.wire;
    parts.cpu_share = parts.total > 0 ? parts.cpu / parts.total : NaN;
    if (p.cpu_low != null && p.cpu_high != null) {
      parts.total_low = p.cpu_low * (1 + hops) + tlsCpu + parts.wire;
      parts.total_high = p.cpu_high * (1 + hops) + tlsCpu + parts.wire;
    }
    // p.settled: the call's benchmarks a racing run settled (model.Pairing.settled).
    parts.settled = p.settled != null && p.settled.length > 0;
    return parts;
  }

  // True when two calls' 95 % intervals of the total overlap, as model.tied: the data
  // cannot rank them. Calls without intervals are never tied, and neither is a call with a
  // settled part: racing settled it because it lost its comparison by a margin, and its
  // interval is the min-max of its few rounds, wider than 95 % would be.
  function tied(a, b) {
    if (a.settled || b.settled) return false;
    if (a.total_low === undefined || b.total_low === undefined) return false;
    return a.total_low <= b.total_high && b.total_low <= a.total_high;
  }

  // Bandwidth (bit/s) at which wire time equals CPU time on this link, as model.crossover:
  // [bandwidth or null, why].
  function crossover(p, link, low = 1e3, high = 1e13, steps = 240) {
    const excess = (bandwidth) => {
      const parts = call(p, link, bandwidth);
      return parts.wire - parts.cpu;
    };
    let previous = null;
    for (let i = 0; i <= steps; i++) {
      const bandwidth = low * (high / low) ** (i / steps);
      if (excess(bandwidth) <= 0) {
        if (previous === null) return [bandwidth, `CPU > wire even at ${low.toFixed(0)} bit/s`];
        let lo = previous, hi = bandwidth;
        for (let k = 0; k < 60; k++) {
          const mid = Math.sqrt(lo * hi);
          if (excess(mid) <= 0) hi = mid; else lo = mid;
        }
        return [hi, ""];
      }
      previous = bandwidth;
    }
    return [null, "latency floor above CPU"];
  }

  function serializationCrossover(p) {
    const cpu = p.encode + p.compress + p.decompress + p.decode;
    return cpu > 0 ? p.wire_bytes * 8 / cpu : NaN;
  }

  // [[pairing, parts]] fastest first (a stable sort, as Python's sorted).
  function rank(pairings, link) {
    return pairings.map((p) => [p, call(p, link)]).sort((a, b) => a[1].total - b[1].total);
  }

  return { segments, wireBytes, slowStartStalls, bbrStartup, delayedAckStall, transfer, call, crossover, serializationCrossover, rank, tied };
})();
