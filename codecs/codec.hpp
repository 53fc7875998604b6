// The one seam: every wire format x library is an Encoder and/or a Decoder.
// Adapters implement encode_rows/decode_rows once as templates over the record
// type (see EncoderFor/DecoderFor) and are listed in codecs/registry.def.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "generators/datasets.hpp"
#include "generators/model.hpp"

namespace wb {

// Every decoder may read this many bytes past the end of its input: payloads
// are kept in buffers with this much slack so simdjson can parse in place.
inline constexpr std::size_t kInputPadding = 64;

// A bad payload: which library said so, what, and where (byte offset from the
// start of the input, or -1 when the library does not tell).
class DecodeError : public std::runtime_error {
 public:
  DecodeError(std::string_view library, const std::string& what, long long offset = -1)
      : std::runtime_error(what), library_(library), offset_(offset) {}
  const std::string& library() const { return library_; }
  long long offset() const { return offset_; }
  // "rapidjson-sax: Missing a comma or '}' after an object member (at byte 17)"
  std::string describe() const;

 private:
  std::string library_;
  long long offset_;
};

// An error inside one record: a value the model cannot hold, a record with
// none of its members. Binders know the member but not where they are in the
// payload; DecoderFor::decode below adds which row, as every binder appends a
// row before binding into it.
class RowError : public DecodeError {
 public:
  using DecodeError::DecodeError;
};

// A figure an encoder knows about its last payload besides its size (wcfjson:
// infoset_bytes); encode benchmarks report each as a counter.
struct Counter {
  std::string_view name;
  double value;
};

// What an OData feed says about its page besides the rows: the link to the
// next page (server-driven paging: atom's <link rel="next">, the JSON
// dialects' __next, odata.nextLink, @odata.nextLink) and the count of the
// whole collection ($inlinecount, $count). Formats without feeds ignore it.
struct FeedPage {
  std::string next_link;  // empty: the last page
  long long count = -1;   // -1: not given
  bool operator==(const FeedPage&) const = default;
};

class Encoder {
 public:
  virtual ~Encoder() = default;
  // Replaces out with the payload. out keeps its capacity across calls.
  virtual void encode(const Records& records, std::string& out) = 0;
  // encode() of one page of a feed: the payload carries the page's next
  // link and count where the format has them (a service's paged answer).
  void encode_page(const Records& records, const FeedPage& page, std::string& out) {
    page_ = page;
    try {
      encode(records, out);
    } catch (...) {
      page_ = {};
      throw;
    }
    page_ = {};
  }
  // Appends figures about the last encode(); called outside timed loops.
  virtual void report_counters(std::vector<Counter>&) {}

 protected:
  // The page encode_page() is writing; empty for a plain encode().
  const FeedPage& page() const { return page_; }

 private:
  FeedPage page_;
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Replaces the rows of out (whose alternative selects the dataset) with the
  // decoded rows. Throws DecodeError on bad input. input.data() is followed by
  // at least kInputPadding readable bytes.
  virtual void decode(std::string_view input, Records& out) = 0;
  // Parses without binding (the library's own cost). Throws DecodeError.
  // Returns a figure of the parse the library has at hand (a size or name
  // length of the root, a count of events, the bytes consumed; never 0 for a
  // document): the timed loop consumes it, so no part of the parse can be
  // optimized away, and reading it costs no walk over the document.
  virtual std::size_t parse_only(std::string_view input) = 0;
  // What the library parsed, as the project's canonical text: a JSON
  // decoder's value (codecs/json/canonical.hpp), an XML decoder's infoset
  // (codecs/xml/canonical.hpp), so that two libraries that read a document
  // differently give different text. Replaces out; throws DecodeError as
  // parse_only() does. False for a format without a canonical form (the
  // binary formats). Never timed: the verdict of `bench --payload` compares it.
  virtual bool canonical(std::string_view input, std::string& out) {
    (void)input;
    out.clear();
    return false;
  }
  // The next link and count the last decode() found in the feed (formats
  // without feeds, and feeds without them, leave it empty): what a client
  // pages with.
  const FeedPage& page() const { return page_; }

 protected:
  // Where an adapter's binder records the feed's page (codecs/json/feed.hpp,
  // codecs/xml/binder.hpp); DecoderFor::decode clears it first.
  FeedPage* page_out() { return &page_; }

 private:
  FeedPage page_;
};

// The in-place reader of a zero-copy format (FlatBuffers, Cap'n Proto): what
// a service that only reads a few fields, or forwards the rest, gets from the
// format. The benchmarks time `access` (verify, then read every field of
// every row in place, strings as views) and `access-unverified` (the same
// read without the verifier: for bytes the reader already trusts, never the
// default). Registered with WB_ACCESSOR; see AccessorFor.
class Accessor {
 public:
  virtual ~Accessor() = default;
  // Verifies input as the library's verifier does (unless verify is false),
  // then reads every field of every row of dataset kind in place and returns
  // a fold of them (codecs/common/access_fold.hpp: numbers bit for bit,
  // each string's size and its first and last byte). Throws DecodeError when
  // the verifier refuses the bytes or they hold another dataset's feed.
  // With verify false the input must be a payload that verified.
  virtual std::uint64_t access(std::string_view input, DatasetKind kind, bool verify) = 0;
  // The same verified walk, folding every byte of every string:
  // content_digest(records) when the payload holds those records. For the
  // checks before timing and the tests.
  virtual std::uint64_t content_digest(std::string_view input, DatasetKind kind) = 0;
};

// CRTP helpers: an adapter writes
//   template <class T> void encode_rows(const std::vector<T>&, std::string&);
//   template <class T> void decode_rows(std::string_view, std::vector<T>&);
// and the dataset dispatch is done here, once. The generic entity dataset is
// defined per format (atom and json, see DatasetInfo::formats): an adapter
// of such a format opts in with `static constexpr bool kEntityRows = true;`;
// for the others entity rows never reach encode_rows/decode_rows.
template <class Impl>
inline constexpr bool takes_entity_rows = [] {
  if constexpr (requires { Impl::kEntityRows; })
    return static_cast<bool>(Impl::kEntityRows);
  else
    return false;
}();

inline constexpr std::string_view kNoEntityRows =
    "the entity dataset is not defined for this format";

template <class Impl>
class EncoderFor : public Encoder {
 public:
  void encode(const Records& records, std::string& out) final {
    std::visit(
        [&](const auto& rows) {
          using Rows = std::decay_t<decltype(rows)>;
          if constexpr (std::is_same_v<Rows, std::vector<EntityRow>> && !takes_entity_rows<Impl>)
            throw std::invalid_argument(std::string(kNoEntityRows));
          else
            static_cast<Impl*>(this)->encode_rows(rows, out);
        },
        records);
  }
};

template <class Impl>
class DecoderFor : public Decoder {
 public:
  void decode(std::string_view input, Records& out) final {
    std::visit(
        [&](auto& rows) {
          using Rows = std::decay_t<decltype(rows)>;
          rows.clear();
          *this->page_out() = {};
          if constexpr (std::is_same_v<Rows, std::vector<EntityRow>> && !takes_entity_rows<Impl>)
            throw DecodeError("entity", std::string(kNoEntityRows));
          else
            try {
              static_cast<Impl*>(this)->decode_rows(input, rows);
            } catch (const RowError& e) {
              throw DecodeError(
                  e.library(), std::string(e.what()) + " (row " + std::to_string(rows.size()) + ")",
                  e.offset());
            }
        },
        out);
  }
};

// A payload buffer with kInputPadding bytes of slack after the data.
std::string padded_copy(std::string_view bytes);

// Strips a UTF-8 byte order mark, which every decoder accepts.
inline std::string_view skip_bom(std::string_view s) {
  if (s.size() >= 3 && s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
  return s;
}

}  // namespace wb
