// The adapters' own checks before libraries that allocate from untrusted
// counts (libcbor's cbor_load, Avro C's read_string): the hostile test's
// address-space limit turns such an allocation into a clean failure, so it
// cannot tell whether one was attempted. Here the refusal must come from the
// adapter's walk, before the library sees the input. So must a check the
// library leaves out (libbson's of a nested document's end).
#include "tests/map_fixtures.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

std::string error_of(std::string_view format, std::string_view library, std::string_view fixture) {
  std::vector<Fixture> fixtures;
  map_fixtures(format, fixtures);
  for (const Fixture& f : fixtures) {
    if (f.name != "built/" + std::string(fixture)) continue;
    const CodecEntry* codec = find_codec(format, Role::decode, library);
    if (!codec) return "no decoder " + std::string(library);
    try {
      decode(*codec, f.bytes, f.dataset);
    } catch (const DecodeError& e) {
      return e.describe();
    }
    return "(decoded)";
  }
  return "no fixture " + std::string(fixture);
}

TEST(BinaryLimits, CborCountsAreCheckedBeforeCborLoad) {
  SKIP_WITHOUT("cbor.decode.libcbor-tree");
  for (std::string_view fixture :
       {"n_cbor_array_claims_2e32", "n_cbor_map_claims_2e32", "n_cbor_deep_arrays_100000"}) {
    const std::string what = error_of("cbor", "libcbor-tree", fixture);
    EXPECT_NE(what.find("the adapter's check before cbor_load"), std::string::npos)
        << fixture << ": " << what;
  }
}

TEST(BinaryLimits, AvroLengthsAreCheckedBeforeAvroC) {
  SKIP_WITHOUT("avro.decode.avro-c");
  for (std::string_view fixture : {"n_avro_string_claims_4gib", "n_avro_block_claims_2e62"}) {
    const std::string what = error_of("avro", "avro-c", fixture);
    EXPECT_NE(what.find("the adapter's check"), std::string::npos) << fixture << ": " << what;
  }
}

// libbson's bson_iter_recurse checks nothing of a nested document, so the
// adapter checks each one's end itself; without that the row reads as whole.
TEST(BinaryLimits, LibbsonChecksTheEndOfEveryNestedDocument) {
  SKIP_WITHOUT("bson.decode.libbson");
  const std::string what = error_of("bson", "libbson", "any_bson_row_not_ending_in_nul");
  EXPECT_NE(what.find("not ending in 0"), std::string::npos) << what;
}

}  // namespace
}  // namespace wb::test
