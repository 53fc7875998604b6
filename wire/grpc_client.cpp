// The gRPC client: a process of its own in the client namespace that holds
// one channel at a time and makes the calls the parent asks for, and the
// parent's handle on it, which counts the link's bytes around each call.
// The calls go through the generated stub of wire/grpc_rows.proto: gRPC
// parses the answer into the protobuf codec's feed messages, and the rows
// are then read out into the model's records and checked against the page.
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <chrono>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "codecs/protobuf/pb_rows.hpp"
#include "codecs/registry.hpp"
#include "generators/record_diff.hpp"
#include "grpc_rows.grpc.pb.h"
#include "wire/child_process.hpp"
#include "wire/grpc_call.hpp"
#include "wire/link.hpp"
#include "wire/tls_pki.hpp"

namespace wire {
namespace {

namespace pb = ::wirebench::pb;
using wb::protobuf::Pb;

// A call's own limit; the parent waits a little longer for its answer.
constexpr int kCallSeconds = 120;
constexpr int kAnswerMs = (kCallSeconds + 30) * 1000;

double ms_since(std::int64_t from_ns) {
  return static_cast<double>(monotonic_ns() - from_ns) / 1e6;
}

std::chrono::system_clock::time_point in_seconds(int s) {
  return std::chrono::system_clock::now() + std::chrono::seconds(s);
}

// The child's side: the channel, and the records each page must decode to.
class Caller {
 public:
  Caller(std::string root_pem, std::string host)
      : root_pem_(std::move(root_pem)), host_(std::move(host)) {}

  GrpcResult call(const HttpSpec& spec, const std::string& compression, bool new_channel) {
    GrpcResult r;
    r.compression = compression;
    const std::int64_t t0 = monotonic_ns();
    if (new_channel || !channel_) {
      r.new_channel = true;
      open();
      if (connect()) r.connect_ms = ms_since(t0);
      // Not connected: the call below fails at once, and its status says why.
    }
    pb::RowsQuery query;
    query.set_query(spec.query());
    query.set_compression(compression);
    if (spec.dataset == "message") {
      run<wb::Message>(spec, query, &pb::Rows::Stub::PrepareAsyncMessages, t0, r);
    } else if (spec.dataset == "airport") {
      run<wb::Airport>(spec, query, &pb::Rows::Stub::PrepareAsyncAirports, t0, r);
    } else {
      run<wb::ScienceRow>(spec, query, &pb::Rows::Stub::PrepareAsyncScience, t0, r);
    }
    if (!r.ok()) close();
    return r;
  }

  void close() {
    stub_.reset();
    channel_.reset();
  }

 private:
  void open() {
    close();
    grpc::SslCredentialsOptions tls;
    tls.pem_root_certs = root_pem_;
    grpc::ChannelArguments args;
    // The name asked for (SNI) and verified against the certificate.
    args.SetSslTargetNameOverride(host_);
    // A new channel makes a new connection: channels share connections
    // through the global subchannel pool otherwise.
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
    args.SetInt(GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, -1);
    channel_ =
        grpc::CreateCustomChannel(std::string(kServerAddress) + ":" + std::to_string(kGrpcPort),
                                  grpc::SslCredentials(tls), args);
    stub_ = pb::Rows::NewStub(channel_);
  }

  // Connects the new channel: true once READY, false when it fails (or
  // takes longer than a call may).
  bool connect() {
    const auto deadline = in_seconds(kCallSeconds);
    grpc_connectivity_state state = channel_->GetState(true);
    while (state != GRPC_CHANNEL_READY) {
      if (state == GRPC_CHANNEL_TRANSIENT_FAILURE || state == GRPC_CHANNEL_SHUTDOWN) return false;
      if (!channel_->WaitForStateChange(state, deadline)) return false;
      state = channel_->GetState(true);
    }
    return true;
  }

  template <class T, class Prepare>
  void run(const HttpSpec& spec, const pb::RowsQuery& query, Prepare prepare, std::int64_t t0,
           GrpcResult& r) {
    grpc::ClientContext ctx;
    ctx.set_deadline(in_seconds(kCallSeconds));
    grpc::CompletionQueue cq;
    typename Pb<T>::Feed reply;
    grpc::Status status;
    auto rpc = ((*stub_).*prepare)(&ctx, query, &cq);
    rpc->StartCall();
    void* const kHead = reinterpret_cast<void*>(1);
    void* const kDone = reinterpret_cast<void*>(2);
    rpc->ReadInitialMetadata(kHead);
    rpc->Finish(&reply, &status, kDone);
    for (int pending = 2; pending > 0; --pending) {
      void* tag = nullptr;
      bool ok = false;
      if (!cq.Next(&tag, &ok)) break;
      (tag == kHead ? r.first_byte_ms : r.last_byte_ms) = ms_since(t0);
    }
    if (!status.ok()) {
      r.error =
          "gRPC status " + std::to_string(status.error_code()) + ": " + status.error_message();
      return;
    }
    const auto& head = ctx.GetServerInitialMetadata();
    if (auto it = head.find("wb-encode-ms"); it != head.end()) {
      r.server_encode_ms = std::stod(std::string(it->second.data(), it->second.size()));
    }
    r.message_bytes = reply.ByteSizeLong();
    const std::int64_t t1 = monotonic_ns();
    std::vector<T> rows;
    // The service's messages are the protobuf codec's, read by the library the
    // registry picks for the field's protobuf (the generated code's).
    wb::protobuf::rows_from_pb(wb::picked(wb::Pick::field, "protobuf", wb::Role::decode),
                               Pb<T>::rows(std::as_const(reply)), rows);
    r.convert_ms = ms_since(t1);
    r.total_ms = r.last_byte_ms + r.convert_ms;
    r.rows = static_cast<int>(rows.size());
    const wb::Records got = std::move(rows);
    if (auto diff = wb::first_difference(expected(spec), got, wb::DoubleMatch::identical)) {
      r.error = "decoded rows differ from the dataset: " + *diff;
    } else {
      r.checked = true;
    }
  }

  const wb::Records& expected(const HttpSpec& spec) {
    auto it = expected_.find(spec.query());
    if (it == expected_.end()) it = expected_.emplace(spec.query(), page_records(spec)).first;
    return it->second;
  }

  std::string root_pem_, host_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<pb::Rows::Stub> stub_;
  std::map<std::string, wb::Records> expected_;
};

// The child's life: "close", or "call NEW COMPRESSION QUERY", until the
// parent closes the pipe.
void run_client(MessagePipe& pipe, const std::string& root_pem, const std::string& host) {
  Caller caller(root_pem, host);
  for (;;) {
    std::string message;
    try {
      message = pipe.receive(std::numeric_limits<int>::max());
    } catch (const std::runtime_error&) {
      ::_exit(0);  // the parent closed the pipe: the sockets end with the process
    }
    if (message == "close") {
      caller.close();
      pipe.send("closed");
      continue;
    }
    std::istringstream in(message);
    std::string word, compression, query;
    bool new_channel = false;
    in >> word >> new_channel >> compression >> query;
    HttpSpec spec;
    apply_params(spec, parse_query(query));
    pipe.send(caller.call(spec, compression, new_channel).serialize());
  }
}

struct LinkBytes {
  std::uint64_t up = 0, down = 0;
};

LinkBytes link_bytes(const Testbed& testbed) {
  const Forwarder& f = testbed.forwarder();
  return {f.stats(Direction::kClientToServer).bytes_in,
          f.stats(Direction::kServerToClient).bytes_in};
}

}  // namespace

GrpcClient::GrpcClient(const Testbed& testbed, const TestPki& pki, const std::string& host)
    : testbed_(testbed) {
  const std::string root = pki.root_pem();
  child_ = std::make_unique<ChildProcess>(
      "the gRPC client", testbed.namespace_name(Side::kClient),
      [root, host](MessagePipe& pipe) { run_client(pipe, root, host); });
}

GrpcClient::~GrpcClient() = default;

GrpcResult GrpcClient::call(const HttpSpec& spec, const GrpcConfig& grpc, bool new_channel) {
  HttpSpec checked = spec;
  check_grpc_spec(checked);
  new_channel = new_channel || !open_;
  if (new_channel && open_) {
    child_->send("close");
    child_->receive(kAnswerMs);
    // The closed connection's GOAWAY and FINs clear the link first.
    const double gap_ms = 2 * testbed_.config().rtt_ms + 1;
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long>(gap_ms * 1e3)));
  }
  const LinkBytes before = link_bytes(testbed_);
  const std::uint64_t drops = testbed_.link_drops();
  child_->send("call " + std::to_string(new_channel) + " " + grpc.compression + " " +
               checked.query());
  GrpcResult r = GrpcResult::parse(child_->receive(kAnswerMs));
  const LinkBytes after = link_bytes(testbed_);
  r.link_up_bytes = after.up - before.up;
  r.link_down_bytes = after.down - before.down;
  r.link_drops = testbed_.link_drops() - drops;
  open_ = r.ok();
  return r;
}

}  // namespace wire
