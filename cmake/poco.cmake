# Poco's JSON and XML libraries, for the json and the XML formats' adapters
# (wb_poco_json here, wb_poco_xml in cmake/xml_compress_libraries.cmake).
if(WB_WITH_POCO)
  find_package(Poco REQUIRED COMPONENTS Foundation JSON XML)
  wb_library(poco "${Poco_VERSION}" "shared (Debian ships no archive)" "${WB_DEBIAN_FLAGS}")
  add_library(wb_poco_json INTERFACE)
  target_link_libraries(wb_poco_json INTERFACE Poco::JSON)
endif()
