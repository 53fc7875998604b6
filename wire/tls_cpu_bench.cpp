// wirebench_tls_cpu: the CPU that TLS costs each end, with no link: client
// and server in one process over an in-memory BIO pair (wire/tls_memory.hpp),
// with the contexts and test CA of the measured wire (docs/wire-tls.md).
// - tls/V/CIPHER/seal and .../open: the client's SSL_write of 1 MiB of
//   application data (64 records of 16,384 bytes) and the server's SSL_read
//   of it, TLS 1.3 and 1.2 with AES-128-GCM and ChaCha20-Poly1305; one
//   iteration is 1 MiB (bytes_per_second), record_overhead_bytes per record.
// - tls/V/handshake/KEY/STATE/SIDE: one end's calls of a full handshake
//   (cold) or of one that resumes the session of the last (resumed), ECDSA
//   P-256 or RSA-2048: the client's until it has read the session tickets
//   after done, the server's until done (its tickets written).
// In every iteration only the measured end's calls run with the timer on;
// the other end, the new connection and its teardown run paused. Each case
// is checked before it is timed (the handshake completes with the chain and
// host name verified and resumes when asked; a sealed MiB opens back to the
// same bytes) and skipped with the error otherwise.
// --wirebench_icount: under callgrind with --collect-atstart=no, collect
// inside the measured end's calls only and dump one profile per loop
// (tools/commands/icount.py --program wirebench_tls_cpu).
#include <valgrind/callgrind.h>

#include <openssl/crypto.h>

#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks/machine.hpp"
#include "wire/tls_config.hpp"
#include "wire/tls_memory.hpp"

namespace {

using wire::tls_case;
using wire::TlsConfig;
using wire::TlsMemoryContexts;
using wire::TlsMemoryPair;
using wire::TlsSide;

constexpr std::size_t kBulkBytes = 1 << 20;
constexpr std::size_t kRecordBytes = 16384;
// Each way: the sealed MiB waits in the pair until the server reads it.
constexpr std::size_t kBulkPairBytes = 2 << 20;

bool g_icount = false;

// The contexts of one configuration, made once: an RSA test CA takes a
// noticeable time to make, and the server's ticket keys must outlive the
// session a resumed case resumes.
TlsMemoryContexts& contexts_for(const TlsConfig& tls) {
  static std::map<std::string, std::unique_ptr<TlsMemoryContexts>> made;
  auto& slot = made[tls.json()];
  if (!slot) slot = std::make_unique<TlsMemoryContexts>(tls);
  return *slot;
}

// The measured end's calls: the timer runs, and under --wirebench_icount
// callgrind collects, between open() and close() only.
class Measured {
 public:
  explicit Measured(benchmark::State& state) : state_(state) {}
  void open() {
    state_.ResumeTiming();
    if (g_icount) CALLGRIND_TOGGLE_COLLECT;
  }
  void close() {
    if (g_icount) CALLGRIND_TOGGLE_COLLECT;
    state_.PauseTiming();
  }
  void loop_done() const {
    if (g_icount) CALLGRIND_DUMP_STATS_AT("wirebench-loop");
  }

 private:
  benchmark::State& state_;
};

std::vector<unsigned char> bulk_data() {
  std::vector<unsigned char> data(kBulkBytes);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 131 + 7);
  return data;
}

void bulk(benchmark::State& state, const TlsConfig& tls, bool seal) {
  const std::vector<unsigned char> data = bulk_data();
  std::vector<unsigned char> out(data.size());
  std::unique_ptr<TlsMemoryPair> pair;
  std::size_t record_bytes = 0;
  try {
    pair = std::make_unique<TlsMemoryPair>(contexts_for(tls), kBulkPairBytes);
    pair->handshake();
    pair->seal(data);
    record_bytes = pair->sealed_bytes();
    pair->open(out);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  if (out != data) {
    state.SkipWithError("the opened bytes differ from the sealed ones");
    return;
  }
  Measured measured(state);
  for (auto _ : state) {
    state.PauseTiming();
    try {
      if (seal) {
        measured.open();
        pair->seal(data);
        measured.close();
        pair->discard();
      } else {
        pair->seal(data);
        measured.open();
        pair->open(out);
        measured.close();
      }
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
    state.ResumeTiming();
  }
  measured.loop_done();
  state.SetBytesProcessed(static_cast<int64_t>(kBulkBytes) * state.iterations());
  const double records = static_cast<double>(kBulkBytes / kRecordBytes);
  state.counters["record_overhead_bytes"] =
      benchmark::Counter(static_cast<double>(record_bytes - kBulkBytes) / records);
}

void handshake(benchmark::State& state, const TlsConfig& tls, TlsSide side) {
  TlsMemoryContexts* contexts = nullptr;
  // Whether a connection resumed on both ends as the case asks; throws otherwise.
  const auto check = [&](const TlsMemoryPair& pair) {
    if (pair.resumed(TlsSide::kClient) != tls.resume ||
        pair.resumed(TlsSide::kServer) != tls.resume)
      throw std::runtime_error(tls.resume ? "the session did not resume"
                                          : "a cold handshake resumed");
  };
  try {
    contexts = &contexts_for(tls);
    // The first connection gives the session a resumed case resumes.
    TlsMemoryPair(*contexts).handshake();
    TlsMemoryPair pair(*contexts);
    pair.handshake();
    check(pair);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  Measured measured(state);
  const wire::TlsSideWindow window = [&](TlsSide s, bool open) {
    if (s != side) return;
    if (open) {
      measured.open();
    } else {
      measured.close();
    }
  };
  for (auto _ : state) {
    state.PauseTiming();
    try {
      TlsMemoryPair pair(*contexts);
      pair.handshake(window);
      check(pair);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
    state.ResumeTiming();
  }
  measured.loop_done();
  state.SetItemsProcessed(state.iterations());
}

void add_context() {
  wb::bench::add_machine_context();
  benchmark::AddCustomContext("library.openssl", OpenSSL_version(OPENSSL_VERSION));
  const TlsConfig tls;
  benchmark::AddCustomContext("tls.chain", std::to_string(tls.chain));
  benchmark::AddCustomContext("tls.names", std::to_string(tls.names));
  benchmark::AddCustomContext("tls.host", wire::kTlsHost);
  benchmark::AddCustomContext("tls.bulk_bytes", std::to_string(kBulkBytes));
  benchmark::AddCustomContext("tls.record_bytes", std::to_string(kRecordBytes));
  benchmark::AddCustomContext(
      "note",
      "client and server in one process over an in-memory BIO pair; only the measured end's "
      "calls are timed (the other end, a new connection and its teardown run with the timer "
      "paused); key exchange OpenSSL's default; benchmark library reports itself as a debug "
      "build (Debian package); wirebench code is Release");
}

void register_all() {
  for (const char* version : {"1.3", "1.2"}) {
    for (const char* cipher : {"aes128gcm", "chacha20"}) {
      for (const bool seal : {true, false}) {
        const std::string name =
            std::string("tls/") + version + "/" + cipher + (seal ? "/seal" : "/open");
        benchmark::RegisterBenchmark(name.c_str(), bulk, tls_case(version, "ecdsa", cipher, false),
                                     seal)
            ->Unit(benchmark::kMicrosecond);
      }
    }
    for (const char* key : {"ecdsa", "rsa"}) {
      for (const bool resume : {false, true}) {
        for (const TlsSide side : {TlsSide::kClient, TlsSide::kServer}) {
          const std::string name = std::string("tls/") + version + "/handshake/" + key +
                                   (resume ? "/resumed/" : "/cold/") +
                                   (side == TlsSide::kClient ? "client" : "server");
          benchmark::RegisterBenchmark(name.c_str(), handshake,
                                       tls_case(version, key, "aes128gcm", resume), side)
              ->Unit(benchmark::kMicrosecond);
        }
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Our flag is taken out before Google Benchmark sees (and rejects) it.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--wirebench_icount") == 0) {
      g_icount = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  add_context();
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
