// A request's result as one JSON line of `wirebench_wire --http` (fields in
// docs/wire-http.md; the "tls" object in docs/wire-tls.md).
#include <sstream>
#include <string>

#include "wire/http_client.hpp"
#include "wire/testbed.hpp"

namespace wire {

std::string HttpResult::tls_json() const {
  if (!new_connection || tls.start_ns == 0) return "null";
  std::ostringstream o;
  o << "{\"version\": " << json_string(tls.version) << ", \"cipher\": " << json_string(tls.cipher)
    << ", \"group\": " << json_string(tls.group) << ", \"done\": " << (tls.done ? "true" : "false")
    << ", \"resumed\": " << (tls.resumed ? "true" : "false")
    << ", \"server_resumed\": " << (server_tls_resumed ? "true" : "false")
    << ", \"handshake_ms\": " << (tls.done ? fixed(tls.ms()) : "null")
    << ", \"handshake_rtts\": " << tls.flights_rtts << ", \"handshake_rtts_by_time\": "
    << (tls.done && rtt_ms > 0 ? fixed(tls.ms() / rtt_ms, 2) : "null")
    << ", \"client_bytes\": " << tls.bytes_sent << ", \"server_bytes\": " << tls.bytes_received
    << ", \"server_first_flight_bytes\": " << tls.server_first_flight_bytes
    << ", \"post_handshake_bytes\": " << tls.post_handshake_bytes
    << ", \"client_cpu_ms\": " << fixed(tls.cpu_ms)
    << ", \"server_cpu_ms\": " << fixed(server_tls_cpu_ms);
  if (!early_data.empty()) {
    // 0-RTT: what the request's first byte waited for, from connect().
    o << ", \"early_data\": " << json_string(early_data)
      << ", \"server_early_data\": " << json_string(server_early_data)
      << ", \"early_data_bytes\": " << early_data_bytes
      << ", \"early_data_record_bytes\": " << tls.early_data_sent
      << ", \"early_data_resent\": " << (early_data_resent ? "true" : "false")
      << ", \"first_byte_ms\": " << fixed(first_byte_ms) << ", \"first_byte_rtts\": "
      << (rtt_ms > 0 && status ? fixed(first_byte_ms / rtt_ms, 2) : "null");
  }
  o << "}";
  return o.str();
}

std::string HttpResult::json(const HttpSpec& spec, const std::string& series, int index) const {
  std::ostringstream o;
  o << "{\"type\": \"http_request\", \"series\": " << json_string(series)
    << ", \"index\": " << index << ", \"dataset\": " << json_string(spec.dataset)
    << ", \"rows\": " << spec.page_rows() << ", \"format\": " << json_string(spec.format)
    << ", \"encoder\": " << json_string(spec.encoder)
    << ", \"decoder\": " << json_string(spec.decoder)
    << ", \"encoding\": " << json_string(spec.encoding)
    << ", \"connection\": " << json_string(new_connection ? "new" : "kept-alive")
    << ", \"handshake_ms\": " << (new_connection ? fixed(handshake_ms) : "null")
    << ", \"congestion\": " << (new_connection ? json_string(congestion) : "null")
    << ", \"server_congestion\": "
    << (server_congestion.empty() ? "null" : json_string(server_congestion))
    << ", \"status\": " << status << ", \"attempts\": " << attempts
    << ", \"challenge_ms\": " << (attempts > 1 ? fixed(challenge_ms) : "null")
    << ", \"server_encode_ms\": " << fixed(server_encode_ms)
    << ", \"server_compress_ms\": " << fixed(server_compress_ms)
    << ", \"first_byte_ms\": " << fixed(first_byte_ms)
    << ", \"last_byte_ms\": " << fixed(last_byte_ms)
    << ", \"decompress_ms\": " << fixed(decompress_ms) << ", \"decode_ms\": " << fixed(decode_ms)
    << ", \"total_ms\": " << fixed(total_ms) << ", \"body_bytes\": " << body_bytes
    << ", \"raw_bytes\": " << raw_bytes << ", \"decoded_rows\": " << rows
    << ", \"checked\": " << (checked ? "true" : "false")
    << ", \"next_link\": " << (next_link.empty() ? "null" : json_string(next_link))
    << ", \"link_drops\": " << link_drops << ", \"stack\": " << json_string(stack)
    << ", \"tls\": " << tls_json()
    << ", \"error\": " << (error.empty() ? "null" : json_string(error)) << "}";
  return o.str();
}

}  // namespace wire
