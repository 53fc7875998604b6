// Cap'n Proto 0.9.2's generated C++, for two formats: `capnp` (the flat
// array of segments, read in place) and `capnp-packed` (the same message
// with zero bytes packed away: unpacked into a buffer first). The encoders
// build with a MallocMessageBuilder over a reused first segment, one that
// holds the whole message, and write it out; the decoders copy into
// records; the accessors check the whole tree with targetSize() (or not)
// and read every field in place. Every reader runs with the traversal and
// nesting limits set for untrusted input.
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/io.h>

#include <algorithm>
#include <memory>

#include "codecs/capnp/capnp_rows.hpp"
#include "codecs/common/access_fold.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::capnproto {
namespace {

constexpr std::string_view kLibrary = token::decoder_capnp_capnp;
// A feed nests four deep (root, rows, a row, its contacts list, a contact).
constexpr int kNestingLimit = 8;

// A buffer of zeroed 8-byte words (capnp::word is neither copied nor moved).
class Words {
 public:
  kj::ArrayPtr<capnp::word> get(std::size_t n) {
    if (n > size_) {
      data_ = std::make_unique<uint64_t[]>(n);  // zeroed
      size_ = n;
    }
    return kj::arrayPtr(reinterpret_cast<capnp::word*>(data_.get()), size_);
  }

 private:
  std::unique_ptr<uint64_t[]> data_;
  std::size_t size_ = 0;
};

kj::ArrayPtr<const kj::byte> bytes(std::string_view s) {
  return kj::arrayPtr(reinterpret_cast<const kj::byte*>(s.data()), s.size());
}

// The flat array: read in place (copied once when not on an 8-byte
// boundary). A reader may traverse three times the message's words: a
// verified access reads it twice, and shared pointers cannot make more.
struct Flat {
  Words aligned;
  template <class F>
  auto with_reader(std::string_view input, F&& f) {
    if (input.size() % 8 != 0)
      throw DecodeError(kLibrary, "a payload of " + std::to_string(input.size()) +
                                      " bytes is not a whole number of 8-byte words");
    const capnp::word* words = reinterpret_cast<const capnp::word*>(input.data());
    if (reinterpret_cast<std::uintptr_t>(words) % 8 != 0) {
      auto copy = aligned.get(input.size() / 8);
      std::copy_n(input.data(), input.size(), reinterpret_cast<char*>(copy.begin()));
      words = copy.begin();
    }
    const kj::ArrayPtr<const capnp::word> array(words, input.size() / 8);
    capnp::ReaderOptions options;
    options.traversalLimitInWords = 3 * array.size() + 1024;
    options.nestingLimit = kNestingLimit;
    capnp::FlatArrayMessageReader reader(array, options);
    if (reader.getEnd() != array.end())
      throw DecodeError(kLibrary, "bytes after the end of the message",
                        (reader.getEnd() - array.begin()) * 8);
    return f(reader);
  }
  static void write(capnp::MessageBuilder& builder, std::string& out) {
    out.resize(capnp::computeSerializedSizeInWords(builder) * 8);
    kj::ArrayOutputStream stream(kj::arrayPtr(reinterpret_cast<kj::byte*>(out.data()), out.size()));
    capnp::writeMessage(stream, builder);
  }
};

// Packed: unpacked into words capnp allocates, or a reused scratch buffer.
// The unpacked message may be at most 8x the payload (a word per byte):
// the limit capnp checks before it allocates what the segment table claims.
struct Packed {
  Words scratch;
  template <class F>
  auto with_reader(std::string_view input, F&& f) {
    kj::ArrayInputStream stream(bytes(input));
    capnp::ReaderOptions options;
    options.traversalLimitInWords = input.size() + 1024;
    options.nestingLimit = kNestingLimit;
    capnp::PackedMessageReader reader(stream, options, scratch.get(input.size() / 2));
    if (const std::size_t left = stream.tryGetReadBuffer().size(); left != 0)
      throw DecodeError(kLibrary, "bytes after the end of the message",
                        static_cast<long long>(input.size() - left));
    return f(reader);
  }
  static void write(capnp::MessageBuilder& builder, std::string& out) {
    // Packing writes at most 10 bytes a word (a tag, 8 bytes, a run count).
    out.resize(capnp::computeSerializedSizeInWords(builder) * 10 + 16);
    kj::ArrayOutputStream stream(kj::arrayPtr(reinterpret_cast<kj::byte*>(out.data()), out.size()));
    capnp::writePackedMessage(stream, builder);
    out.resize(stream.getArray().size());
  }
};

// f() with Cap'n Proto's exceptions as DecodeError.
template <class F>
auto guarded(F&& f) {
  try {
    return f();
  } catch (const kj::Exception& e) {
    throw DecodeError(kLibrary, e.getDescription().cStr());
  }
}

capnp::AnyPointer::Reader root_of(capnp::MessageReader& reader) {
  auto root = reader.getRoot<capnp::AnyPointer>();
  if (root.isNull()) throw DecodeError(kLibrary, "the message has no root (an empty payload?)");
  return root;
}

template <class T>
auto rows_of(capnp::MessageReader& reader) {
  const auto feed = root_of(reader).getAs<cp::Feed>();
  if (feed.which() != Cp<T>::kWhich)
    throw DecodeError(kLibrary, "the feed holds " + std::string(dataset_in(feed.which())) +
                                    ", not " + std::string(dataset_in(Cp<T>::kWhich)) +
                                    " (a payload of another dataset?)");
  return Cp<T>::rows(feed);
}

template <class Framing>
class Encoder : public EncoderFor<Encoder<Framing>> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    for (;;) {
      capnp::MallocMessageBuilder builder(first_.get(wanted_));
      auto list = Cp<T>::init(builder.initRoot<cp::Feed>(), static_cast<unsigned>(rows.size()));
      for (unsigned i = 0; i < list.size(); ++i) build(rows[i], list[i]);
      if (builder.getSegmentsForOutput().size() == 1) return Framing::write(builder, out);
      // A message that outgrew the first segment is built again in one that
      // holds it: in more segments, texts would sit behind far pointers, and
      // the payload would depend on what the encoder wrote before.
      wanted_ = capnp::computeSerializedSizeInWords(builder);
    }
  }

 private:
  Words first_;
  std::size_t wanted_ = 1024;
};

template <class Framing>
class Decoder : public DecoderFor<Decoder<Framing>> {
 public:
  // The whole tree is checked first, as parse-only and FlatBuffers' decode
  // check it: reading only the rows, a reader would accept bytes whose
  // other pointers are broken, which parse-only refuses.
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& out) {
    guarded([&] {
      framing_.with_reader(input, [&](capnp::MessageReader& reader) {
        root_of(reader).targetSize();
        const auto rows = rows_of<T>(reader);
        out.reserve(rows.size());
        for (const auto row : rows) read(row, out.emplace_back());
      });
    });
  }
  // Parse-only is the check a verifier makes: every pointer of the tree
  // followed and bounds-checked (targetSize()), no field read.
  std::size_t parse_only(std::string_view input) override {
    return guarded([&] {
      return framing_.with_reader(input, [&](capnp::MessageReader& reader) {
        return root_of(reader).targetSize().wordCount + 1;
      });
    });
  }

 private:
  Framing framing_;
};

template <class Framing>
class Accessor : public AccessorFor<Accessor<Framing>> {
 public:
  template <class T, class Fold>
  void walk(std::string_view input, bool verify, Fold& fold) {
    guarded([&] {
      framing_.with_reader(input, [&](capnp::MessageReader& reader) {
        if (verify) root_of(reader).targetSize();
        const auto rows = rows_of<T>(reader);
        fold.rows(rows.size());
        for (const auto row : rows) walk_row(row, fold);
      });
    });
  }

 private:
  Framing framing_;
};

}  // namespace
}  // namespace wb::capnproto

WB_DEFINE_ENCODER(capnp, capnp, wb::capnproto::Encoder<wb::capnproto::Flat>)
WB_DEFINE_DECODER(capnp, capnp, wb::capnproto::Decoder<wb::capnproto::Flat>)
WB_DEFINE_ACCESSOR(capnp, capnp, wb::capnproto::Accessor<wb::capnproto::Flat>)
WB_DEFINE_ENCODER(capnp_packed, capnp, wb::capnproto::Encoder<wb::capnproto::Packed>)
WB_DEFINE_DECODER(capnp_packed, capnp, wb::capnproto::Decoder<wb::capnproto::Packed>)
WB_DEFINE_ACCESSOR(capnp_packed, capnp, wb::capnproto::Accessor<wb::capnproto::Packed>)
