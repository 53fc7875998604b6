// Racing rounds: successive elimination inside a unit's rounds
// (benchmarks/rounds.hpp). After a first block of rounds, a competitor that
// has clearly lost its comparison is settled: it takes no further rounds and
// keeps the figures of the rounds it ran. The time then goes to the
// competitors that decide the answer.
//
// A comparison group is what the answer sets side by side: one format,
// dataset, size and operation, and for a decode the serializer that wrote the
// input (format/dataset/rows/op[/from:serializer]). Compression is not raced:
// each codec's compress and decompress are parts of every call of the format.
//
// The rule, applied after every round from the first block on: with L the
// group's leader (the lowest median of the per-round times, each a
// competitor's CPU time over the unit's probe beside it, as
// tools/wbtools/results/paired.py pairs them), competitor X is settled when in every
// round so far
//     t_X - t_L > margin * base
// where base is what the comparison is about:
//   decode  the CPU of the call that decoder L makes cheapest to tie: L plus
//           the serializer's encode plus the costliest compress + decompress
//           of the payload. The model's fastest call per link is encode +
//           compress + transfer + decompress + decode; a call that swaps L for
//           X moves the same bytes, so it is that call plus t_X - t_L, and
//           the margin keeps X's call apart from L's by more than the width
//           of a call's interval, whatever the link.
//   encode  the same call seen from the serializer (L, the fastest decoder of
//           L's bytes, the costliest compression), and only for an X that
//           writes the very bytes L writes (its wire_digest): a serializer
//           of other bytes moves another payload, which a slow link can
//           favour whatever its CPU, so it is never settled.
//   others  t_L: parse-only, route, access and the rest are their own answer.
// Every round above the line, not the median: if X's true excess were below
// it, all of n rounds above it would happen with probability 2^-n at most.
// tools/wbtools/transfer/race.py applies the same rule to a result file; its tests
// hold a run's settled competitors to the model's answer on every link.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace wb::bench {

struct RaceRule {
  bool on = true;
  int first_block = 3;  // rounds every competitor runs before any is settled
  double margin = 0.25;
  // For the result's context: the rule in one line.
  std::string describe() const;
};

class Race {
 public:
  // names: the unit's competitors (benchmark names), without its probe.
  Race(const RaceRule& rule, const std::vector<std::string>& names);

  // Competitor i's time in `round`, relative to the probe beside it.
  void record(std::size_t i, int round, double time);
  // An encoder's output digest (its wire_digest counter).
  void set_digest(std::size_t i, double digest);
  // Competitor i failed: it is left out of every comparison.
  void drop(std::size_t i);

  struct Settled {
    std::size_t index;
    std::string why;  // "leader L: t_X - t_L > 0.25 x base in every round (min 1.9x)"
  };
  // After `rounds_done` complete rounds: the competitors settled now.
  std::vector<Settled> settle(int rounds_done);
  bool settled(std::size_t i) const { return racers_[i].settled; }

 private:
  enum class Part { other, encode, decode, compress, decompress };
  struct Racer {
    std::string name, format_case, group, library, source;
    Part part = Part::other;
    std::vector<double> times;  // by round; NaN where it did not run
    double digest = -1;
    bool dropped = false, settled = false;
  };
  double time(std::size_t i, int round) const;
  double median(std::size_t i, int rounds) const;
  // The time in `round` of the leader of group `group`, or 0 when none.
  double leader_time(const std::string& group, int round, int rounds) const;
  // encode/{library} of the case in `round`, or 0 when not timed.
  double serializer_time(const std::string& format_case, const std::string& library,
                         int round) const;
  double costliest_compression(const std::string& format_case, int round) const;
  double base(std::size_t leader, int round, int rounds) const;

  RaceRule rule_;
  std::vector<Racer> racers_;
};

}  // namespace wb::bench
