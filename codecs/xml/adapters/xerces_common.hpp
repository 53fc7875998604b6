// What the Xerces-C encoder and decoders share: one-time initialization,
// UTF-16 <-> UTF-8 by hand (XMLString::transcode goes through the locale and
// allocates on every call), the safe parser settings and errors as DecodeError.
#pragma once

#include <xercesc/dom/DOMException.hpp>
#include <xercesc/framework/MemBufInputSource.hpp>
#include <xercesc/sax/ErrorHandler.hpp>
#include <xercesc/sax/SAXParseException.hpp>
#include <xercesc/util/SecurityManager.hpp>
#include <xercesc/util/XMLException.hpp>

#include <array>
#include <string>
#include <string_view>

#include "codecs/codec.hpp"
#include "codecs/xml/prescan.hpp"
#include "codecs/xml/prolog.hpp"

namespace wb::xml::xerces {

// XMLPlatformUtils::Initialize with our DOM heap sizes (xerces_common.cpp),
// once per process. Never terminated: adapters of other threads or static
// lifetime may still use the library.
void initialize();

// A member placed first in an adapter so Xerces is ready before other members.
struct Initialized {
  Initialized() { initialize(); }
};

// UTF-16 -> UTF-8 into storage reused across calls; the view lives until the
// next call on the same buffer.
class Utf8Buffer {
 public:
  std::string_view operator()(const XMLCh* s, std::size_t n);
  std::string_view operator()(const XMLCh* s);  // null-terminated, null = ""

 private:
  std::string buf_;  // used as raw storage: size only grows
};

// Namespace URIs by pointer: Xerces interns them (the DOM in its document's
// string pool, SAX in the scanner's URI pool), so within one parse the same
// URI is the same pointer and is transcoded once. clear() before every parse:
// after it, freed pointers may come back holding other URIs.
class UriCache {
 public:
  void clear();
  std::string_view operator()(const XMLCh* uri);

 private:
  struct Entry {
    const XMLCh* key = nullptr;
    std::string utf8;
  };
  std::array<Entry, 8> entries_;
  std::size_t next_ = 0;
};

// Every view one binder call needs at once: start(uri, local) and
// attribute(uri, local, value); text uses value.
struct Utf8Views {
  UriCache uri;
  Utf8Buffer local, value;
};

// UTF-8 -> null-terminated UTF-16 for the writer, storage reused.
class XmlChBuffer {
 public:
  const XMLCh* operator()(std::string_view utf8);
  // prefix:local (or local alone when prefix is empty)
  const XMLCh* qname(std::string_view prefix, std::string_view local);

 private:
  void append(std::string_view utf8);
  std::u16string buf_;
};

// The input bytes as a Xerces input source, without a copy: by default a
// MemBufInputSource's stream copies the whole buffer on every parse.
class InputView {
 public:
  InputView() { source_.setCopyBufToStream(false); }
  const xercesc::InputSource& operator()(std::string_view bytes);

 private:
  xercesc::MemBufInputSource source_{nullptr, 0, u"input", false};
};

// No DTD fetches (set on the parsers), and a bound on entity expansion for
// documents that define entities in an internal subset.
class EntityLimit : public xercesc::SecurityManager {
 public:
  EntityLimit() { setEntityExpansionLimit(ENTITY_EXPANSION_LIMIT); }
};

// Errors and fatal errors stop the parse (Xerces would go on after an error);
// warnings are ignored. Nothing is printed.
class ThrowOnError : public xercesc::ErrorHandler {
 public:
  void warning(const xercesc::SAXParseException&) final {}
  void error(const xercesc::SAXParseException& e) final { throw e; }
  void fatalError(const xercesc::SAXParseException& e) final { throw e; }
  void resetErrors() final {}
};

[[noreturn]] void throw_parse_error(std::string_view library, const xercesc::SAXParseException& e);
[[noreturn]] void throw_error(std::string_view library, const XMLCh* message);
[[noreturn]] void throw_dom_error(std::string_view library, const xercesc::DOMException& e);

// Runs parse() with Xerces' exceptions turned into DecodeError("line L,
// column C" in the message: Xerces gives no byte offset). The binder's own
// DecodeError passes through unchanged.
template <class Parse>
void translate_errors(std::string_view library, Parse&& parse) {
  try {
    parse();
  } catch (const xercesc::SAXParseException& e) {
    throw_parse_error(library, e);
  } catch (const xercesc::SAXException& e) {
    throw_error(library, e.getMessage());
  } catch (const xercesc::XMLException& e) {
    throw_error(library, e.getMessage());
  } catch (const xercesc::DOMException& e) {
    // The DOM parser builds its tree while scanning and throws these from
    // the builder: <?xml version="1.~"?> makes XMLDecl() throw
    // NOT_SUPPORTED_ERR, which would end the process if it went uncaught.
    // Its message alone ("implementation does not support the requested
    // type of object or operation") does not say it is about the document.
    throw_dom_error(library, e);
  }
}

// What every Xerces reader holds before its parser, in this order (members
// are made in order: Xerces is initialised before the parser): the entity
// limit and error handler the parser is given, and the view of the input.
struct ReaderParts {
  Initialized init;
  EntityLimit limit;
  ThrowOnError errors;
  InputView source;
};

// A decoder's: the reader's parts, UTF-8 views for the binder and the
// pre-scan's marks, both reused across calls.
struct DecoderParts : ReaderParts {
  Utf8Views utf8;
  SpecialBytes marks;
  // The encoding and prolog check (prolog.hpp) and the depth/DOCTYPE
  // pre-scan (Xerces bounds neither), then run(source) with Xerces'
  // exceptions as DecodeErrors.
  template <class Run>
  void parse(std::string_view library, std::string_view input, Run&& run) {
    const Document doc = open_document(library, input);
    reject_unbounded(library, doc.body, marks, doc.skipped);
    translate_errors(library, [&] { run(source(doc.body)); });
  }
};

}  // namespace wb::xml::xerces
