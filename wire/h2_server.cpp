#include "wire/h2_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "wire/http_server.hpp"
#include "wire/http_spec.hpp"
#include "wire/tls_handshake.hpp"

namespace wire {
namespace {

// Bytes of frames gathered before one write: TLS then cuts them into full
// records of 16 KB instead of one record per frame.
constexpr std::size_t kWriteChunk = 64 * 1024;

struct Request {
  std::string method, path;
  std::string body;
  std::size_t offset = 0;
};

// One connection's session and the requests open on it.
struct Connection {
  H2Server& server;
  H2Socket& socket;
  nghttp2_session* session = nullptr;
  std::map<std::int32_t, Request> requests;
};

Connection& of(void* user) {
  return *static_cast<Connection*>(user);
}

std::string ms_text(std::int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e6);
  return buf;
}

std::string congestion_of(int fd) {
  char name[16] = {};
  socklen_t len = sizeof name;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len) != 0) return "unknown";
  return std::string(name, strnlen(name, sizeof name));
}

ssize_t read_body(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                  std::uint32_t* flags, nghttp2_data_source* source, void*) {
  auto& req = *static_cast<Request*>(source->ptr);
  const std::size_t n = std::min(length, req.body.size() - req.offset);
  std::memcpy(buf, req.body.data() + req.offset, n);
  req.offset += n;
  if (req.offset == req.body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
  return static_cast<ssize_t>(n);
}

// The answer to a request whose headers (and END_STREAM) have come: the
// page as HttpServer answers it, or a 404, 400 or 500 with the reason.
void respond(Connection& c, std::int32_t stream_id, Request& req) {
  std::vector<std::pair<std::string, std::string>> headers;
  std::string type = "text/plain";
  int status = 200;
  constexpr char kPrefix[] = "/rows?";
  HttpSpec spec;
  try {
    if (req.method != "GET" || req.path.rfind(kPrefix, 0) != 0) {
      status = 404;
      req.body = "not found: " + req.method + " " + req.path + "\n";
    } else {
      apply_params(spec, parse_query(req.path.substr(std::strlen(kPrefix))));
      validate(spec);
    }
  } catch (const std::invalid_argument& e) {
    status = 400;
    req.body = std::string("bad request: ") + e.what() + "\n";
  }
  if (status == 200) {
    try {
      EncodedBody encoded = encode_body(spec, *c.server.pages().records_for(spec));
      type = content_type(spec.format);
      if (!encoded.coding.empty()) headers.emplace_back("content-encoding", encoded.coding);
      headers.emplace_back("x-wb-encode-ms", ms_text(encoded.encode_ns));
      headers.emplace_back("x-wb-compress-ms", ms_text(encoded.compress_ns));
      headers.emplace_back("x-wb-raw-bytes", std::to_string(encoded.raw_bytes));
      headers.emplace_back("x-wb-rows", std::to_string(spec.page_rows()));
      req.body = std::move(encoded.body);
    } catch (const std::exception& e) {
      status = 500;
      req.body = std::string("encode failed: ") + e.what() + "\n";
    }
  }
  headers.emplace_back("x-wb-server-congestion", congestion_of(c.socket.fd()));
  const TlsHandshake& h = this_thread_handshake();
  if (h.done) {
    // This thread ran the connection's handshake before its requests.
    headers.emplace_back("x-wb-tls-server-cpu-ms",
                         ms_text(static_cast<std::int64_t>(h.cpu_ms * 1e6)));
    headers.emplace_back("x-wb-tls-server-resumed", h.resumed ? "1" : "0");
    headers.emplace_back("x-wb-tls-server-first-flight",
                         std::to_string(h.server_first_flight_bytes));
  }
  headers.insert(headers.begin(), {{":status", std::to_string(status)}, {"content-type", type}});
  std::vector<nghttp2_nv> nva;
  for (auto& [name, value] : headers) {
    nva.push_back({reinterpret_cast<std::uint8_t*>(name.data()),
                   reinterpret_cast<std::uint8_t*>(value.data()), name.size(), value.size(),
                   NGHTTP2_NV_FLAG_NONE});
  }
  nghttp2_data_provider data{};
  data.source.ptr = &req;
  data.read_callback = read_body;
  // nghttp2 copies the header fields; the body stays in req until the stream closes.
  if (const int rv = nghttp2_submit_response(c.session, stream_id, nva.data(), nva.size(), &data);
      rv != 0) {
    c.server.add_error("HTTP/2 response on stream " + std::to_string(stream_id) + ": " +
                       nghttp2_strerror(rv));
  }
}

int on_begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* user) {
  if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST) {
    of(user).requests[frame->hd.stream_id];
  }
  return 0;
}

int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
              std::size_t namelen, const std::uint8_t* value, std::size_t valuelen, std::uint8_t,
              void* user) {
  auto& requests = of(user).requests;
  auto it = requests.find(frame->hd.stream_id);
  if (it == requests.end()) return 0;
  const std::string_view n(reinterpret_cast<const char*>(name), namelen);
  const std::string v(reinterpret_cast<const char*>(value), valuelen);
  if (n == ":path") it->second.path = v;
  if (n == ":method") it->second.method = v;
  return 0;
}

int on_frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* user) {
  Connection& c = of(user);
  const bool request_end = (frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
                           (frame->hd.flags & NGHTTP2_FLAG_END_STREAM);
  if (auto it = c.requests.find(frame->hd.stream_id); request_end && it != c.requests.end()) {
    respond(c, frame->hd.stream_id, it->second);
  }
  return 0;
}

int on_stream_close(nghttp2_session*, std::int32_t stream_id, std::uint32_t, void* user) {
  of(user).requests.erase(stream_id);
  return 0;
}

// Every frame nghttp2 has ready, gathered into writes of kWriteChunk.
void flush(Connection& c) {
  std::string out;
  for (;;) {
    const std::uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(c.session, &data);
    if (n < 0)
      throw std::runtime_error(std::string("nghttp2: ") + nghttp2_strerror(static_cast<int>(n)));
    if (n > 0) out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
    // A response's HEADERS leave in a write of their own, as the HTTP/1.1
    // server writes its head: gathered with the DATA behind them into one
    // 16 KB TLS record, they wait for the whole record, which a cold
    // connection's initial window cannot carry in one flight. Each call
    // returns one frame.
    const bool head = n >= 9 && data[3] == NGHTTP2_HEADERS;
    if (head || ((n == 0 || out.size() >= kWriteChunk) && !out.empty())) {
      c.socket.write_all(out.data(), out.size());
      out.clear();
    }
    if (n == 0) return;
  }
}

using SessionPtr = std::unique_ptr<nghttp2_session, decltype(&nghttp2_session_del)>;

SessionPtr server_session(Connection& c) {
  nghttp2_session_callbacks* cbs = nullptr;
  nghttp2_session_callbacks_new(&cbs);
  nghttp2_session_callbacks_set_on_begin_headers_callback(cbs, on_begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(cbs, on_header);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, on_frame_recv);
  nghttp2_session_callbacks_set_on_stream_close_callback(cbs, on_stream_close);
  nghttp2_session* s = nullptr;
  const int rv = nghttp2_session_server_new(&s, cbs, &c);
  nghttp2_session_callbacks_del(cbs);
  if (rv != 0) throw std::runtime_error(std::string("nghttp2 server: ") + nghttp2_strerror(rv));
  return SessionPtr(s, nghttp2_session_del);
}

}  // namespace

H2Server::H2Server(const Testbed& testbed, const TlsConfig& tls, const TestPki* pki)
    : timeout_(http_io_timeout(testbed)) {
  if (tls.enabled()) {
    if (!pki) throw std::invalid_argument("HTTP/2 server: TLS needs a certificate chain");
    ctx_ = h2_server_context(tls, *pki);
  }
  listen_ = testbed.tcp_socket(Side::kServer);
  int yes = 1;
  ::setsockopt(listen_.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(kH2Port);
  ::inet_pton(AF_INET, kServerAddress, &addr.sin_addr);
  if (::bind(listen_.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_.get(), 511) != 0) {
    throw std::runtime_error("HTTP/2 server: cannot bind " + std::string(kServerAddress) + ":" +
                             std::to_string(kH2Port) + ": " + std::strerror(errno));
  }
  acceptor_ = std::thread([this] { accept_loop(); });
}

H2Server::~H2Server() {
  stop_ = true;
  acceptor_.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const int fd : open_) ::shutdown(fd, SHUT_RDWR);
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
}

std::vector<std::string> H2Server::take_errors() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(errors_, {});
}

void H2Server::add_error(std::string line) {
  std::lock_guard<std::mutex> lock(mutex_);
  errors_.push_back(std::move(line));
}

void H2Server::accept_loop() {
  while (!stop_) {
    pollfd p{listen_.get(), POLLIN, 0};
    if (::poll(&p, 1, 50) != 1) continue;
    const int fd = ::accept4(listen_.get(), nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::lock_guard<std::mutex> lock(mutex_);
    open_.push_back(fd);
    threads_.emplace_back([this, fd] { serve(Fd(fd)); });
  }
}

void H2Server::serve(Fd fd) {
  const int raw = fd.get();
  H2Socket socket(std::move(fd), ctx_.get(), timeout_);
  Connection c{*this, socket, nullptr, {}};
  try {
    socket.accept();
    SessionPtr session = server_session(c);
    c.session = session.get();
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 100}};
    nghttp2_submit_settings(c.session, NGHTTP2_FLAG_NONE, settings, 1);
    std::vector<char> buf(64 * 1024);
    while (nghttp2_session_want_read(c.session) || nghttp2_session_want_write(c.session)) {
      flush(c);
      if (!nghttp2_session_want_read(c.session)) break;
      std::size_t n = 0;
      try {
        n = socket.read_some(buf.data(), buf.size());
      } catch (const std::runtime_error&) {
        if (c.requests.empty()) break;  // an idle connection timed out: closed, as servers do
        throw;
      }
      if (n == 0) break;
      const ssize_t rv =
          nghttp2_session_mem_recv(c.session, reinterpret_cast<const std::uint8_t*>(buf.data()), n);
      if (rv < 0)
        throw std::runtime_error(std::string("nghttp2: ") + nghttp2_strerror(static_cast<int>(rv)));
    }
  } catch (const std::exception& e) {
    if (!stop_) add_error(std::string("HTTP/2 connection: ") + e.what());
  }
  // Out of open_ before the socket closes, so that stop never shuts down a
  // reused descriptor.
  std::lock_guard<std::mutex> lock(mutex_);
  open_.erase(std::remove(open_.begin(), open_.end(), raw), open_.end());
}

}  // namespace wire
