// `infoset`: the WCF JSON<->XML infoset of any JSON file, as XML (the mapping
// of codecs/wcfjson/infoset.hpp, read with RapidJSON's SAX reader).
#include <string>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/io.hpp"
#include "codecs/wcfjson/infoset.hpp"
#include "codecs/wcfjson/read_rapidjson.hpp"

namespace wb::cli {
namespace {

constexpr const char kHelp[] = R"txt(usage: wirebench infoset [--compact] FILE

Prints the XML infoset that WCF's JsonReaderWriterFactory reads JSON as
(DataContractJsonSerializer works on this, never on the JSON text):
<root type="object|array|string|number|boolean|null">, array items as <item>,
members as elements named after the key (keys that are not XML names as
<a:item xmlns:a="item" item="KEY">), a leading "__type" as an attribute.
Any JSON value works; FILE may be - for stdin.

  --compact   one line, no indentation (the form infoset_bytes counts)

Exit status: 0 on success, 1 if the file is not JSON, 2 on a bad request.
)txt";

}  // namespace

int run_infoset(Args args) {
  const ParsedArgs a = parse_args(args, {{"compact", false}});
  if (a.help) {
    write_stdout(kHelp);
    return kExitOk;
  }
  if (a.positionals.size() != 1) throw UsageError("expected one FILE (or -)");
  const std::string json = padded_copy(read_input(a.positionals.front()));
  const std::string_view input = json;  // the padding is beyond size()
  std::string xml;
  wcfjson::XmlTextSink sink(xml, !a.has("compact"));
  wcfjson::JsonToInfoset<wcfjson::XmlTextSink> mapping(sink);
  wcfjson::RapidjsonReader reader;
  try {
    reader.parse(input, mapping);
    mapping.finish();
  } catch (const DecodeError& e) {
    throw std::runtime_error(e.describe());
  }
  xml += '\n';
  write_stdout(xml);
  return kExitOk;
}

}  // namespace wb::cli
