#include "codecs/xml/adapters/mxml_common.hpp"

namespace wb::xml::mxml {

std::string& errors() {
  thread_local std::string messages;
  return messages;
}

void prepare_thread() {
  thread_local bool prepared = false;
  if (prepared) return;
  // The first message names the fault; later ones follow from it.
  mxmlSetErrorCallback([](const char* message) {
    if (errors().empty()) errors() = message;
  });
  mxmlSetWrapMargin(0);
  prepared = true;
}

}  // namespace wb::xml::mxml
