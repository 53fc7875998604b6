# Unity builds: groups of the codecs' sources compiled as one translation unit
# each, so that the library headers and templates the files of a group all
# parse and instantiate are parsed, instantiated and optimised once per group.
# Included from CMakeLists.txt once every target exists.
#
# Groups, not batches: most adapters define their own kLibrary and helpers in
# an anonymous namespace of a shared namespace (wb::json, wb::xml, wb::route),
# which clash in one translation unit, and pugixml's header breaks when a
# translation unit has used its names before including it. The groups below
# compile together with GCC 12 and clang 14; every other file compiles alone.
# WIREBENCH_UNITY_BUILD=OFF compiles every file alone (to find an error's file
# quickly, or to check that each file includes what it uses).
option(WIREBENCH_UNITY_BUILD "Compile groups of the codecs' sources as one unit" ON)
if(NOT WIREBENCH_UNITY_BUILD)
  return()
endif()

set_target_properties(wirebench_codecs PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
# wb_unity_group(name file...): files (under the source tree, or absolute)
# compiled as one unit of wirebench_codecs.
function(wb_unity_group name)
  foreach(file IN LISTS ARGN)
    cmake_path(ABSOLUTE_PATH file BASE_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_source_files_properties(${file} TARGET_DIRECTORY wirebench_codecs
                                PROPERTIES UNITY_GROUP ${name})
  endforeach()
endfunction()

# The WCF JSON<->XML infoset's pairings (one generated file per XML library,
# cmake/wcfjson_pairings.cmake), its reference writer and the Xerces sniff,
# which share the XML libraries' headers (GCC -O2: 25.2 CPU-s as 3 files,
# 23.8 as one).
file(GLOB WB_WCFJSON_SOURCES ${PROJECT_SOURCE_DIR}/codecs/wcfjson/*.cpp)
wb_unity_group(wcfjson codecs/route/adapters/xerces_sax_sniff_router.cpp ${WB_WCFJSON_SOURCES}
               ${WB_WCFJSON_UNITS})
# The XML adapters whose names do not clash, with the shared XML scanning
# (27.9 CPU-s as 8 files, 18.7 as one).
wb_unity_group(xml codecs/xml/adapters/libxml2_sax_decoder.cpp codecs/xml/adapters/libxml2_encoder.cpp
               codecs/xml/adapters/mxml_codec.cpp codecs/xml/adapters/mxml_common.cpp
               codecs/xml/prescan.cpp codecs/xml/prolog.cpp codecs/xml/adapters/pugixml_codec.cpp
               codecs/xml/adapters/rapidxml_codec.cpp)
