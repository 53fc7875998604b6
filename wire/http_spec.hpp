#pragma once

// What one HTTP exchange asks for: the rows (a page of a generated dataset),
// the wire format, the serializer on the server, the parser on the client,
// the content coding and how the call is made. The client sends it as the
// query of GET /rows, the server reads it back from there, and --http takes
// it as KEY=VALUE,... (parse_http_spec).

#include <cstdint>
#include <map>
#include <string>

#include "generators/datasets.hpp"
#include "generators/model.hpp"

namespace wire {

inline constexpr std::uint16_t kHttpPort = 8080;

struct HttpSpec {
  std::string dataset = "science";
  int rows = 1000;  // the rows generated: the whole "table"
  int skip = 0;     // the page: rows [skip, skip + top) of them
  int top = -1;     // -1: to the end
  std::uint64_t seed = wb::kDefaultSeed;
  std::string format = "json";
  std::string encoder = "reference";  // library token of the server's encoder
  std::string decoder;                // the client's; empty: the format's first exact decoder
  std::string encoding = "identity";  // Content-Encoding: identity, gzip, br or zstd
  // The server answers 401 to a request without credentials; the client
  // sends none at first (no pre-authentication) and retries with them.
  bool challenge = false;
  // Fault injection for the error paths: "die" makes the server drop the
  // connection halfway through the body.
  std::string fault;
  // Server-driven paging (OData formats): a page that is not the last
  // carries the absolute URL of the next one (next_link below), which the
  // client follows (HttpClient::follow) instead of asking for a page number.
  bool paging = false;
  int requests = 1;  // on one kept-alive connection
  // Each request on a new connection (the client's choice, like requests):
  // a cold TCP (and TLS) handshake per request, or a resumed TLS one.
  bool reconnect = false;
  // Calls made and checked before the timed ones, each on a connection of its
  // own that is closed before they start: the timed cold call is then a new
  // connection from a process that has made one, as a service's client is,
  // not the process's first exchange, which pays its one-time costs (3 ms
  // more on wan for plain HTTP/1.1, measured). Their lines say "warmup".
  int warmup = 0;

  // The query of GET /rows (every field but decoder, requests, reconnect and
  // warmup).
  std::string query() const;
  // The rows of the page, from generate(dataset, rows, seed).
  int page_rows() const;
  // With paging, the absolute URL of the page after this one; empty for the
  // last page or without paging.
  std::string next_link() const;
};

// "dataset=science,rows=8100,top=1000,format=atom,encoding=zstd": keys are the
// field names above; throws std::invalid_argument naming the bad key or value.
HttpSpec parse_http_spec(const std::string& text);

// Fills spec from query parameters (the server side); throws
// std::invalid_argument as above.
void apply_params(HttpSpec& spec, const std::multimap<std::string, std::string>& params);

// The KEY=VALUE items of a query ("a=1&b=2", no '?'); throws
// std::invalid_argument with an item that has no '='.
std::multimap<std::string, std::string> parse_query(const std::string& query);

// The path and query of a next link the server gave ("/rows?..."), and the
// page it asks for: base (the client's decoder and calls) with the query's
// fields. Throws std::invalid_argument for a link off this service.
struct PageLink {
  std::string path;
  HttpSpec spec;
};
PageLink parse_next_link(const HttpSpec& base, const std::string& link);

// Checks what the server and client need: known dataset, format defining it,
// encoder, decoder and content coding registered, page inside the rows,
// paging only for a format with feeds.
// Resolves an empty decoder. Throws std::invalid_argument.
void validate(HttpSpec& spec);

// The page's records: rows [skip, skip + top) of generate(dataset, rows, seed).
wb::Records page_records(const HttpSpec& spec);

// The Content-Type of a format's responses: its media type in the registry
// ("application/x-protobuf", "application/x-capnp;packing=packed", ...).
const char* content_type(const std::string& format);

}  // namespace wire
