#include "wire/tls_pki.hpp"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "wire/tls_error.hpp"

namespace wire {

struct TestPki::Issued {
  EVP_PKEY* key = nullptr;
  X509* cert = nullptr;
  ~Issued() {
    X509_free(cert);
    EVP_PKEY_free(key);
  }
};

namespace {

EVP_PKEY* new_key(const std::string& type) {
  EVP_PKEY* key = type == "rsa" ? EVP_RSA_gen(2048) : EVP_EC_gen("P-256");
  if (!key) throw_openssl_error("test CA", "generating a " + type + " key");
  return key;
}

void add_extension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (!ext || !X509_add_ext(cert, ext, -1)) {
    X509_EXTENSION_free(ext);
    throw_openssl_error("test CA", std::string("extension ") + OBJ_nid2sn(nid));
  }
  X509_EXTENSION_free(ext);
}

// The names every certificate carries: the host for the leaf, then the
// padding names a shared certificate would list.
std::string alt_names(const std::string& host, int padding) {
  std::string names;
  if (!host.empty()) names = "DNS:" + host;
  for (int i = 0; i < padding; ++i) {
    if (!names.empty()) names += ',';
    names += "DNS:tenant" + std::to_string(i) + ".wirebench.test";
  }
  return names;
}

// issuer null: self-signed. host empty: a CA certificate.
std::unique_ptr<TestPki::Issued> issue(const TlsConfig& tls, const std::string& common_name,
                                       const std::string& host, const TestPki::Issued* issuer,
                                       long serial) {
  auto out = std::make_unique<TestPki::Issued>();
  out->key = new_key(tls.key);
  out->cert = X509_new();
  X509* cert = out->cert;
  X509* issuer_cert = issuer ? issuer->cert : cert;
  EVP_PKEY* signing_key = issuer ? issuer->key : out->key;
  X509_set_version(cert, X509_VERSION_3);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), serial);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("wirebench test CA"), -1, -1,
                             0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1,
                             0);
  X509_set_issuer_name(cert, X509_get_subject_name(issuer_cert));
  // Valid from an hour ago (the clocks of the two ends are one clock here,
  // but a certificate born this second is a needless edge) for a day.
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
  X509_set_pubkey(cert, out->key);
  const bool ca = host.empty();
  add_extension(cert, issuer_cert, NID_basic_constraints, ca ? "critical,CA:TRUE" : "CA:FALSE");
  add_extension(cert, issuer_cert, NID_key_usage,
                ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature,keyEncipherment");
  add_extension(cert, issuer_cert, NID_subject_key_identifier, "hash");
  if (issuer) add_extension(cert, issuer_cert, NID_authority_key_identifier, "keyid:always");
  if (!ca) add_extension(cert, issuer_cert, NID_ext_key_usage, "serverAuth");
  if (const std::string names = alt_names(host, tls.names); !names.empty()) {
    add_extension(cert, issuer_cert, NID_subject_alt_name, names);
  }
  if (X509_sign(cert, signing_key, EVP_sha256()) == 0)
    throw_openssl_error("test CA", "signing " + common_name);
  return out;
}

}  // namespace

TestPki::TestPki(const TlsConfig& tls, const std::string& host) {
  root_ = issue(tls, "wirebench root CA", "", nullptr, 1);
  // Below the root, intermediates down to the one that signs the leaf.
  std::vector<std::unique_ptr<Issued>> cas;
  const Issued* issuer = root_.get();
  for (int i = 1; i < tls.chain; ++i) {
    cas.push_back(issue(tls, "wirebench intermediate CA " + std::to_string(i), "", issuer, 1 + i));
    issuer = cas.back().get();
  }
  chain_.push_back(issue(tls, host, host, issuer, 100));
  for (auto it = cas.rbegin(); it != cas.rend(); ++it) chain_.push_back(std::move(*it));
}

TestPki::~TestPki() = default;

void TestPki::serve_on(SSL_CTX* ctx) const {
  if (SSL_CTX_use_certificate(ctx, chain_.front()->cert) != 1)
    throw_openssl_error("test CA", "server certificate");
  if (SSL_CTX_use_PrivateKey(ctx, chain_.front()->key) != 1)
    throw_openssl_error("test CA", "server key");
  for (std::size_t i = 1; i < chain_.size(); ++i) {
    if (SSL_CTX_add1_chain_cert(ctx, chain_[i]->cert) != 1)
      throw_openssl_error("test CA", "intermediate certificate");
  }
  if (SSL_CTX_check_private_key(ctx) != 1)
    throw_openssl_error("test CA", "key and certificate differ");
}

X509_STORE* TestPki::trust_store() const {
  X509_STORE* store = X509_STORE_new();
  if (!store || X509_STORE_add_cert(store, root_->cert) != 1) {
    X509_STORE_free(store);
    throw_openssl_error("test CA", "trust store");
  }
  return store;
}

std::vector<std::size_t> TestPki::sent_der_bytes() const {
  std::vector<std::size_t> sizes;
  for (const auto& issued : chain_) {
    sizes.push_back(static_cast<std::size_t>(i2d_X509(issued->cert, nullptr)));
  }
  return sizes;
}

namespace {

// What write does to a memory BIO, as text.
template <class Write>
std::string pem(const char* what, Write write) {
  BIO* bio = BIO_new(BIO_s_mem());
  if (!bio || write(bio) != 1) {
    BIO_free(bio);
    throw_openssl_error("test CA", what);
  }
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  std::string out(data, static_cast<std::size_t>(n));
  BIO_free(bio);
  return out;
}

}  // namespace

std::string TestPki::chain_pem() const {
  std::string out;
  for (const auto& issued : chain_) {
    out += pem("PEM certificate", [&](BIO* b) { return PEM_write_bio_X509(b, issued->cert); });
  }
  return out;
}

std::string TestPki::key_pem() const {
  return pem("PEM key", [&](BIO* b) {
    return PEM_write_bio_PrivateKey(b, chain_.front()->key, nullptr, nullptr, 0, nullptr, nullptr);
  });
}

std::string TestPki::root_pem() const {
  return pem("PEM root", [&](BIO* b) { return PEM_write_bio_X509(b, root_->cert); });
}

}  // namespace wire
