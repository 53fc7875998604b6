#include "wire/http_payload.hpp"

#include <stdexcept>
#include <variant>

#include "codecs/compress/compressor.hpp"
#include "codecs/registry.hpp"
#include "generators/record_diff.hpp"
#include "wire/http_client.hpp"
#include "wire/link.hpp"

namespace wire {
namespace {

std::string page_key(const HttpSpec& spec) {
  return spec.dataset + "/" + std::to_string(spec.rows) + "/" + std::to_string(spec.seed) + "/" +
         std::to_string(spec.skip) + "/" + std::to_string(spec.page_rows());
}

std::unique_ptr<wb::Compressor> make_compressor(const std::string& name) {
  for (const auto& c : wb::compressors()) {
    if (c.name == name) return c.make();
  }
  throw std::invalid_argument("no compressor " + name);
}

double ms_since(std::int64_t from_ns) {
  return static_cast<double>(monotonic_ns() - from_ns) / 1e6;
}

}  // namespace

std::shared_ptr<const wb::Records> PageStore::records_for(const HttpSpec& spec) {
  const std::string key = page_key(spec);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  }
  auto records = std::make_shared<const wb::Records>(page_records(spec));
  std::lock_guard<std::mutex> lock(mutex_);
  return cache_.emplace(key, std::move(records)).first->second;
}

EncodedBody encode_body(const HttpSpec& spec, const wb::Records& records) {
  EncodedBody out;
  auto encoder = wb::find_codec(spec.format, wb::Role::encode, spec.encoder)->make_encoder();
  std::string raw;
  wb::FeedPage page;
  page.next_link = spec.next_link();
  const std::int64_t t0 = monotonic_ns();
  encoder->encode_page(records, page, raw);
  const std::int64_t t1 = monotonic_ns();
  out.encode_ns = t1 - t0;
  out.raw_bytes = raw.size();
  if (spec.encoding == "identity") {
    out.body = std::move(raw);
  } else {
    auto compressor = make_compressor(spec.encoding);
    const std::int64_t t2 = monotonic_ns();
    compressor->compress(raw, out.body);
    out.compress_ns = monotonic_ns() - t2;
    out.coding = spec.encoding;
  }
  return out;
}

const wb::Records& BodyChecker::expected(const HttpSpec& spec) {
  const std::string key = page_key(spec);
  auto it = expected_.find(key);
  if (it == expected_.end()) it = expected_.emplace(key, page_records(spec)).first;
  return it->second;
}

wb::Decoder& BodyChecker::decoder(const HttpSpec& spec) {
  const std::string key = spec.format + "/" + spec.decoder;
  auto it = decoders_.find(key);
  if (it == decoders_.end()) {
    const wb::CodecEntry* entry = wb::find_codec(spec.format, wb::Role::decode, spec.decoder);
    if (!entry) throw std::invalid_argument("no " + spec.format + " decoder " + spec.decoder);
    it = decoders_.emplace(key, entry->make_decoder()).first;
  }
  return *it->second;
}

void BodyChecker::check(const HttpSpec& spec, const std::string& type, const std::string& coding,
                        const std::string& body, HttpResult& r) {
  r.content_type = type;
  if (r.content_type != content_type(spec.format)) {
    r.error = "Content-Type is '" + r.content_type + "', the " + spec.format + " media type is '" +
              content_type(spec.format) + "'";
    return;
  }
  const std::string want_coding = spec.encoding == "identity" ? "" : spec.encoding;
  if (coding != want_coding) {
    r.error = "Content-Encoding is '" + coding + "', asked for " + spec.encoding;
    return;
  }
  try {
    std::string raw;
    const std::string* payload = &body;
    if (!coding.empty()) {
      auto c = make_compressor(coding);
      const std::int64_t t0 = monotonic_ns();
      c->decompress(body, raw);
      r.decompress_ms = ms_since(t0);
      payload = &raw;
    }
    r.raw_bytes = payload->size();
    // The decoders read up to kInputPadding bytes past the end: the copy
    // that gives them room is not timed (a client would read into such a
    // buffer in the first place).
    const std::string input = wb::padded_copy(*payload);
    const wb::Records& want = expected(spec);
    wb::Records got = wb::empty_records(wb::dataset_of(want));
    wb::Decoder& d = decoder(spec);
    const std::int64_t t0 = monotonic_ns();
    d.decode(std::string_view(input.data(), payload->size()), got);
    r.decode_ms = ms_since(t0);
    r.rows = static_cast<int>(std::visit([](const auto& v) { return v.size(); }, got));
    const bool exact = wb::find_codec(spec.format, wb::Role::decode, spec.decoder)->exact;
    r.next_link = d.page().next_link;
    if (auto diff = wb::first_difference(
            want, got, exact ? wb::DoubleMatch::identical : wb::DoubleMatch::close)) {
      r.error = "decoded rows differ from the dataset: " + *diff;
    } else if (r.next_link != spec.next_link()) {
      r.error = "the decoder read the next link '" + r.next_link + "', the server wrote '" +
                spec.next_link() + "'";
    } else {
      r.checked = true;
    }
  } catch (const wb::DecodeError& e) {
    r.error = e.describe();
  } catch (const std::exception& e) {
    r.error = e.what();
  }
}

}  // namespace wire
