// Deterministic dataset generation. Everything derives from a splitmix64
// stream and integer arithmetic so that the bytes are identical on every
// machine and standard library.
#include <cstdio>
#include <string>

#include "datasets.hpp"
#include "generators/text.hpp"

namespace wb {
namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi], both ends inclusive.
  int64_t between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // A decimal with the given number of fractional digits, as the nearest
  // double (so its shortest round-trip text is that decimal).
  double decimal(int64_t lo_units, int64_t hi_units, int digits) {
    static constexpr double kScale[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
    return static_cast<double>(between(lo_units, hi_units)) / kScale[digits];
  }

 private:
  uint64_t state_;
};

// One row in kSpecialEvery carries text that needs escaping in every format
// and non-ASCII (including a character outside the BMP, which JSON writers
// that escape non-ASCII must write as a surrogate pair).
constexpr int kSpecialEvery = 20;
constexpr int kSpecialPhase = 7;
constexpr std::string_view kSpecialText = " \xE2\x80\x94 <caf\xC3\xA9> & \"q\" \\ \xF0\x9D\x84\x9E";

bool is_special(int64_t i) {
  return i % kSpecialEvery == kSpecialPhase;
}

std::string name4(Rng& rng) {
  std::string s(4, 'a');
  s[0] = static_cast<char>('A' + rng.between(0, 25));
  for (int k = 1; k < 4; ++k) s[k] = static_cast<char>('a' + rng.between(0, 25));
  return s;
}

std::vector<Message> messages(int rows, Rng& /*rng*/) {
  std::vector<Message> out(rows);
  for (int i = 0; i < rows; ++i) {
    out[i].ID = i + 1;
    out[i].MessageText = "My Message No. " + std::to_string(i + 1);
    if (is_special(i)) out[i].MessageText += kSpecialText;
  }
  return out;
}

std::vector<Airport> airports(int rows, Rng& rng) {
  std::vector<Airport> out(rows);
  for (int i = 0; i < rows; ++i) {
    Airport& a = out[i];
    for (int c = 0; c < 2; ++c) a.Contacts.push_back({name4(rng), name4(rng)});
    a.Latitude = rng.decimal(-90'000'000, 90'000'000, 6);
    a.Longitude = rng.decimal(-180'000'000, 180'000'000, 6);
    // Two statements: the operands of + are unsequenced, so the one-expression
    // form draws the words in a compiler's order (clang's names come out swapped
    // against GCC's). This is GCC's order, which the goldens and results hold.
    const std::string last = name4(rng);
    a.Name = name4(rng) + " " + last;
    if (is_special(i)) {
      a.Name += kSpecialText;
      a.Contacts[1].LastName = "O'N\xC3\xA9<&>";
    }
  }
  return out;
}

constexpr int kGrid = 90;                                    // 90 x 90 cells = one subset
constexpr int64_t kEpochTicks2026 = 17'672'256'000'000'000;  // 2026-01-01T00:00:00Z
constexpr int64_t kTicksPerMs = 10'000;

std::vector<ScienceRow> science(int rows, Rng& rng) {
  std::vector<ScienceRow> out(rows);
  for (int i = 0; i < rows; ++i) {
    ScienceRow& r = out[i];
    const int subset = i / (kGrid * kGrid), cell = i % (kGrid * kGrid);
    r.X = cell % kGrid;
    r.Y = cell / kGrid;
    char key[32];
    std::snprintf(key, sizeof key, "subset-%03d", subset);
    r.PartitionKey = key;
    std::snprintf(key, sizeof key, "%02d-%02d", r.Y, r.X);
    r.RowKey = key;
    r.Timestamp.ticks = kEpochTicks2026 + (int64_t{i} * 1'237 + rng.between(0, 999)) * kTicksPerMs;
    r.Temp = rng.decimal(-4'000, 4'500, 2);
    r.Humidity = rng.decimal(0, 10'000, 2);
    r.Pressure = rng.decimal(95'000, 105'000, 2);
    r.Wind = rng.decimal(0, 400, 1);
    if (is_special(i)) r.PartitionKey += kSpecialText;
  }
  return out;
}

// Science rows as entity properties: EDM type names and the text OData
// writes (shortest round-trip doubles, ISO date-times with 7 digits).
std::vector<EntityRow> entities(const std::vector<ScienceRow>& rows) {
  std::vector<EntityRow> out;
  out.reserve(rows.size());
  for (const ScienceRow& r : rows) {
    EntityRow& e = out.emplace_back();
    for_each_field(r, [&](std::string_view name, const auto& v) {
      using M = std::decay_t<decltype(v)>;
      EntityProperty p{std::string(name), "", ""};
      if constexpr (std::is_same_v<M, std::string>) {
        p.Type = "Edm.String", p.Value = v;
      } else if constexpr (std::is_same_v<M, int32_t>) {
        p.Type = "Edm.Int32", p.Value = std::to_string(v);
      } else if constexpr (std::is_same_v<M, double>) {
        char buf[text::kMaxNumberChars];
        p.Type = "Edm.Double", p.Value.assign(buf, text::write_double(buf, v));
      } else {
        p.Type = "Edm.DateTime", p.Value = text::datetime_string(v);
      }
      e.Properties.push_back(std::move(p));
    });
  }
  return out;
}

}  // namespace

Records empty_records(DatasetKind kind) {
  switch (kind) {
    case DatasetKind::message:
      return std::vector<Message>{};
    case DatasetKind::airport:
      return std::vector<Airport>{};
    case DatasetKind::entity:
      return std::vector<EntityRow>{};
    case DatasetKind::science:
      break;
  }
  return std::vector<ScienceRow>{};
}

Records generate(DatasetKind kind, int rows, uint64_t seed) {
  // Each dataset gets its own stream so that adding one never shifts another.
  Rng rng(seed * 0x100000001B3ull + static_cast<uint64_t>(kind));
  switch (kind) {
    case DatasetKind::message:
      return messages(rows, rng);
    case DatasetKind::airport:
      return airports(rows, rng);
    case DatasetKind::entity:  // the same rows as science, with the same seed
      return entities(
          std::get<std::vector<ScienceRow>>(generate(DatasetKind::science, rows, seed)));
    case DatasetKind::science:
      break;
  }
  return science(rows, rng);
}

}  // namespace wb
