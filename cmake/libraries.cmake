# Every dependency comes from Debian's packages. Each benchmarked library gets
# one target that the code links (wb_<name>); a library is gated here, never
# with #ifdef in the adapters.
#
# One build and linkage policy for all of them, recorded per library in the
# result file's context (library.<name>, .linkage, .flags):
# - every translation unit of ours, and so every header-only library
#   (RapidJSON, nlohmann/json, RapidXML, simdjson's On-Demand, which compiles
#   into our code), is built with the same flags: CMAKE_CXX_FLAGS of the build
#   type plus WB_MARCH below;
# - every compiled library is linked from its Debian archive where Debian
#   ships one (pugixml, libxml2, Xerces-C, expat, Boost.JSON, zlib, brotli,
#   zstd), so that no library pays a PLT call per entry point and another not
#   (through the shared library's PLT a bare walk of pugixml's
#   atom/science/8100 DOM costs 1.7x what the archive's costs); its code is
#   Debian's build of it. simdjson ships a shared library only (libsimdjson.so,
#   whose DOM parser picks its kernel at run time). The archives' own
#   dependencies that are not benchmarked (ICU, liblzma, libcurl) stay shared.

# x86-64-v3 (AVX2, BMI2, FMA, LZCNT) plus PCLMULQDQ, Haswell's level, where
# the configuring machine has them: simdjson's On-Demand, compiled into our
# code, takes its haswell kernel only with all of them (x86-64-v3 alone lacks
# PCLMULQDQ) and otherwise runs its scalar "fallback" kernel. Not
# -march=native: valgrind (./wirebench icount) cannot run AVX-512 code, and
# one level keeps results of two machines comparable.
set(WB_MARCH_DEFAULT "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" AND EXISTS /proc/cpuinfo)
  file(READ /proc/cpuinfo WB_CPUINFO)
  if(WB_CPUINFO MATCHES " avx2 " AND WB_CPUINFO MATCHES " bmi2 " AND WB_CPUINFO MATCHES " fma "
     AND WB_CPUINFO MATCHES " pclmulqdq ")
    set(WB_MARCH_DEFAULT "x86-64-v3")
  endif()
endif()
set(WB_MARCH "${WB_MARCH_DEFAULT}" CACHE STRING
    "-march for every translation unit, with -mpclmul (empty: the compiler's default)")
# With FMA available GCC contracts a * b + c into one rounding by default
# (-ffp-contract=fast, also in ISO C++ mode), which changes the results of
# header-only code: RapidJSON's default double conversion read a 300-digit
# integer as 1.0000000000000054e+300 instead of 1.0000000000000002e+300.
# Contraction stays off, so a build reads the same numbers on every machine.
add_compile_options(-ffp-contract=off)
if(WB_MARCH)
  add_compile_options(-march=${WB_MARCH} -mpclmul)
endif()
string(TOUPPER "${CMAKE_BUILD_TYPE}" WB_BUILD_TYPE_UPPER)
string(STRIP "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${WB_BUILD_TYPE_UPPER}} -ffp-contract=off"
       WB_OUR_FLAGS)
if(WB_MARCH)
  string(APPEND WB_OUR_FLAGS " -march=${WB_MARCH} -mpclmul")
endif()

include(cmake/optional_libraries.cmake)

set(WB_LIBRARY_CONTEXT "")
# wb_library(name version linkage flags): one library's entries in the context.
macro(wb_library name version linkage flags)
  string(APPEND WB_LIBRARY_CONTEXT "    {\"${name}\", \"${version}\"},\n"
         "    {\"${name}.linkage\", \"${linkage}\"},\n" "    {\"${name}.flags\", \"${flags}\"},\n")
endmacro()
set(WB_DEBIAN_FLAGS "Debian's package build")

# wb_archive(target archive-file deps...): an IMPORTED target for a Debian
# archive, with the include directories of the package's own (shared) target.
function(wb_archive target file includes_from)
  find_library(WB_ARCHIVE_${target} NAMES ${file} REQUIRED NO_CACHE)
  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES IMPORTED_LOCATION "${WB_ARCHIVE_${target}}")
  get_target_property(includes ${includes_from} INTERFACE_INCLUDE_DIRECTORIES)
  if(includes)
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${includes}")
  endif()
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${ARGN}")
endfunction()

# wb_pkg_archive(NAME target module archive context deps...): a library that
# WB_WITH_NAME turns on, found by its pkg-config module and linked from its
# Debian archive. wb_pkg_shared(NAME target module context linkage): one
# linked shared, as Debian ships it.
macro(wb_pkg_archive name target module archive context)
  if(WB_WITH_${name})
    pkg_check_modules(${name} REQUIRED IMPORTED_TARGET ${module})
    wb_archive(${target} ${archive} PkgConfig::${name} ${ARGN})
    wb_library(${context} "${${name}_VERSION}" "static (${archive})" "${WB_DEBIAN_FLAGS}")
  endif()
endmacro()
macro(wb_pkg_shared name target module context linkage)
  if(WB_WITH_${name})
    pkg_check_modules(${name} REQUIRED IMPORTED_TARGET ${module})
    add_library(${target} ALIAS PkgConfig::${name})
    wb_library(${context} "${${name}_VERSION}" "${linkage}" "${WB_DEBIAN_FLAGS}")
  endif()
endmacro()

find_package(benchmark REQUIRED)
wb_library(benchmark "${benchmark_VERSION}" "shared" "${WB_DEBIAN_FLAGS}")
find_package(GTest REQUIRED)
find_package(PkgConfig REQUIRED)

# Headers only.
if(WB_WITH_RAPIDJSON)
  find_package(RapidJSON REQUIRED)
  wb_library(rapidjson "${RapidJSON_VERSION}" "header-only" "${WB_OUR_FLAGS}")
  add_library(wb_rapidjson INTERFACE)  # RapidJSON ships no target, only RAPIDJSON_INCLUDE_DIRS
  target_include_directories(wb_rapidjson SYSTEM INTERFACE ${RAPIDJSON_INCLUDE_DIRS})
  target_compile_definitions(wb_rapidjson INTERFACE RAPIDJSON_HAS_STDSTRING=1)
endif()
find_package(nlohmann_json REQUIRED)
wb_library(nlohmann_json "${nlohmann_json_VERSION}" "header-only" "${WB_OUR_FLAGS}")
add_library(wb_nlohmann ALIAS nlohmann_json::nlohmann_json)
if(WB_WITH_RAPIDXML)
  # RapidXML has no CMake package: its version is in a comment.
  find_path(RAPIDXML_INCLUDE_DIR rapidxml/rapidxml.hpp REQUIRED)
  file(STRINGS ${RAPIDXML_INCLUDE_DIR}/rapidxml/rapidxml.hpp WB_RAPIDXML_VERSION REGEX "^// Version ")
  string(REPLACE "// Version " "" WB_RAPIDXML_VERSION "${WB_RAPIDXML_VERSION}")
  wb_library(rapidxml "${WB_RAPIDXML_VERSION}" "header-only" "${WB_OUR_FLAGS}")
  add_library(wb_rapidxml INTERFACE)
  target_include_directories(wb_rapidxml SYSTEM INTERFACE ${RAPIDXML_INCLUDE_DIR})
endif()

# Shared only.
find_package(simdjson REQUIRED)
wb_library(simdjson "${simdjson_VERSION}"
           "shared (Debian ships no archive); On-Demand compiled into our code"
           "DOM: ${WB_DEBIAN_FLAGS}; On-Demand: ${WB_OUR_FLAGS}")
add_library(wb_simdjson ALIAS simdjson::simdjson)

# From Debian's archives.
if(WB_WITH_PUGIXML)
  find_package(pugixml REQUIRED)
  wb_library(pugixml "${pugixml_VERSION}" "static (libpugixml.a)" "${WB_DEBIAN_FLAGS}")
  add_library(wb_pugixml ALIAS pugixml::static)
endif()
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
wb_archive(wb_zlib libz.a ZLIB::ZLIB)
wb_library(zlib "${ZLIB_VERSION_STRING}" "static (libz.a)" "${WB_DEBIAN_FLAGS}")
if(WB_WITH_LIBXML2 OR WB_WITH_XERCES)
  find_package(ICU REQUIRED COMPONENTS uc i18n data)
endif()
if(WB_WITH_LIBXML2 OR WB_WITH_AVRO)
  find_library(WB_LZMA NAMES lzma REQUIRED)
endif()
if(WB_WITH_LIBXML2)
  find_package(LibXml2 REQUIRED)
  wb_archive(wb_libxml2 libxml2.a LibXml2::LibXml2 ICU::i18n ICU::uc ICU::data ${WB_LZMA} wb_zlib m)
  wb_library(libxml2 "${LIBXML2_VERSION_STRING}" "static (libxml2.a; ICU and liblzma shared)"
             "${WB_DEBIAN_FLAGS}")
endif()
if(WB_WITH_XERCES)
  find_package(XercesC REQUIRED)
  # Xerces-C's network accessor needs libcurl, which Debian's -dev packages
  # here do not bring as a link name: the runtime library by its soname.
  find_library(WB_CURL NAMES curl libcurl.so.4 REQUIRED)
  wb_archive(wb_xerces libxerces-c.a XercesC::XercesC ICU::uc ICU::data ${WB_CURL} Threads::Threads)
  wb_library(xerces-c "${XercesC_VERSION}" "static (libxerces-c.a; ICU and libcurl shared)"
             "${WB_DEBIAN_FLAGS}")
endif()
if(WB_WITH_EXPAT)
  find_package(expat CONFIG REQUIRED)
  wb_archive(wb_expat libexpat.a expat::expat m)
  wb_library(expat "${expat_VERSION}" "static (libexpat.a)" "${WB_DEBIAN_FLAGS}")
endif()
if(WB_WITH_BOOSTJSON)
  set(Boost_USE_STATIC_LIBS ON)
  find_package(Boost 1.81 CONFIG REQUIRED COMPONENTS json)
  wb_library(boost_json "${Boost_VERSION}" "static (libboost_json.a)" "${WB_DEBIAN_FLAGS}")
  add_library(wb_boostjson ALIAS Boost::json)
endif()
# brotli and zstd through their pkg-config files (Debian ships no CMake
# config for brotli).
if(WB_WITH_BROTLI)
  pkg_check_modules(BROTLI REQUIRED IMPORTED_TARGET libbrotlienc libbrotlidec)
  find_library(WB_BROTLICOMMON_A NAMES libbrotlicommon.a REQUIRED)
  wb_archive(wb_brotlidec libbrotlidec.a PkgConfig::BROTLI ${WB_BROTLICOMMON_A})
  wb_archive(wb_brotli libbrotlienc.a PkgConfig::BROTLI wb_brotlidec ${WB_BROTLICOMMON_A} m)
  wb_library(brotli "${BROTLI_libbrotlienc_VERSION}" "static (libbrotlienc.a, libbrotlidec.a)"
             "${WB_DEBIAN_FLAGS}")
endif()
wb_pkg_archive(ZSTD wb_zstd libzstd libzstd.a zstd Threads::Threads)
