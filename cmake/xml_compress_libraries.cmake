# The XML libraries and compressors of the second wave: TinyXML-2, Mini-XML,
# Poco's XML (found in cmake/poco.cmake), LZ4 and Snappy. Included from
# CMakeLists.txt once wirebench_codecs exists; the adapters are in
# codecs/xml/ and codecs/compress/ and are picked up by its glob. Archives
# where Debian ships them, as for every library (cmake/libraries.cmake).

# TinyXML-2: Debian ships only the shared library.
if(WB_WITH_TINYXML2)
  find_package(tinyxml2 CONFIG REQUIRED)
  add_library(wb_tinyxml2 ALIAS tinyxml2::tinyxml2)
  wb_library(tinyxml2 "${tinyxml2_VERSION}" "shared (Debian ships no archive)" "${WB_DEBIAN_FLAGS}")
endif()

# Mini-XML: its archive, found through its pkg-config file.
wb_pkg_archive(MXML wb_mxml mxml libmxml.a mxml Threads::Threads)

# Poco's XML (SAX2 over expat, DOM, XMLWriter): shared, as Debian ships it.
add_library(wb_poco_xml INTERFACE)
if(WB_WITH_POCO)
  target_link_libraries(wb_poco_xml INTERFACE Poco::XML Poco::Foundation)
endif()
# Poco's and TinyXML-2's targets carry compile definitions (glibc feature
# macros such as _XOPEN_SOURCE=500, _DEBUG in Debug builds, POCO_UNBUNDLED,
# TINYXML2_IMPORT) that would apply to every codec of wirebench_codecs: they
# go to the sources that include those libraries only.
# wb_definitions_to_sources(target glob...): moves target's definitions.
function(wb_definitions_to_sources target)
  get_target_property(definitions ${target} INTERFACE_COMPILE_DEFINITIONS)
  set_target_properties(${target} PROPERTIES INTERFACE_COMPILE_DEFINITIONS "")
  file(GLOB sources CONFIGURE_DEPENDS ${ARGN})
  foreach(source IN LISTS sources)
    set_property(SOURCE ${source} APPEND PROPERTY COMPILE_DEFINITIONS "${definitions}")
  endforeach()
endfunction()
set(WB_POCO_SOURCE_GLOBS ${PROJECT_SOURCE_DIR}/codecs/*/adapters/poco*.cpp
    ${PROJECT_SOURCE_DIR}/benchmarks/standalone/*poco*.cpp)
if(WB_WITH_POCO)
  wb_definitions_to_sources(Poco::Foundation ${WB_POCO_SOURCE_GLOBS})
  wb_definitions_to_sources(Poco::XML ${WB_POCO_SOURCE_GLOBS})
endif()
if(WB_WITH_TINYXML2)
  wb_definitions_to_sources(tinyxml2::tinyxml2
                            ${PROJECT_SOURCE_DIR}/codecs/xml/adapters/tinyxml2_codec.cpp
                            ${PROJECT_SOURCE_DIR}/benchmarks/standalone/tinyxml2*.cpp)
endif()

# LZ4 (frame format) and Snappy (raw format): their archives.
wb_pkg_archive(LZ4 wb_lz4 liblz4 liblz4.a lz4)
if(WB_WITH_SNAPPY)
  find_package(Snappy CONFIG REQUIRED)
  add_library(wb_snappy ALIAS Snappy::snappy-static)
  wb_library(snappy "${Snappy_VERSION}" "static (libsnappy.a)" "${WB_DEBIAN_FLAGS}")
endif()

target_link_libraries(wirebench_codecs PRIVATE wb_tinyxml2 wb_mxml wb_poco_xml wb_lz4 wb_snappy)
