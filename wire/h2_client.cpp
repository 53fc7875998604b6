#include "wire/h2_client.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <sys/socket.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "wire/http_server.hpp"
#include "wire/link.hpp"
#include "wire/tls_handshake.hpp"

namespace wire {
namespace {

using SessionPtr = std::unique_ptr<nghttp2_session, decltype(&nghttp2_session_del)>;

// A stream of the batch in flight: its result and what its frames brought.
struct StreamState {
  H2Result* result = nullptr;
  std::int64_t start_ns = 0, head_ns = 0, last_ns = 0;
  std::map<std::string, std::string> headers;  // the response's, but :status
  std::string body;
  int connection_window_updates_at_open = 0;
  bool closed = false;
  std::uint32_t error_code = 0;
};

double ms_between(std::int64_t from_ns, std::int64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) / 1e6;
}

std::string goaway_text(const nghttp2_goaway& g) {
  std::string text = std::string("GOAWAY ") + nghttp2_http2_strerror(g.error_code);
  if (g.opaque_data_len > 0) {
    text +=
        " (" + std::string(reinterpret_cast<const char*>(g.opaque_data), g.opaque_data_len) + ")";
  }
  return text;
}

}  // namespace

struct H2Client::Connection {
  std::unique_ptr<H2Socket> socket;
  SessionPtr session{nullptr, nghttp2_session_del};
  std::map<std::int32_t, StreamState> streams;
  std::int64_t start_ns = 0;
  double connect_ms = 0;
  std::string congestion;
  TlsHandshake tls;
  int connection_window_updates = 0;
  bool raising_window = false;  // the raising WINDOW_UPDATE is still to go out
  std::string failure;          // why the connection ended, once it has
  bool used = false;

  StreamState* stream(std::int32_t id) {
    auto it = streams.find(id);
    return it == streams.end() ? nullptr : &it->second;
  }
  // Every frame nghttp2 has ready, in one write.
  void flush() {
    std::string out;
    for (;;) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(session.get(), &data);
      if (n < 0)
        throw std::runtime_error(std::string("nghttp2: ") + nghttp2_strerror(static_cast<int>(n)));
      if (n == 0) break;
      out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
    }
    if (!out.empty()) socket->write_all(out.data(), out.size());
  }
};

namespace {

H2Client::Connection& of(void* user) {
  return *static_cast<H2Client::Connection*>(user);
}

int on_begin_frame(nghttp2_session*, const nghttp2_frame_hd* hd, void* user) {
  if (StreamState* s = of(user).stream(hd->stream_id)) {
    H2Stream& h2 = s->result->h2;
    ++h2.frames_received;
    if (hd->type == NGHTTP2_HEADERS || hd->type == NGHTTP2_CONTINUATION) {
      h2.response_header_block_bytes += hd->length;
    }
    if (hd->type == NGHTTP2_DATA) ++h2.data_frames;
  }
  return 0;
}

int on_frame_send(nghttp2_session*, const nghttp2_frame* frame, void* user) {
  H2Client::Connection& c = of(user);
  const nghttp2_frame_hd& hd = frame->hd;
  // The WINDOW_UPDATE that raises the connection's window at the start is
  // not counted: the others return credit for DATA received.
  if (hd.type == NGHTTP2_WINDOW_UPDATE && hd.stream_id == 0 &&
      !std::exchange(c.raising_window, false)) {
    ++c.connection_window_updates;
  }
  if (hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR &&
      c.failure.empty()) {
    c.failure = "the client ended the connection with " + goaway_text(frame->goaway);
    if (frame->goaway.error_code == NGHTTP2_FRAME_SIZE_ERROR) {
      c.failure += ": the server sent a frame longer than the client's SETTINGS_MAX_FRAME_SIZE (" +
                   std::to_string(nghttp2_session_get_local_settings(
                       c.session.get(), NGHTTP2_SETTINGS_MAX_FRAME_SIZE)) +
                   " bytes)";
    }
  }
  if (StreamState* s = c.stream(hd.stream_id)) {
    H2Stream& h2 = s->result->h2;
    ++h2.frames_sent;
    if (hd.type == NGHTTP2_HEADERS) h2.request_header_block_bytes += hd.length;
    if (hd.type == NGHTTP2_WINDOW_UPDATE) ++h2.stream_window_updates;
  }
  return 0;
}

int on_frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* user) {
  H2Client::Connection& c = of(user);
  if (frame->hd.type == NGHTTP2_GOAWAY && c.failure.empty()) {
    c.failure = "the server ended the connection with " + goaway_text(frame->goaway);
  }
  StreamState* s = c.stream(frame->hd.stream_id);
  if (!s) return 0;
  if (frame->hd.type == NGHTTP2_HEADERS && !s->head_ns) s->head_ns = monotonic_ns();
  if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) s->last_ns = monotonic_ns();
  return 0;
}

int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
              std::size_t namelen, const std::uint8_t* value, std::size_t valuelen, std::uint8_t,
              void* user) {
  StreamState* s = of(user).stream(frame->hd.stream_id);
  if (!s) return 0;
  s->result->h2.response_header_field_bytes += namelen + valuelen;
  const std::string n(reinterpret_cast<const char*>(name), namelen);
  const std::string v(reinterpret_cast<const char*>(value), valuelen);
  if (n == ":status") s->result->http.status = std::atoi(v.c_str());
  s->headers[n] = v;
  return 0;
}

int on_data(nghttp2_session*, std::uint8_t, std::int32_t stream_id, const std::uint8_t* data,
            std::size_t len, void* user) {
  if (StreamState* s = of(user).stream(stream_id)) {
    s->body.append(reinterpret_cast<const char*>(data), len);
    s->result->h2.data_bytes += len;
  }
  return 0;
}

int on_stream_close(nghttp2_session*, std::int32_t stream_id, std::uint32_t error_code,
                    void* user) {
  H2Client::Connection& c = of(user);
  if (StreamState* s = c.stream(stream_id)) {
    s->closed = true;
    s->error_code = error_code;
    s->result->h2.connection_window_updates =
        c.connection_window_updates - s->connection_window_updates_at_open;
  }
  return 0;
}

SessionPtr client_session(H2Client::Connection& c) {
  nghttp2_session_callbacks* cbs = nullptr;
  nghttp2_session_callbacks_new(&cbs);
  nghttp2_session_callbacks_set_on_begin_frame_callback(cbs, on_begin_frame);
  nghttp2_session_callbacks_set_on_frame_send_callback(cbs, on_frame_send);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, on_frame_recv);
  nghttp2_session_callbacks_set_on_header_callback(cbs, on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, on_data);
  nghttp2_session_callbacks_set_on_stream_close_callback(cbs, on_stream_close);
  nghttp2_session* s = nullptr;
  const int rv = nghttp2_session_client_new(&s, cbs, &c);
  nghttp2_session_callbacks_del(cbs);
  if (rv != 0) throw std::runtime_error(std::string("nghttp2 client: ") + nghttp2_strerror(rv));
  return SessionPtr(s, nghttp2_session_del);
}

double header_ms(const StreamState& s, const char* key) {
  auto it = s.headers.find(key);
  return it == s.headers.end() ? 0 : std::strtod(it->second.c_str(), nullptr);
}

}  // namespace

H2Client::H2Client(const Testbed& testbed, const TlsConfig& tls, const TestPki* pki,
                   const H2Config& h2)
    : testbed_(testbed), tls_(tls), h2_(h2) {
  if (tls_.enabled()) {
    if (!pki) throw std::invalid_argument("HTTP/2 client: TLS needs a trust anchor");
    sessions_ = std::make_unique<TlsSessions>(tls_.resume);
    ctx_ = h2_client_context(tls_, *pki, sessions_.get());
  }
}

H2Client::~H2Client() {
  close();
}

void H2Client::close() {
  if (!conn_) return;
  try {
    nghttp2_session_terminate_session(conn_->session.get(), NGHTTP2_NO_ERROR);
    conn_->flush();
    conn_->socket->shutdown();
  } catch (const std::exception&) {
    // Closing a connection that already failed: nothing more to tell.
  }
  conn_.reset();
}

void H2Client::open() {
  auto c = std::make_unique<Connection>();
  Fd fd = connect_blocking(testbed_, kH2Port, c->start_ns, c->connect_ms);
  char name[16] = {};
  socklen_t len = sizeof name;
  if (::getsockopt(fd.get(), IPPROTO_TCP, TCP_CONGESTION, name, &len) == 0) {
    c->congestion.assign(name, strnlen(name, sizeof name));
  }
  c->socket = std::make_unique<H2Socket>(std::move(fd), ctx_.get(), http_io_timeout(testbed_));
  conn_ = std::move(c);
  conn_->socket->connect();
  if (tls_.enabled()) conn_->tls = this_thread_handshake();
  conn_->session = client_session(*conn_);
  std::vector<nghttp2_settings_entry> settings = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
  if (h2_.window) settings.push_back({NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, h2_.window});
  nghttp2_submit_settings(conn_->session.get(), NGHTTP2_FLAG_NONE, settings.data(),
                          settings.size());
  if (h2_.connection_window() > kH2DefaultWindow) {
    // The connection's window is raised by a WINDOW_UPDATE on stream 0.
    conn_->raising_window = true;
    nghttp2_session_set_local_window_size(conn_->session.get(), NGHTTP2_FLAG_NONE, 0,
                                          static_cast<std::int32_t>(h2_.connection_window()));
  }
}

std::vector<H2Result> H2Client::get(const HttpSpec& spec, int count) {
  std::vector<H2Result> batch(static_cast<std::size_t>(count));
  for (H2Result& r : batch) {
    r.http.stack = h2_.stack(tls_);
    r.http.rtt_ms = testbed_.config().rtt_ms;
  }
  if (spec.reconnect && conn_ && conn_->used) close();
  const bool fresh = !conn_;
  const std::uint64_t drops_before = testbed_.link_drops();
  try {
    if (fresh) open();
  } catch (const std::exception& e) {
    for (H2Result& r : batch) {
      r.http.new_connection = true;
      if (conn_) r.http.tls = this_thread_handshake();
      r.http.error = e.what();
    }
    conn_.reset();
    return batch;
  }
  Connection& c = *conn_;
  c.used = true;
  const std::int64_t start = fresh ? c.start_ns : monotonic_ns();
  const std::string path = "/rows?" + spec.query();
  const std::string authority =
      tls_.enabled() ? kTlsHost : std::string(kServerAddress) + ":" + std::to_string(kH2Port);
  const std::pair<std::string, std::string> fields[] = {
      {":method", "GET"},
      {":scheme", tls_.enabled() ? "https" : "http"},
      {":authority", authority},
      {":path", path},
      {"accept-encoding", spec.encoding},
      {"user-agent", "wirebench"}};
  std::vector<nghttp2_nv> nva;
  std::uint64_t field_bytes = 0;
  for (const auto& [name, value] : fields) {
    nva.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                   reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
                   value.size(), NGHTTP2_NV_FLAG_NONE});
    field_bytes += name.size() + value.size();
  }
  for (H2Result& r : batch) {
    const std::int32_t id =
        nghttp2_submit_request(c.session.get(), nullptr, nva.data(), nva.size(), nullptr, nullptr);
    if (id < 0) throw std::runtime_error(std::string("nghttp2 request: ") + nghttp2_strerror(id));
    StreamState& s = c.streams[id];
    s.result = &r;
    s.start_ns = start;
    s.connection_window_updates_at_open = c.connection_window_updates;
    r.h2.stream_id = id;
    r.h2.concurrent = count;
    r.h2.request_header_field_bytes = field_bytes;
    r.h2.stream_window = h2_.stream_window();
    r.h2.connection_window = h2_.connection_window();
  }
  auto all_closed = [&] {
    for (const auto& [id, s] : c.streams) {
      if (!s.closed) return false;
    }
    return true;
  };
  std::vector<char> buf(64 * 1024);
  try {
    while (!all_closed() && c.failure.empty()) {
      c.flush();
      if (!nghttp2_session_want_read(c.session.get()) &&
          !nghttp2_session_want_write(c.session.get())) {
        if (c.failure.empty()) c.failure = "the session ended";
        break;
      }
      const std::size_t n = c.socket->read_some(buf.data(), buf.size());
      if (n == 0) {
        c.failure = "the server closed the connection";
        break;
      }
      const ssize_t rv = nghttp2_session_mem_recv(
          c.session.get(), reinterpret_cast<const std::uint8_t*>(buf.data()), n);
      if (rv < 0) c.failure = std::string("nghttp2: ") + nghttp2_strerror(static_cast<int>(rv));
    }
    c.flush();  // the WINDOW_UPDATEs and the GOAWAY the last frames asked for
  } catch (const std::exception& e) {
    if (c.failure.empty()) c.failure = e.what();
  }
  const std::uint64_t drops = testbed_.link_drops() - drops_before;
  const std::uint32_t max_frame =
      nghttp2_session_get_remote_settings(c.session.get(), NGHTTP2_SETTINGS_MAX_FRAME_SIZE);
  for (auto& [id, s] : c.streams) {
    H2Result& r = *s.result;
    HttpResult& h = r.http;
    r.h2.server_max_frame_size = max_frame;
    h.link_drops = drops;
    if (fresh) {
      h.new_connection = true;
      h.handshake_ms = c.connect_ms;
      h.congestion = c.congestion;
      // The handshake's figures go with the connection's first stream.
      if (tls_.enabled() && &r == &batch.front()) h.tls = c.tls;
    }
    h.server_congestion = s.headers["x-wb-server-congestion"];
    h.body_bytes = s.body.size();
    h.first_byte_ms = s.head_ns ? ms_between(start, s.head_ns) : 0;
    h.last_byte_ms = s.last_ns ? ms_between(start, s.last_ns) : h.first_byte_ms;
    h.server_encode_ms = header_ms(s, "x-wb-encode-ms");
    h.server_compress_ms = header_ms(s, "x-wb-compress-ms");
    if (h.tls.done) {
      h.server_tls_cpu_ms = header_ms(s, "x-wb-tls-server-cpu-ms");
      h.server_tls_resumed = s.headers["x-wb-tls-server-resumed"] == "1";
      h.server_first_flight_sent =
          std::strtoull(s.headers["x-wb-tls-server-first-flight"].c_str(), nullptr, 10);
    }
    if (!s.closed) {
      h.error = "HTTP/2 connection failed: " + (c.failure.empty() ? "closed" : c.failure);
    } else if (s.error_code != NGHTTP2_NO_ERROR) {
      h.error =
          "HTTP/2 stream " + std::to_string(id) + " reset: " + nghttp2_http2_strerror(s.error_code);
    } else if (h.status != 200) {
      h.error = "HTTP " + std::to_string(h.status) + ": " + s.body.substr(0, s.body.find('\n'));
    } else {
      checker_.check(spec, s.headers["content-type"], s.headers["content-encoding"], s.body, h);
    }
    h.total_ms = h.last_byte_ms + h.decompress_ms + h.decode_ms;
  }
  c.streams.clear();
  if (!c.failure.empty()) conn_.reset();
  return batch;
}

}  // namespace wire
