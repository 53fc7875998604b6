#pragma once

// The payload of an exchange, whatever carries it (HTTP/1.1, HTTP/2): the
// server's side encodes a page with the spec's serializer and compresses it
// with its content coding, timed; the client's side decompresses, decodes with
// the spec's parser and checks the rows against the page's records, timed.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "codecs/codec.hpp"
#include "generators/model.hpp"
#include "wire/http_spec.hpp"

namespace wire {

struct HttpResult;

// The page's records, made once per page (a service reads them from its
// store, outside the timed encode); safe from many threads.
class PageStore {
 public:
  std::shared_ptr<const wb::Records> records_for(const HttpSpec& spec);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const wb::Records>> cache_;
};

struct EncodedBody {
  std::string body;    // as sent: encoded, then compressed unless identity
  std::string coding;  // the Content-Encoding, empty for identity
  std::int64_t encode_ns = 0, compress_ns = 0;
  std::size_t raw_bytes = 0;
};

// Encodes records as spec's page (its next link included) and compresses
// them with spec.encoding. Throws what the encoder or compressor throws.
EncodedBody encode_body(const HttpSpec& spec, const wb::Records& records);

// The client's half: one decoder per format and parser, and the records each
// page must decode to, kept across requests.
class BodyChecker {
 public:
  // Checks the answer's Content-Type and Content-Encoding against spec,
  // decompresses and decodes body, and compares the rows with the page's
  // records: sets r's raw_bytes, decompress_ms, decode_ms, rows, next_link,
  // and checked, or its error.
  void check(const HttpSpec& spec, const std::string& content_type, const std::string& coding,
             const std::string& body, HttpResult& r);

 private:
  const wb::Records& expected(const HttpSpec& spec);
  wb::Decoder& decoder(const HttpSpec& spec);

  std::map<std::string, wb::Records> expected_;
  std::map<std::string, std::unique_ptr<wb::Decoder>> decoders_;
};

}  // namespace wire
