// The carriers of `bench --payload FEED --as-formats` (codecs/carriers/):
// entity rows of every kind a run-time schema maps go through every binary
// carrier and come back equal; rows a schema cannot carry are refused with
// the type, or the shape, and why.
#include "codecs/carriers/carriers.hpp"
#include "tests/entity_rows.hpp"

#include <gtest/gtest.h>

namespace wb::test {
namespace {

// Every kind, nulls, a value past int32, non-ASCII text and text that needs
// escaping in JSON and XML.
Records every_kind() {
  return rows({{{"Key", "Edm.String", "a\"<&\xc3\xa9\xf0\x9f\x98\x80"},
                {"Id", "Edm.Guid", "0f8fad5b-d9cb-469f-a165-70867728950e"},
                {"N", "Edm.Int32", "-2147483648"},
                {"Small", "Edm.Int16", "12"},
                {"Big", "Edm.Int64", "9007199254740993"},
                {"D", "Edm.Double", "0.1"},
                {"B", "Edm.Boolean", "true"},
                {"T", "Edm.DateTime", "2026-01-01T00:00:00.1234567Z"}},
               {{"Key", "Null(Edm.String)", ""},
                {"Id", "Null(Edm.Guid)", ""},
                {"N", "Null(Edm.Int32)", ""},
                {"Small", "Edm.Int16", "-3"},
                {"Big", "Null(Edm.Int64)", ""},
                {"D", "Edm.Double", "-1.7976931348623157e+308"},
                {"B", "Edm.Boolean", "false"},
                {"T", "Null(Edm.DateTime)", ""}}});
}

std::vector<const Carrier*> binary_carriers() {
  std::vector<const Carrier*> out;
  for (const Carrier& c : carriers())
    if (const FormatEntry* f = find_format(c.format); f && f->syntax == Syntax::binary)
      out.push_back(&c);
  return out;
}

TEST(Carriers, EveryKindRoundTripsInEveryBinaryCarrier) {
  const Records want = every_kind();
  carry::EntitySchema schema;
  ASSERT_EQ(carry::schema_of("test", std::get<std::vector<EntityRow>>(want), schema), "");
  ASSERT_FALSE(binary_carriers().empty());
  for (const Carrier* c : binary_carriers()) {
    SCOPED_TRACE(std::string(c->format));
    EXPECT_EQ(c->why_not(want), "");
    for (const CarrierCodec& enc : c->encoders) {
      std::string payload;
      enc.make_encoder(schema)->encode(want, payload);
      const std::string padded = padded_copy(payload);
      for (const CarrierCodec& dec : c->decoders) {
        SCOPED_TRACE(std::string(enc.library) + " -> " + std::string(dec.library));
        Records got = empty_records(DatasetKind::entity);
        dec.make_decoder(schema)->decode(std::string_view(padded.data(), payload.size()), got);
        EXPECT_EQ(got, want);
      }
    }
  }
}

TEST(Carriers, ATruncatedPayloadIsAnErrorNotACrash) {
  const Records want = every_kind();
  carry::EntitySchema schema;
  ASSERT_EQ(carry::schema_of("test", std::get<std::vector<EntityRow>>(want), schema), "");
  for (const Carrier* c : binary_carriers()) {
    SCOPED_TRACE(std::string(c->format));
    std::string payload;
    c->encoders.front().make_encoder(schema)->encode(want, payload);
    const std::string padded = padded_copy(payload);
    Records got = empty_records(DatasetKind::entity);
    EXPECT_THROW(c->decoders.front().make_decoder(schema)->decode(
                     std::string_view(padded.data(), payload.size() / 2), got),
                 DecodeError);
  }
}

TEST(Carriers, ATypeNoFormatHasIsRefusedWithWhy) {
  const Records decimal = rows({{{"Price", "Edm.Decimal", "1.10"}}});
  EXPECT_EQ(carry::why_not("msgpack", decimal),
            "Edm.Decimal (Price): msgpack has no decimal type (a double would round it, a string "
            "is no number)");
  const Records offset = rows({{{"At", "Edm.DateTimeOffset", "2026-01-01T00:00:00+01:00"}}});
  EXPECT_NE(carry::why_not("cbor", offset).find("keeps an offset"), std::string::npos);
  const Records nested = rows({{{"Address", "NS.Address", R"({"City":"Oslo"})"}}});
  EXPECT_NE(carry::why_not("bson", nested).find("nested"), std::string::npos);
}

TEST(Carriers, RowsOfTwoShapesOrTypesAreRefused) {
  EXPECT_NE(carry::why_not("msgpack", rows({{{"A", "Edm.Int32", "1"}}, {{"B", "Edm.Int32", "1"}}}))
                .find("one shape"),
            std::string::npos);
  EXPECT_NE(carry::why_not("msgpack", rows({{{"A", "Edm.Int32", "1"}}, {{"A", "Edm.String", "x"}}}))
                .find("one type"),
            std::string::npos);
  // An untyped null (JSON light without an annotation) in an Int32 column.
  EXPECT_NE(
      carry::why_not("msgpack", rows({{{"A", "Edm.Int32", "1"}}, {{"A", "Null(Edm.String)", ""}}}))
          .find("one type"),
      std::string::npos);
}

TEST(Carriers, TextThatWouldNotReadBackIsRefused) {
  EXPECT_EQ(carry::why_not("cbor", rows({{{"D", "Edm.Double", "1.50"}}})),
            "row 0, D: Edm.Double '1.50' would read back as '1.5' (the feed's text is not the "
            "value's canonical form)");
  EXPECT_EQ(carry::why_not("cbor", rows({{{"N", "Edm.Int32", "x"}}})),
            "row 0, N: 'x' is no Edm.Int32 value");
}

TEST(Carriers, TheODataDialectsTakeOnlyCodecsOfEntityRows) {
  for (const Carrier& c : carriers()) {
    if (c.format != "json") continue;
    for (const CarrierCodec& enc : c.encoders) EXPECT_NE(enc.library, "jsoncpp");
  }
}

}  // namespace
}  // namespace wb::test
