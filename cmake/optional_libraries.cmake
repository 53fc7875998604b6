# Optional libraries: each benchmarked library has an option
# WB_WITH_<LIBRARY> (default ON), but the three listed below with why. ON,
# its find_package is REQUIRED, as for every library (inside
# if(WB_WITH_<LIBRARY>) where it is found); OFF, the library is not looked
# for, its targets (wb_<name>) are empty INTERFACE ones, and the sources that
# include it are left out of every target: its adapters, its standalone loops
# and its own tests. The registry
# follows what was built (codecs/registry.cpp: a left-out adapter's factory
# is a null weak symbol, its lines are out of every list), and so do the
# benchmarks, the tests and the fuzzer that iterate it; the result file's
# context names what was left out ("left_out", "left_out_codecs").
# Included from cmake/libraries.cmake before any library is found.

set(WB_LEFT_OUT "")
set(WB_OPTIONAL_LIBRARIES "")
# wb_optional(NAME "what" [TARGET target...] SOURCES glob...): the option
# WB_WITH_NAME, the library's targets (made by its find when ON; empty
# INTERFACE ones when OFF, so that every target_link_libraries line stays as
# it is) and the sources (globs under the source tree) that need it.
macro(wb_optional name what)
  cmake_parse_arguments(WB_OPTIONAL "" "" "TARGET;SOURCES" ${ARGN})
  option(WB_WITH_${name} "Build the ${what} adapters (find_package REQUIRED when ON)" ON)
  list(APPEND WB_OPTIONAL_LIBRARIES ${name})
  set(WB_OPTIONAL_SOURCES_${name} ${WB_OPTIONAL_SOURCES})
  if(NOT WB_WITH_${name})
    list(APPEND WB_LEFT_OUT "${what}")
    wb_left_out_target(${WB_OPTIONAL_TARGET})
  endif()
endmacro()

# wb_left_out_target(target...): an empty target for each name.
function(wb_left_out_target)
  foreach(target IN LISTS ARGN)
    add_library(${target} INTERFACE)
  endforeach()
endfunction()

# Called from CMakeLists.txt once every target exists: the left-out
# libraries' sources out of each target that has them.
function(wb_leave_out_sources)
  set(globs "")
  foreach(name IN LISTS WB_OPTIONAL_LIBRARIES)
    if(NOT WB_WITH_${name})
      foreach(glob IN LISTS WB_OPTIONAL_SOURCES_${name})
        list(APPEND globs ${PROJECT_SOURCE_DIR}/${glob})
      endforeach()
    endif()
  endforeach()
  if(NOT globs)
    return()
  endif()
  file(GLOB left_out CONFIGURE_DEPENDS ${globs})
  foreach(target IN ITEMS wirebench_codecs wb_bench_objects wirebench_standalone wirebench_cli
                          wirebench_tests fuzz_decoder)
    if(NOT TARGET ${target})
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    list(REMOVE_ITEM sources ${left_out})
    set_property(TARGET ${target} PROPERTY SOURCES ${sources})
  endforeach()
endfunction()

# The libraries, what the context calls them, and the sources that need
# them: an adapter, a standalone loop and a test are named after the one
# library they include (docs/adding-a-library.md). Every benchmarked library
# is here but three that the project itself uses beside benchmarking them:
# simdjson (the UTF-8 check of codecs/common/utf8.cpp, which every decoder
# that validates shares), nlohmann/json (the tests read result files with it)
# and zlib (gzip, HTTP's baseline coding, and a dependency of the archives of
# libxml2, protobuf and Avro C).
# A wcfjson pairing needs its two libraries (cmake/wcfjson_pairings.cmake).
# JSON
wb_optional(RAPIDJSON "rapidjson" TARGET wb_rapidjson SOURCES codecs/json/adapters/rapidjson_*.cpp
            benchmarks/standalone/rapidjson*.cpp tests/wcfjson_mapping_test.cpp)
wb_optional(BOOSTJSON "boost_json" TARGET wb_boostjson SOURCES codecs/json/adapters/boostjson_*.cpp)
wb_optional(JSONCPP "jsoncpp" TARGET wb_jsoncpp SOURCES codecs/json/adapters/jsoncpp_*.cpp
            benchmarks/standalone/jsoncpp*.cpp)
wb_optional(JSONC "json-c" TARGET wb_jsonc SOURCES codecs/json/adapters/json_c_*.cpp
            benchmarks/standalone/json_c*.cpp)
# Jansson makes its own target: Avro C links it too (cmake/json_libraries.cmake).
wb_optional(JANSSON "jansson" SOURCES codecs/json/adapters/jansson_*.cpp
            benchmarks/standalone/jansson*.cpp)
wb_optional(CJSON "cjson" TARGET wb_cjson SOURCES codecs/json/adapters/cjson_*.cpp
            benchmarks/standalone/cjson*.cpp)
wb_optional(YAJL "yajl" TARGET wb_yajl SOURCES codecs/json/adapters/yajl_*.cpp
            benchmarks/standalone/yajl*.cpp)
wb_optional(POCO "poco" TARGET wb_poco_json SOURCES codecs/json/adapters/poco_*.cpp
            codecs/xml/adapters/poco_*.cpp benchmarks/standalone/poco*.cpp)
# XML
wb_optional(PUGIXML "pugixml" TARGET wb_pugixml SOURCES codecs/xml/adapters/pugixml_*.cpp
            codecs/route/adapters/pugixml_*.cpp benchmarks/standalone/pugixml*.cpp
            tests/pugixml_*.cpp tests/wcfjson_mapping_test.cpp)
wb_optional(LIBXML2 "libxml2" TARGET wb_libxml2 SOURCES codecs/xml/adapters/libxml2_*.cpp
            codecs/route/adapters/libxml2_*.cpp tests/wcfjson_mapping_test.cpp
            tests/xml_canonical_test.cpp)
wb_optional(XERCES "xerces-c" TARGET wb_xerces SOURCES codecs/xml/adapters/xerces_*.cpp
            codecs/route/adapters/xerces_*.cpp benchmarks/standalone/xerces*.cpp
            tests/wcfjson_mapping_test.cpp)
wb_optional(EXPAT "expat" TARGET wb_expat SOURCES codecs/xml/adapters/expat_*.cpp
            codecs/route/adapters/expat_*.cpp)
wb_optional(RAPIDXML "rapidxml" TARGET wb_rapidxml SOURCES codecs/xml/adapters/rapidxml_*.cpp
            benchmarks/standalone/rapidxml*.cpp)
wb_optional(TINYXML2 "tinyxml2" TARGET wb_tinyxml2 SOURCES codecs/xml/adapters/tinyxml2_*.cpp
            benchmarks/standalone/tinyxml2*.cpp)
wb_optional(MXML "mxml" TARGET wb_mxml SOURCES codecs/xml/adapters/mxml_*.cpp
            benchmarks/standalone/mxml*.cpp)
# Binary formats (their schema compilers' output goes with them).
wb_optional(PROTOBUF "protobuf" TARGET wb_protobuf SOURCES codecs/protobuf/libprotobuf.cpp
            codecs/carriers/libprotobuf_*.cpp)
wb_optional(PROTOBUF_C "protobuf-c" TARGET wb_protobuf_c SOURCES codecs/protobuf/protobuf_c.cpp)
wb_optional(FLATBUFFERS "flatbuffers" TARGET wb_flatbuffers SOURCES codecs/flatbuffers/*.cpp
            codecs/carriers/flatbuffers_*.cpp)
wb_optional(CAPNP "capnp" TARGET wb_capnp wb_capnpc SOURCES codecs/capnp/*.cpp
            codecs/carriers/capnp_*.cpp)
wb_optional(MPACK "libmpack" TARGET wb_mpack SOURCES codecs/msgpack/libmpack.cpp)
wb_optional(CBOR "libcbor" TARGET wb_cbor SOURCES codecs/cbor/*.cpp)
wb_optional(BSON "libbson" TARGET wb_bson SOURCES codecs/bson/*.cpp)
wb_optional(THRIFT "thrift" TARGET wb_thrift SOURCES codecs/thrift/*.cpp
            codecs/carriers/thrift_*.cpp)
wb_optional(AVRO "avro-c" TARGET wb_avro SOURCES codecs/avro/*.cpp codecs/carriers/avro_c_*.cpp)
# Compressors (codecs/compress/compressors.cpp follows what was built).
wb_optional(BROTLI "brotli" TARGET wb_brotli SOURCES codecs/compress/brotli.cpp)
wb_optional(ZSTD "zstd" TARGET wb_zstd SOURCES codecs/compress/zstd.cpp)
wb_optional(LZ4 "lz4" TARGET wb_lz4 SOURCES codecs/compress/lz4.cpp)
wb_optional(SNAPPY "snappy" TARGET wb_snappy SOURCES codecs/compress/snappy.cpp)
# The measured wire's HTTP/2 (found in wire/CMakeLists.txt; --h2 says when it is out).
wb_optional(NGHTTP2 "nghttp2" SOURCES tests/h2_test.cpp)
# The measured wire's gRPC (found in wire/CMakeLists.txt; --grpc says when it is out).
wb_optional(GRPC "grpc" SOURCES tests/grpc_test.cpp)
# For the result file's context (benchmarks/build_info.hpp.in).
list(JOIN WB_LEFT_OUT ", " WB_LEFT_OUT_TEXT)
