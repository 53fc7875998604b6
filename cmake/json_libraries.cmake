# The C and C++ JSON libraries of issue 32 beside RapidJSON, nlohmann/json,
# simdjson and Boost.JSON: JsonCpp, json-c, Jansson, cJSON and YAJL, each an
# encoder and a decoder of the OData JSON formats (codecs/json/<library>*.cpp,
# picked up by wirebench_codecs' glob). Included from CMakeLists.txt once
# wirebench_codecs exists, before cmake/map_formats.cmake, whose Avro C links
# the Jansson archive defined here. Archives where Debian ships them, as for
# every library (cmake/libraries.cmake).

# Jansson: its archive, which Avro C's archive also calls into (so it is
# found for either).
if(WB_WITH_JANSSON OR WB_WITH_AVRO)
  pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)
  wb_archive(wb_jansson libjansson.a PkgConfig::JANSSON)
  if(WB_WITH_JANSSON)
    wb_library(jansson "${JANSSON_VERSION}" "static (libjansson.a)" "${WB_DEBIAN_FLAGS}")
  endif()
else()
  wb_left_out_target(wb_jansson)
endif()

# json-c: shared, although Debian ships libjson-c.a. json-c and Jansson both
# define json_object_get and json_object_iter_next (with other meanings), and
# an executable holds one definition of a name: with both archives the link
# binds every call of either to one library. The Jansson archive is the one
# kept, because Avro C's archive calls Jansson's json_object_get. From
# libjson-c.so.5 json-c's own calls of those two stay inside it (they are
# bound within the library: no dynamic relocation names them), and the json-c
# adapter calls neither.
wb_pkg_shared(JSONC wb_jsonc json-c json-c
              "shared (its archive and Jansson's both define json_object_get; docs/dependencies.md)")

# YAJL: its archive (libyajl_s.a).
wb_pkg_archive(YAJL wb_yajl yajl libyajl_s.a yajl)

# JsonCpp and cJSON: Debian ships their shared libraries only.
if(WB_WITH_JSONCPP)
  find_package(jsoncpp CONFIG REQUIRED)
  add_library(wb_jsoncpp ALIAS JsonCpp::JsonCpp)
  wb_library(jsoncpp "${jsoncpp_VERSION}" "shared (Debian ships no archive)" "${WB_DEBIAN_FLAGS}")
endif()
wb_pkg_shared(CJSON wb_cjson libcjson cjson "shared (Debian ships no archive)")

target_link_libraries(wirebench_codecs PRIVATE wb_jansson wb_jsonc wb_yajl wb_jsoncpp wb_cjson)
