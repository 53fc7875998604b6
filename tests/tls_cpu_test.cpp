// The CPU benchmark's TLS in memory (wire/tls_memory.hpp, run by
// wirebench_tls_cpu): a sealed MiB opens back to the same bytes in records
// of the expected overhead, for each version and cipher; the handshake
// completes with the chain and host name verified, for both key types, and
// resumes when asked; a client that does not trust the server's CA refuses
// it. No link, no privileges; asserts what happens, never how long it takes.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "wire/tls_config.hpp"
#include "wire/tls_memory.hpp"

namespace {

using wire::tls_case;
using wire::TlsMemoryContexts;
using wire::TlsMemoryPair;
using wire::TlsSide;

struct Bulk {
  const char* version;
  const char* cipher;
  const char* suite;
  std::size_t overhead;  // bytes per record: header, tag, TLS 1.3's type, 1.2 GCM's nonce
};

TEST(TlsCpu, SealedMegabyteOpensBackInFullRecords) {
  const Bulk cases[] = {{"1.3", "aes128gcm", "TLS_AES_128_GCM_SHA256", 22},
                        {"1.3", "chacha20", "TLS_CHACHA20_POLY1305_SHA256", 22},
                        {"1.2", "aes128gcm", "ECDHE-ECDSA-AES128-GCM-SHA256", 29},
                        {"1.2", "chacha20", "ECDHE-ECDSA-CHACHA20-POLY1305", 21}};
  std::vector<unsigned char> data(1 << 20);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 131 + 7);
  for (const Bulk& c : cases) {
    SCOPED_TRACE(std::string(c.version) + " " + c.cipher);
    TlsMemoryContexts contexts(tls_case(c.version, "ecdsa", c.cipher));
    TlsMemoryPair pair(contexts, 2 << 20);
    pair.handshake();
    EXPECT_EQ(pair.cipher(), c.suite);
    for (int round = 0; round < 2; ++round) {  // the second on the next sequence numbers
      pair.seal(data);
      EXPECT_EQ(pair.sealed_bytes(), data.size() + data.size() / 16384 * c.overhead);
      std::vector<unsigned char> out(data.size());
      pair.open(out);
      EXPECT_TRUE(out == data);
      EXPECT_EQ(pair.sealed_bytes(), 0u);
    }
  }
}

TEST(TlsCpu, HandshakeVerifiesAndResumes) {
  for (const char* version : {"1.3", "1.2"}) {
    for (const char* key : {"ecdsa", "rsa"}) {
      SCOPED_TRACE(std::string(version) + " " + key);
      TlsMemoryContexts contexts(tls_case(version, key, "aes128gcm", true));
      TlsMemoryPair cold(contexts);
      cold.handshake();
      EXPECT_EQ(cold.version(), std::string("TLSv") + version);
      EXPECT_FALSE(cold.resumed(TlsSide::kClient));
      EXPECT_FALSE(cold.resumed(TlsSide::kServer));
      TlsMemoryPair resumed(contexts);
      int client_calls = 0, server_calls = 0;
      resumed.handshake([&](TlsSide side, bool open) {
        if (open) ++(side == TlsSide::kClient ? client_calls : server_calls);
      });
      EXPECT_TRUE(resumed.resumed(TlsSide::kClient));
      EXPECT_TRUE(resumed.resumed(TlsSide::kServer));
      EXPECT_GE(client_calls, 2);
      EXPECT_GE(server_calls, 1);
    }
  }
}

TEST(TlsCpu, ClientRefusesAnUntrustedCa) {
  TlsMemoryContexts trusted(tls_case("1.3"));
  TlsMemoryContexts other(tls_case("1.3"));
  TlsMemoryPair pair(trusted.client(), other.server());
  try {
    pair.handshake();
    FAIL() << "the handshake completed against a CA the client does not trust";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("client handshake: certificate verify failed"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
