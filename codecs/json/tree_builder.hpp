// TreeBuilder: write_feed's sink for a library whose writer serializes its own
// tree (JsonCpp, json-c, Jansson, cJSON): it keeps the open containers and
// the pending member name, and a small policy makes and links the library's
// values. The encoders then differ only in the policy and the serialize call.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wb::json {

// Tree is a policy (static or not) with:
//   using Node (a handle of a value in the tree), Made (a new, unlinked value)
//   Made object(); Made array(); Made string(string_view); Made integer(int32_t);
//   Made real(double); Made boolean(bool); Made null();
//   Node root(Made);                               // the tree's root
//   Node put(Node object, const std::string& key, Made);
//   Node append(Node array, Made);
//   void clear();                                  // drop the tree
// A Made value that put() or append() refuses (a C library's NULL on
// allocation failure) is the policy's to report, by throwing.
template <class Tree>
class TreeBuilder {
 public:
  using Node = typename Tree::Node;

  Tree& tree() { return tree_; }
  // Drops the previous tree and starts a new one.
  void reset() {
    stack_.clear();
    tree_.clear();
  }

  // write_feed's sink
  void start_object() { stack_.push_back({place(tree_.object()), true}); }
  void end_object() { stack_.pop_back(); }
  void start_array() { stack_.push_back({place(tree_.array()), false}); }
  void end_array() { stack_.pop_back(); }
  void key(std::string_view k) { key_.assign(k); }
  void string(std::string_view v) { place(tree_.string(v)); }
  void int32(int32_t v) { place(tree_.integer(v)); }
  void number(double v) { place(tree_.real(v)); }
  void boolean(bool v) { place(tree_.boolean(v)); }
  void null() { place(tree_.null()); }

 private:
  struct Open {
    Node node;
    bool object;
  };
  Node place(typename Tree::Made&& made) {
    if (stack_.empty()) return tree_.root(std::move(made));
    const Open& top = stack_.back();
    return top.object ? tree_.put(top.node, key_, std::move(made))
                      : tree_.append(top.node, std::move(made));
  }

  Tree tree_;
  std::vector<Open> stack_;
  std::string key_;  // NUL-terminated, for the C libraries that want one
};

// What the C libraries' trees (json-c, Jansson, cJSON) share as TreeBuilder
// policies: T* handles, the root owned through Free (the library's release),
// a constructor's NULL as an error, and a child its parent refused released.
template <class T, class Free>
class CTree {
 public:
  using Node = T*;
  using Made = T*;
  Node root(Made v) {
    root_.reset(v);
    return v;
  }
  void clear() { root_.reset(); }
  T* root() const { return root_.get(); }

 protected:
  // A constructor's NULL: no memory (or, for Jansson, a value it cannot hold).
  static Made made(Made v) {
    if (!v) throw std::runtime_error("the JSON library could not make a value");
    return v;
  }
  // ok: whether the parent took the child; a refused one is released here,
  // unless the library's call takes it over either way (steals).
  static Node linked(bool ok, Made v, const char* call, bool steals = false) {
    if (ok) return v;
    if (!steals) Free()(v);
    throw std::runtime_error(std::string(call) + " failed");
  }

 private:
  std::unique_ptr<T, Free> root_;
};

}  // namespace wb::json
