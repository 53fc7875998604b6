// A user's OData feed in every other format (`./wirebench bench --payload
// FILE --as-formats`): what the feed would cost as another OData dialect or
// as a binary format. The feed is read once into entity rows; the rows are
// then encoded by every encoder of every format that carries them and
// decoded by every decoder of it, in the file's own unit of rounds:
//
//   {format}/file:{name}/{bytes}/encode/{serializer}
//   {format}/file:{name}/{bytes}/decode/{parser}/from:{serializer}
//
// {bytes} is the file's, so the names share its case and its rounds; the
// file's own format is left out (the file itself is that one). Every encoding
// is decoded back by the format's decoders and checked equal to the rows
// before it is timed; an encode benchmark carries the payload's sizes
// (wire_bytes and {compressor}_bytes). A format that cannot carry the rows
// registers its benchmarks skipped with the reason ("not carried: ...").
#pragma once

#include <string>
#include <string_view>

namespace wb::bench {

// Registers the feed's rows in every other format. unit: "file:{name}/{bytes}";
// format: the feed's format; bytes: the file, which outlives the run (it
// needs kInputPadding readable bytes after it). Records what it did in the
// result's context under "as_formats.file:{name}.": the rows, the decoder
// they came from, the formats carried and those not carried, with why.
void register_as_formats(const std::string& unit, std::string_view format, std::string_view bytes);

}  // namespace wb::bench
