// The message dataset (generators/model.hpp, Message) as a Thrift struct: the
// model's members in order, field ids from 1. Default requiredness, so the
// generated code records which fields it read (__isset) and the adapter can
// name a missing one.
namespace cpp wb.thrift_gen

struct Message {
  1: i32 ID
  2: string MessageText
}

struct MessageFeed {
  1: list<Message> value
}
