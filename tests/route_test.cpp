// Every content router of the registry (codecs/route/), on every dataset of
// its format: the predicate "first record's key equals a value" must hold for
// the true value, fail for a wrong one, ignore same-named elements of other
// namespaces, not depend on prefixes, and never crash on a broken payload.
#include <string>

#include "codecs/router.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

struct RouterCase {
  const RouterEntry* router;
};

std::vector<RouterCase> router_cases() {
  std::vector<RouterCase> out;
  for (const RouterEntry& r : routers()) out.push_back({&r});
  return out;
}

std::string router_case_name(const ::testing::TestParamInfo<RouterCase>& info) {
  return gtest_name(std::string(info.param.router->format) + "_" +
                    std::string(info.param.router->library));
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// The router's answer, with a parse error as "error" (never a crash).
std::string answer(Router& router, std::string_view payload, const RouteRule& rule) {
  try {
    return router.route(padded_copy(payload), rule) ? "true" : "false";
  } catch (const DecodeError&) {
    return "error";
  }
}

class RouteTest : public ::testing::TestWithParam<RouterCase> {
 protected:
  // Datasets with a key member: (payload of every encoder, rule) pairs.
  template <class F>
  void for_each_payload(F f) {
    const RouterEntry& r = *GetParam().router;
    for (DatasetKind kind : all_datasets()) {
      const Records records = generate(kind, test_rows(kind), kDefaultSeed);
      const auto rule = first_key_rule(records);
      if (!rule) continue;
      for (const CodecEntry* enc : codecs_of(r.format, Role::encode)) {
        SCOPED_TRACE(std::string(dataset_name(kind)) + " from " + std::string(enc->library));
        f(kind, encode(*enc, records), *rule);
      }
    }
  }
  std::unique_ptr<Router> router_ = GetParam().router->make();
};

TEST_P(RouteTest, TrueForTheFirstKeyFalseForAnotherValue) {
  int payloads = 0;
  for_each_payload([&](DatasetKind, const std::string& payload, const RouteRule& rule) {
    ++payloads;
    EXPECT_TRUE(router_->route(padded_copy(payload), rule)) << rule.local << " = " << rule.value;
    RouteRule wrong = rule;
    wrong.value += "x";
    EXPECT_FALSE(router_->route(padded_copy(payload), wrong));
    wrong.value = rule.value.substr(0, rule.value.size() - 1);  // a prefix is no match
    EXPECT_FALSE(router_->route(padded_copy(payload), wrong));
    // The same rule again: routers cache compiled state per rule.
    EXPECT_TRUE(router_->route(padded_copy(payload), rule));
  });
  EXPECT_GT(payloads, 0);
}

TEST_P(RouteTest, OnlyTheFirstKeyCounts) {
  // The second record's key is not the first key, though //Name matches it.
  for (DatasetKind kind : all_datasets()) {
    const Records records = generate(kind, test_rows(kind), kDefaultSeed);
    const auto rule = first_key_rule(records);
    if (!rule) continue;
    const Records second = std::visit(
        [](const auto& rows) -> Records {
          return std::decay_t<decltype(rows)>(rows.begin() + 1, rows.begin() + 2);
        },
        records);
    const auto second_rule = first_key_rule(second);
    ASSERT_TRUE(second_rule);
    if (second_rule->value == rule->value) continue;  // science: one partition per 90 rows
    const std::string payload = encode(primary_encoder(GetParam().router->format), records);
    EXPECT_FALSE(router_->route(padded_copy(payload), *second_rule)) << dataset_name(kind);
  }
}

TEST_P(RouteTest, PrefixesDoNotMatterNamespacesDo) {
  for_each_payload([&](DatasetKind, const std::string& payload, const RouteRule& rule) {
    std::string renamed = payload;  // another prefix for the data-contract namespace
    replace_all(renamed, "<a:", "<dc:");
    replace_all(renamed, "</a:", "</dc:");
    replace_all(renamed, "xmlns:a=", "xmlns:dc=");
    ASSERT_NE(renamed, payload);
    EXPECT_TRUE(router_->route(padded_copy(renamed), rule));
    std::string unprefixed = payload;  // the data-contract namespace as the default
    replace_all(unprefixed, "<a:", "<");
    replace_all(unprefixed, "</a:", "</");
    replace_all(unprefixed, "xmlns:a=", "xmlns=");
    EXPECT_TRUE(router_->route(padded_copy(unprefixed), rule));

    // An element of the same local name in another namespace comes first.
    std::string decoy = payload;
    const std::size_t body = decoy.find("Body>");
    ASSERT_NE(body, std::string::npos);
    decoy.insert(body + 5,
                 "<x:" + rule.local + " xmlns:x=\"urn:other\">decoy</x:" + rule.local + ">");
    EXPECT_TRUE(router_->route(padded_copy(decoy), rule));
    RouteRule wrong = rule;
    wrong.value = "decoy";
    EXPECT_FALSE(router_->route(padded_copy(decoy), wrong));
  });
}

TEST_P(RouteTest, AnotherDatasetHasNoKey) {
  const Records messages = generate(DatasetKind::message, 3, kDefaultSeed);
  const Records airports = generate(DatasetKind::airport, 3, kDefaultSeed);
  const auto rule = first_key_rule(airports);
  ASSERT_TRUE(rule);
  const std::string payload = encode(primary_encoder(GetParam().router->format), messages);
  EXPECT_FALSE(router_->route(padded_copy(payload), *rule));
}

TEST_P(RouteTest, TruncatedPayloadsNeverRouteBeforeTheKeyEnds) {
  for_each_payload([&](DatasetKind, const std::string& payload, const RouteRule& rule) {
    // Until the first key's end tag is complete the answer cannot be true; a
    // streaming sniff may route a payload broken only after the key.
    const std::size_t key_end = payload.find(":" + rule.local + ">", payload.find(rule.value));
    ASSERT_NE(key_end, std::string::npos);
    const std::size_t step = payload.size() / 97 + 1;
    for (std::size_t cut = 0; cut < payload.size(); cut += step) {
      const std::string got = answer(*router_, std::string_view(payload).substr(0, cut), rule);
      if (cut <= key_end) {
        EXPECT_NE(got, "true") << "cut at " << cut;
      }
    }
    // Broken after the key: a DOM router must see it.
    const std::string tail_cut = payload.substr(0, payload.size() - 3);
    const std::string got = answer(*router_, tail_cut, rule);
    EXPECT_TRUE(got == "error" || got == "true") << got;
  });
}

TEST_P(RouteTest, GarbageIsAnErrorNotACrash) {
  const auto rule = first_key_rule(generate(DatasetKind::airport, 1, kDefaultSeed));
  ASSERT_TRUE(rule);
  for (std::string_view bad : {"", "<", "not xml", "<a:Name>x</a:Name>", "<s:Envelope>",
                               "\xEF\xBB\xBF<r/><r/>", "<r>&undefined;</r>"}) {
    EXPECT_NE(answer(*router_, bad, *rule), "true") << bad;
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, RouteTest, ::testing::ValuesIn(router_cases()),
                         router_case_name);
// A build with every routing library left out has no case here.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RouteTest);

}  // namespace
}  // namespace wb::test
