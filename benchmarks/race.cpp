#include "benchmarks/race.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string_view>

namespace wb::bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<std::string_view> fields(std::string_view name) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t slash = name.find('/', start);
    out.push_back(name.substr(start, slash - start));
    if (slash == std::string_view::npos) return out;
    start = slash + 1;
  }
}

std::string fixed(double value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

}  // namespace

std::string RaceRule::describe() const {
  if (!on) return "off (--no-race): every competitor runs every round";
  return "settle X after round " + std::to_string(first_block) +
         " or later when, in every round so far, t_X - t_L > " + fixed(margin, 2) +
         " x base (t: CPU time over the unit's probe; L: the group's leader by median; "
         "base: decode: t_L + the serializer's encode + the costliest compress + decompress; "
         "encode, only for X writing L's very bytes: t_L + the fastest decode of them + the "
         "costliest compress + decompress; other operations: t_L); benchmarks/race.hpp";
}

Race::Race(const RaceRule& rule, const std::vector<std::string>& names) : rule_(rule) {
  for (const std::string& name : names) {
    Racer r;
    r.name = name;
    const auto f = fields(name);
    if (f.size() >= 5) {
      r.format_case = std::string(f[0]) + "/" + std::string(f[1]) + "/" + std::string(f[2]);
      const std::string_view op = f[3];
      r.library = std::string(f[4]);
      if (f.size() >= 6 && f[5].starts_with("from:")) r.source = std::string(f[5].substr(5));
      r.group =
          r.format_case + "/" + std::string(op) + (r.source.empty() ? "" : "/from:" + r.source);
      r.part = op == "encode"       ? Part::encode
               : op == "decode"     ? Part::decode
               : op == "compress"   ? Part::compress
               : op == "decompress" ? Part::decompress
                                    : Part::other;
    }
    racers_.push_back(std::move(r));
  }
}

void Race::record(std::size_t i, int round, double time) {
  std::vector<double>& times = racers_[i].times;
  if (times.size() <= static_cast<std::size_t>(round)) times.resize(round + 1, kNaN);
  times[round] = time;
}

void Race::set_digest(std::size_t i, double digest) {
  racers_[i].digest = digest;
}

void Race::drop(std::size_t i) {
  racers_[i].dropped = true;
}

double Race::time(std::size_t i, int round) const {
  const std::vector<double>& times = racers_[i].times;
  return static_cast<std::size_t>(round) < times.size() ? times[round] : kNaN;
}

double Race::median(std::size_t i, int rounds) const {
  std::vector<double> values;
  for (int r = 0; r < rounds; ++r)
    if (const double t = time(i, r); std::isfinite(t)) values.push_back(t);
  if (values.empty()) return kNaN;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double Race::leader_time(const std::string& group, int round, int rounds) const {
  double best = kNaN, best_median = kNaN;
  for (std::size_t i = 0; i < racers_.size(); ++i) {
    const Racer& r = racers_[i];
    if (r.group != group || r.dropped || r.settled) continue;
    const double m = median(i, rounds);
    if (std::isfinite(m) && !(m >= best_median)) best_median = m, best = time(i, round);
  }
  return std::isfinite(best) ? best : 0;
}

double Race::costliest_compression(const std::string& format_case, int round) const {
  std::map<std::string, double> per_codec;
  for (std::size_t i = 0; i < racers_.size(); ++i) {
    const Racer& r = racers_[i];
    if (r.format_case != format_case || r.dropped) continue;
    if (r.part != Part::compress && r.part != Part::decompress) continue;
    if (const double t = time(i, round); std::isfinite(t)) per_codec[r.library] += t;
  }
  double most = 0;
  for (const auto& [codec, t] : per_codec) most = std::max(most, t);
  return most;
}

double Race::serializer_time(const std::string& format_case, const std::string& library,
                             int round) const {
  for (std::size_t i = 0; i < racers_.size(); ++i) {
    const Racer& r = racers_[i];
    if (r.part == Part::encode && r.format_case == format_case && r.library == library &&
        !r.dropped) {
      // A serializer settled before `round` counts with its median.
      const double t = time(i, round);
      return std::isfinite(t) ? t : median(i, static_cast<int>(r.times.size()));
    }
  }
  return 0;
}

double Race::base(std::size_t leader, int round, int rounds) const {
  const Racer& l = racers_[leader];
  const double t = time(leader, round);
  if (l.part == Part::decode)
    return t + serializer_time(l.format_case, l.source, round) +
           costliest_compression(l.format_case, round);
  if (l.part == Part::encode) {
    // The fastest decode of L's bytes; where no decoder read them (sizes
    // other than the field size), the slowest of the case's decode leaders.
    double decode = leader_time(l.format_case + "/decode/from:" + l.library, round, rounds);
    if (decode == 0)
      for (const Racer& r : racers_)
        if (r.part == Part::decode && r.format_case == l.format_case)
          decode = std::max(decode, leader_time(r.group, round, rounds));
    return t + decode + costliest_compression(l.format_case, round);
  }
  return t;
}

std::vector<Race::Settled> Race::settle(int rounds_done) {
  std::vector<Settled> out;
  if (!rule_.on || rounds_done < rule_.first_block) return out;
  // Each group's leader, by median over the rounds so far.
  std::map<std::string, std::size_t> leaders;
  for (std::size_t i = 0; i < racers_.size(); ++i) {
    const Racer& r = racers_[i];
    if (r.group.empty() || r.dropped || r.settled) continue;
    if (r.part == Part::compress || r.part == Part::decompress) continue;
    const double m = median(i, rounds_done);
    if (!std::isfinite(m)) continue;
    auto [at, fresh] = leaders.try_emplace(r.group, i);
    if (!fresh && m < median(at->second, rounds_done)) at->second = i;
  }
  for (std::size_t i = 0; i < racers_.size(); ++i) {
    Racer& x = racers_[i];
    auto found = leaders.find(x.group);
    if (found == leaders.end() || found->second == i || x.dropped || x.settled) continue;
    const std::size_t l = found->second;
    if (x.part == Part::encode && x.digest != racers_[l].digest) continue;
    bool behind = true;
    double least = std::numeric_limits<double>::infinity();  // the smallest excess / base
    int rounds = 0;
    for (int r = 0; r < rounds_done && behind; ++r) {
      const double tx = time(i, r), tl = time(l, r);
      if (!std::isfinite(tx) || !std::isfinite(tl)) continue;
      const double b = base(l, r, rounds_done);
      least = std::min(least, (tx - tl) / b);
      behind = b > 0 && tx - tl > rule_.margin * b;
      ++rounds;
    }
    if (!behind || rounds < rule_.first_block) continue;
    x.settled = true;
    out.push_back({i, "leader " + racers_[l].library + ": t_X - t_L >= " + fixed(least, 2) +
                          " x base in each of " + std::to_string(rounds) + " rounds (margin " +
                          fixed(rule_.margin, 2) + ")"});
  }
  return out;
}

}  // namespace wb::bench
