// A gRPC call as one JSON line of `wirebench_wire --http SPEC --grpc` (fields
// in docs/wire-grpc.md), its line between the client process and the parent,
// and what a spec must be for gRPC. Built with or without gRPC.
#include <sstream>
#include <stdexcept>

#include "wire/grpc_call.hpp"

namespace wire {

std::string GrpcResult::json(const HttpSpec& spec, const std::string& series, int index) const {
  std::ostringstream o;
  o << "{\"type\": \"grpc_call\", \"series\": " << json_string(series) << ", \"index\": " << index
    << ", \"stack\": " << json_string(GrpcConfig::stack())
    << ", \"dataset\": " << json_string(spec.dataset) << ", \"rows\": " << spec.page_rows()
    << ", \"format\": " << json_string(spec.format)
    << ", \"encoder\": " << json_string(spec.encoder)
    << ", \"compression\": " << json_string(compression)
    << ", \"connection\": " << json_string(new_channel ? "new" : "kept-alive")
    << ", \"connect_ms\": " << (new_channel ? fixed(connect_ms) : "null")
    << ", \"server_encode_ms\": " << fixed(server_encode_ms)
    << ", \"first_byte_ms\": " << fixed(first_byte_ms)
    << ", \"last_byte_ms\": " << fixed(last_byte_ms) << ", \"convert_ms\": " << fixed(convert_ms)
    << ", \"total_ms\": " << fixed(total_ms) << ", \"message_bytes\": " << message_bytes
    << ", \"link_up_bytes\": " << link_up_bytes << ", \"link_down_bytes\": " << link_down_bytes
    << ", \"decoded_rows\": " << rows << ", \"checked\": " << (checked ? "true" : "false")
    << ", \"link_drops\": " << link_drops
    << ", \"error\": " << (error.empty() ? "null" : json_string(error)) << "}";
  return o.str();
}

std::string GrpcResult::serialize() const {
  std::ostringstream o;
  o.precision(17);
  o << new_channel << ' ' << connect_ms << ' ' << first_byte_ms << ' ' << last_byte_ms << ' '
    << convert_ms << ' ' << total_ms << ' ' << server_encode_ms << ' ' << message_bytes << ' '
    << rows << ' ' << checked << ' ' << (compression.empty() ? "-" : compression) << ' ';
  std::string line = o.str();
  for (const char c : error) line += c == '\n' ? ' ' : c;  // one line
  return line;
}

GrpcResult GrpcResult::parse(const std::string& line) {
  GrpcResult r;
  std::istringstream in(line);
  in >> r.new_channel >> r.connect_ms >> r.first_byte_ms >> r.last_byte_ms >> r.convert_ms >>
      r.total_ms >> r.server_encode_ms >> r.message_bytes >> r.rows >> r.checked >> r.compression;
  if (!in) throw std::runtime_error("the gRPC client sent a result that is not one: " + line);
  if (r.compression == "-") r.compression.clear();
  in.get();  // the space before the error
  std::getline(in, r.error);
  return r;
}

void check_grpc_spec(HttpSpec& spec) {
  if (spec.format != "protobuf") {
    throw std::invalid_argument(
        "--grpc answers with the protobuf codec's messages: give format=protobuf in --http");
  }
  if (spec.encoding != "identity") {
    throw std::invalid_argument(
        "--grpc compresses with gRPC's own message compression (--grpc-compression), not "
        "encoding=" +
        spec.encoding);
  }
  if (spec.challenge || spec.paging || !spec.fault.empty()) {
    throw std::invalid_argument("--grpc: challenge, paging and fault are HTTP/1.1's alone");
  }
  validate(spec);
}

}  // namespace wire
