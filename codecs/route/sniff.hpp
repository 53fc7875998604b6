// The state machine of the streaming routers: watch start/text/end events for
// the first element named {ns}local, collect its string-value (text of it and
// its descendants), and say when the answer is known so the parse can stop.
// Templated on the character type: libxml2 reports UTF-8, Xerces UTF-16, and
// comparing in the parser's own encoding avoids transcoding every name.
#pragma once

#include <string>
#include <string_view>

namespace wb::route {

template <class Char>
class KeySniffer {
 public:
  using View = std::basic_string_view<Char>;

  // The rule in the parser's encoding; call before each parse.
  void reset(View ns, View local, View value) {
    ns_.assign(ns);
    local_.assign(local);
    value_.assign(value);
    text_.clear();
    depth_ = -1;
    done_ = false;
  }
  void start(View uri, View local) {
    if (done_) return;
    if (depth_ >= 0)
      ++depth_;
    else if (local == local_ && uri == ns_)
      depth_ = 0;
  }
  void text(View chars) {
    if (depth_ >= 0 && !done_) text_.append(chars);
  }
  void end() {
    if (depth_ < 0 || done_) return;
    if (depth_-- == 0) done_ = true;
  }
  // The key element has ended: the parse may stop.
  bool done() const { return done_; }
  // Whether the key was found with the expected text.
  bool matched() const { return done_ && text_ == value_; }

 private:
  std::basic_string<Char> ns_, local_, value_, text_;
  int depth_ = -1;  // inside the key: nesting below it; -1 outside
  bool done_ = false;
};

// The user data of a C parser's sniff callbacks: the sniffer and the parser's
// handle, to stop the parse once the key has ended (Stop(handle)).
template <class Handle, void (*Stop)(Handle)>
struct CallbackSniff {
  KeySniffer<char> sniffer;
  Handle parser{};

  static CallbackSniff& of(void* user_data) { return *static_cast<CallbackSniff*>(user_data); }
  void end() {
    sniffer.end();
    if (sniffer.done()) Stop(parser);
  }
};

}  // namespace wb::route
