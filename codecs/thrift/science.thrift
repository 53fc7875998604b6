// The science dataset (generators/model.hpp, ScienceRow): members in model
// order, field ids from 1, default requiredness (see message.thrift).
// Timestamp is the model's DateTime: 100-ns ticks since 1970-01-01T00:00:00Z.
namespace cpp wb.thrift_gen

struct ScienceRow {
  1: string PartitionKey
  2: string RowKey
  3: i64 Timestamp
  4: i32 X
  5: i32 Y
  6: double Temp
  7: double Humidity
  8: double Pressure
  9: double Wind
}

struct ScienceFeed {
  1: list<ScienceRow> value
}
