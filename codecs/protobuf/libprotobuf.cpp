// libprotobuf's generated C++ (protoc 3.21): the encoder fills reused feed
// messages and serializes them; the decoders parse with the limits set for
// untrusted input, on the heap (one reused feed message) or in an Arena (a
// fresh arena per call over a reused first block), then copy into records.
#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/stubs/logging.h>

#include <climits>
#include <memory>
#include <tuple>
#include <utility>

#include "codecs/protobuf/feed_type.hpp"
#include "codecs/protobuf/pb_rows.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::protobuf {
namespace {

// Depth of messages and groups the parser follows: a feed nests three deep
// (feed, row, Timestamp or Contact); what is deeper is unknown fields.
constexpr int kRecursionLimit = 16;

// libprotobuf says why a parse failed only in its log (invalid UTF-8 in a
// proto3 string, for one): the last message of this thread is kept for the
// error instead of going to stderr.
thread_local std::string last_log;
void keep_log(google::protobuf::LogLevel, const char*, int, const std::string& message) {
  last_log = message;
}

// Parses input into message with the limits set; throws DecodeError.
void parse(std::string_view library, google::protobuf::MessageLite& message,
           std::string_view input) {
  static const bool handler_set = (google::protobuf::SetLogHandler(&keep_log), true);
  (void)handler_set;
  if (input.size() > INT_MAX) throw DecodeError(library, "payload over 2 GiB");
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(input.data()),
                                            static_cast<int>(input.size()));
  in.SetRecursionLimit(kRecursionLimit);
  in.SetTotalBytesLimit(static_cast<int>(input.size()));
  last_log.clear();
  if (!message.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    throw DecodeError(library, "not a valid " + message.GetTypeName() +
                                   (last_log.empty() ? std::string(" (malformed, truncated or "
                                                                   "nested past 16)")
                                                     : ": " + last_log));
}

// Rows of another dataset sit under another field number: unknown here.
template <class Feed>
void require_rows_or_nothing(std::string_view library, const Feed& feed, int rows) {
  if (rows == 0 && feed.GetReflection()->GetUnknownFields(feed).field_count() > 0)
    throw DecodeError(library, "no " + feed.GetTypeName() +
                                   " rows, only unknown fields (a payload of another dataset?)");
}

class Encoder : public EncoderFor<Encoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    auto& feed = std::get<typename Pb<T>::Feed>(feeds_);
    rows_to_pb(rows, *Pb<T>::rows(feed));
    if (!feed.SerializeToString(&out))
      throw std::runtime_error("libprotobuf: serialization failed");
  }

 private:
  std::tuple<pb::MessageFeed, pb::AirportFeed, pb::ScienceFeed> feeds_;
};

constexpr std::string_view kHeap = token::decoder_protobuf_libprotobuf;
constexpr std::string_view kArena = token::decoder_protobuf_libprotobuf_arena;

class HeapDecoder : public DecoderFor<HeapDecoder> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& out) {
    auto& feed = std::get<typename Pb<T>::Feed>(feeds_);
    parse(kHeap, feed, input);
    const auto& rows = Pb<T>::rows(std::as_const(feed));
    require_rows_or_nothing(kHeap, feed, rows.size());
    rows_from_pb(kHeap, rows, out);
  }
  std::size_t parse_only(std::string_view input) override {
    return with_feed_type(input, [&]<class T>() {
      auto& feed = std::get<typename Pb<T>::Feed>(feeds_);
      parse(kHeap, feed, input);
      return static_cast<std::size_t>(Pb<T>::rows(std::as_const(feed)).size()) + 1;
    });
  }

 private:
  std::tuple<pb::MessageFeed, pb::AirportFeed, pb::ScienceFeed> feeds_;
};

class ArenaDecoder : public DecoderFor<ArenaDecoder> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& out) {
    Arena arena(*this);
    auto* feed = google::protobuf::Arena::CreateMessage<typename Pb<T>::Feed>(&arena.arena);
    parse(kArena, *feed, input);
    const auto& rows = Pb<T>::rows(std::as_const(*feed));
    require_rows_or_nothing(kArena, *feed, rows.size());
    rows_from_pb(kArena, rows, out);
  }
  std::size_t parse_only(std::string_view input) override {
    return with_feed_type(input, [&]<class T>() {
      Arena arena(*this);
      auto* feed = google::protobuf::Arena::CreateMessage<typename Pb<T>::Feed>(&arena.arena);
      parse(kArena, *feed, input);
      return static_cast<std::size_t>(Pb<T>::rows(std::as_const(*feed)).size()) + 1;
    });
  }

 private:
  // An arena over the decoder's first block, which grows to the most the
  // arenas of earlier calls took, so a payload like the last allocates
  // nothing.
  struct Arena {
    ArenaDecoder& owner;
    google::protobuf::Arena arena;
    explicit Arena(ArenaDecoder& d) : owner(d), arena(options(d)) {}
    ~Arena() {
      const std::size_t used = arena.SpaceAllocated();
      if (used > owner.block_size_) owner.wanted_ = used;
    }
    static google::protobuf::ArenaOptions options(ArenaDecoder& d) {
      if (d.wanted_ > d.block_size_) {
        d.block_.reset(new char[d.wanted_]);
        d.block_size_ = d.wanted_;
      }
      google::protobuf::ArenaOptions o;
      o.initial_block = d.block_.get();
      o.initial_block_size = d.block_size_;
      return o;
    }
  };
  std::unique_ptr<char[]> block_;
  std::size_t block_size_ = 0;
  std::size_t wanted_ = 0;
};

}  // namespace
}  // namespace wb::protobuf

WB_DEFINE_ENCODER(protobuf, libprotobuf, wb::protobuf::Encoder)
WB_DEFINE_DECODER(protobuf, libprotobuf, wb::protobuf::HeapDecoder)
WB_DEFINE_DECODER(protobuf, libprotobuf_arena, wb::protobuf::ArenaDecoder)
