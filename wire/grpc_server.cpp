// The gRPC service (wire/grpc_rows.proto) in a process of its own in the
// server namespace. Each call's answer is the page encoded by the spec's
// protobuf encoder through the codec, as the HTTP server encodes it (timed
// the same way, and sent back as the "wb-encode-ms" initial metadata), and
// handed to gRPC as the serialized message; gRPC compresses it when the
// query asks for gzip.
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <chrono>
#include <limits>
#include <stdexcept>

#include "grpc_rows.grpc.pb.h"
#include "wire/child_process.hpp"
#include "wire/grpc_call.hpp"
#include "wire/http_payload.hpp"
#include "wire/tls_pki.hpp"

namespace wire {
namespace {

namespace pb = ::wirebench::pb;

using RawService =
    pb::Rows::WithRawCallbackMethod_Messages<pb::Rows::WithRawCallbackMethod_Airports<
        pb::Rows::WithRawCallbackMethod_Science<pb::Rows::Service>>>;

class RowsService final : public RawService {
 public:
  grpc::ServerUnaryReactor* Messages(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* in,
                                     grpc::ByteBuffer* out) override {
    return answer("message", ctx, in, out);
  }
  grpc::ServerUnaryReactor* Airports(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* in,
                                     grpc::ByteBuffer* out) override {
    return answer("airport", ctx, in, out);
  }
  grpc::ServerUnaryReactor* Science(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* in,
                                    grpc::ByteBuffer* out) override {
    return answer("science", ctx, in, out);
  }

 private:
  grpc::ServerUnaryReactor* answer(const std::string& dataset, grpc::CallbackServerContext* ctx,
                                   const grpc::ByteBuffer* in, grpc::ByteBuffer* out) {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    try {
      grpc::Slice slice;
      pb::RowsQuery query;
      if (!in->DumpToSingleSlice(&slice).ok() ||
          !query.ParseFromArray(slice.begin(), static_cast<int>(slice.size()))) {
        throw std::invalid_argument("the request is not a RowsQuery");
      }
      HttpSpec spec;
      apply_params(spec, parse_query(query.query()));
      if (spec.dataset != dataset) {
        throw std::invalid_argument("the " + dataset + " call asks for dataset " + spec.dataset);
      }
      check_grpc_spec(spec);
      if (query.compression() == "gzip") {
        ctx->set_compression_algorithm(GRPC_COMPRESS_GZIP);
      } else if (query.compression() != "none") {
        throw std::invalid_argument("compression " + query.compression() + " is gzip or none");
      }
      EncodedBody body = encode_body(spec, *store_.records_for(spec));
      ctx->AddInitialMetadata("wb-encode-ms", fixed(static_cast<double>(body.encode_ns) / 1e6, 6));
      grpc::Slice message(body.body);
      *out = grpc::ByteBuffer(&message, 1);
      reactor->Finish(grpc::Status::OK);
    } catch (const std::invalid_argument& e) {
      reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, e.what()));
    } catch (const std::exception& e) {
      reactor->Finish(grpc::Status(grpc::StatusCode::INTERNAL, e.what()));
    }
    return reactor;
  }

  PageStore store_;
};

// The child's life: serve until the parent closes the pipe.
void serve(MessagePipe& pipe, const std::string& chain_pem, const std::string& key_pem) {
  RowsService service;
  grpc::SslServerCredentialsOptions tls(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  tls.pem_key_cert_pairs.push_back({key_pem, chain_pem});
  grpc::ServerBuilder builder;
  const std::string address = std::string(kServerAddress) + ":" + std::to_string(kGrpcPort);
  int port = 0;
  builder.AddListeningPort(address, grpc::SslServerCredentials(tls), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) throw std::runtime_error("cannot listen on " + address);
  pipe.send("ready");
  try {
    pipe.receive(std::numeric_limits<int>::max());
  } catch (const std::runtime_error&) {
    // The parent closed the pipe: the run is over.
  }
  // No graceful shutdown (it can outlast the parent's wait): the process
  // ends, and its sockets with it.
  ::_exit(0);
}

}  // namespace

GrpcServer::GrpcServer(const Testbed& testbed, const TestPki& pki) {
  const std::string chain = pki.chain_pem(), key = pki.key_pem();
  child_ =
      std::make_unique<ChildProcess>("the gRPC server", testbed.namespace_name(Side::kServer),
                                     [chain, key](MessagePipe& pipe) { serve(pipe, chain, key); });
  child_->receive(30'000);  // "ready", or why not
}

GrpcServer::~GrpcServer() = default;

std::string grpc_version() {
  return grpc::Version();
}

}  // namespace wire
