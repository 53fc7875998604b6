#pragma once

// A forked child process inside one network namespace, and the messages it
// exchanges with its parent over two pipes. A namespace is a property of
// each thread, and a library that makes its sockets on threads of its own
// (gRPC's channels connect from its pollers) puts them in whichever namespace
// those threads were started in. A child that enters the namespace while it
// is the only thread of its process, before the library starts, has every
// thread and socket in it.

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>

#include "wire/fd.hpp"

namespace wire {

// One end's pair of pipes: length-prefixed messages each way.
class MessagePipe {
 public:
  MessagePipe(Fd in, Fd out) : in_(std::move(in)), out_(std::move(out)) {}
  void send(const std::string& message);
  // The next message; throws std::runtime_error after timeout_ms, at end of
  // stream, or with the text of an error message the other end sent.
  std::string receive(int timeout_ms);
  // Sends what as an error message, which receive() on the other end throws.
  void send_error(const std::string& what);
  int in_fd() const { return in_.get(); }
  int out_fd() const { return out_.get(); }

 private:
  void write_frame(char kind, const std::string& body);
  Fd in_, out_;
};

class ChildProcess {
 public:
  // Forks. The child closes every inherited descriptor but its pipes, dies
  // with the thread that made it (PR_SET_PDEATHSIG follows the thread, so
  // make it from one that outlives it), enters namespace ns, runs body and
  // exits (status 0),
  // or sends body's exception as an error message and exits with 1. It never
  // returns into the parent's code: the parent's objects (the namespaces,
  // the link) are the parent's to tear down. name says who it is in errors.
  ChildProcess(std::string name, const std::string& ns, std::function<void(MessagePipe&)> body);
  // Closes the pipes (the child's cue to end), waits up to 5 s, then kills it.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  void send(const std::string& message) { pipe_->send(message); }
  // MessagePipe::receive, its errors naming the child.
  std::string receive(int timeout_ms);
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  pid_t pid_ = -1;
  std::unique_ptr<MessagePipe> pipe_;
};

}  // namespace wire
