# The binary formats of issue 31's second half: msgpack, CBOR, BSON (map
# layout, field names), Thrift (compact and binary protocols, generated C++)
# and Avro (binary datum, schema on both sides). Included from CMakeLists.txt
# once wirebench_codecs exists; the adapters are in codecs/{msgpack,cbor,bson,
# thrift,avro}/ and are picked up by its glob. Archives where Debian ships
# them, as for every library (cmake/libraries.cmake).

# libmpack (msgpack): a tokenizer and a depth-bounded tree walker, C.
# Shared: Debian's libmpack.a is built without -fPIC, and the linker refuses
# it in our position-independent executables (R_X86_64_32S against .rodata).
wb_pkg_shared(MPACK wb_mpack mpack libmpack
              "shared (Debian's libmpack.a is not position-independent)")

# libcbor: Debian ships only the shared library.
wb_pkg_shared(CBOR wb_cbor libcbor libcbor "shared (Debian ships no archive)")

# libbson: its static package (libbson-static-1.0.a, BSON_STATIC).
if(WB_WITH_BSON)
  find_package(bson-1.0 CONFIG REQUIRED)
  add_library(wb_bson ALIAS mongo::bson_static)
  wb_library(libbson "${bson-1.0_VERSION}" "static (libbson-static-1.0.a)" "${WB_DEBIAN_FLAGS}")
endif()

# Apache Thrift: the C++ library from its archive; the compiler runs at build
# time over codecs/thrift/*.thrift (one schema per dataset).
if(WB_WITH_THRIFT)
  pkg_check_modules(THRIFT REQUIRED IMPORTED_TARGET thrift)
  wb_archive(wb_thrift libthrift.a PkgConfig::THRIFT Threads::Threads)
  wb_library(thrift "${THRIFT_VERSION}" "static (libthrift.a)" "${WB_DEBIAN_FLAGS}")
  find_program(WB_THRIFT_COMPILER thrift REQUIRED)
  set(WB_THRIFT_OUT ${PROJECT_BINARY_DIR}/generated/thrift_gen)
  file(MAKE_DIRECTORY ${WB_THRIFT_OUT})
  set(WB_THRIFT_SOURCES "")
  foreach(schema message airport science)
    set(src ${PROJECT_SOURCE_DIR}/codecs/thrift/${schema}.thrift)
    add_custom_command(
      OUTPUT ${WB_THRIFT_OUT}/${schema}_types.cpp ${WB_THRIFT_OUT}/${schema}_types.h
      COMMAND ${WB_THRIFT_COMPILER} --gen cpp -out ${WB_THRIFT_OUT} ${src}
      DEPENDS ${src}
      COMMENT "thrift --gen cpp ${schema}.thrift"
      VERBATIM)
    list(APPEND WB_THRIFT_SOURCES ${WB_THRIFT_OUT}/${schema}_types.cpp)
    list(APPEND WB_THRIFT_HEADERS ${WB_THRIFT_OUT}/${schema}_types.h)
  endforeach()
  # The three generated files compile as one translation unit (their headers
  # are most of the cost: 8.2 s of CPU as three, about 4 s as one). The headers
  # are listed too, so that they exist before any adapter that includes them
  # compiles. The generated code is Thrift's, not ours: no warnings are asked
  # of it.
  set(WB_THRIFT_UNITY ${WB_THRIFT_OUT}/all_types.cpp)
  list(TRANSFORM WB_THRIFT_SOURCES PREPEND "#include \"" OUTPUT_VARIABLE WB_THRIFT_INCLUDES)
  list(TRANSFORM WB_THRIFT_INCLUDES APPEND "\"\n")
  string(JOIN "" WB_THRIFT_INCLUDES ${WB_THRIFT_INCLUDES})
  file(CONFIGURE OUTPUT ${WB_THRIFT_UNITY} CONTENT "${WB_THRIFT_INCLUDES}")
  set_source_files_properties(${WB_THRIFT_UNITY} PROPERTIES COMPILE_OPTIONS "-w;-fno-sanitize=enum"
                              OBJECT_DEPENDS "${WB_THRIFT_SOURCES}")
  target_sources(wirebench_codecs PRIVATE ${WB_THRIFT_UNITY} ${WB_THRIFT_SOURCES} ${WB_THRIFT_HEADERS})
  set_source_files_properties(${WB_THRIFT_SOURCES} PROPERTIES HEADER_FILE_ONLY ON)
  target_include_directories(wirebench_codecs PRIVATE ${WB_THRIFT_OUT})

  # Thrift 0.17's binary protocol casts a type byte read from the input to its
  # TType enum before checking it (TBinaryProtocol.tcc: readFieldBegin,
  # readListBegin, ...), undefined for a byte outside the enum's range, which
  # UBSan reports on any corrupted type byte (the value then fails the type
  # switch and is a TProtocolException); the generated read() loads the same
  # value. The translation units where the protocol templates are instantiated
  # (the codec's, and the run-time schema's of --as-formats: the linker keeps
  # one instantiation of each) and the generated one are built without that
  # one check.
  set_source_files_properties(${PROJECT_SOURCE_DIR}/codecs/thrift/protocols.cpp
                              ${PROJECT_SOURCE_DIR}/codecs/carriers/thrift_protocol.cpp
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=enum")
endif()

# Avro C: the archive, with its own dependencies (snappy, liblzma) as the
# other archives' unbenchmarked dependencies are: shared; but zlib, which the
# compressors already link from its archive, and Jansson, a benchmarked JSON
# library linked from its archive (cmake/json_libraries.cmake).
if(WB_WITH_AVRO)
  pkg_check_modules(AVRO REQUIRED IMPORTED_TARGET avro-c)
  find_library(WB_SNAPPY NAMES snappy REQUIRED)
  wb_archive(wb_avro libavro.a PkgConfig::AVRO wb_jansson ${WB_SNAPPY} ${WB_LZMA} wb_zlib m)
  wb_library(avro-c "${AVRO_VERSION}" "static (libavro.a, libjansson.a; snappy, liblzma shared)"
             "${WB_DEBIAN_FLAGS}")
  # The schemas (codecs/avro/*.avsc) are compiled in as string constants.
  set(WB_AVRO_SCHEMAS "")
  foreach(schema message airport science)
    set(src ${PROJECT_SOURCE_DIR}/codecs/avro/${schema}.avsc)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
    file(READ ${src} text)
    string(APPEND WB_AVRO_SCHEMAS
           "inline constexpr std::string_view k_${schema} = R\"avsc(${text})avsc\";\n")
  endforeach()
  file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/generated/avro_schemas.hpp CONTENT
       "// Generated by cmake/map_formats.cmake from codecs/avro/*.avsc.\n#pragma once\n#include <string_view>\nnamespace wb::avro::schema {\n@WB_AVRO_SCHEMAS@}  // namespace wb::avro::schema\n"
       @ONLY)
endif()

# Thrift's and Avro's generated headers.
target_include_directories(wirebench_codecs PRIVATE ${PROJECT_BINARY_DIR}/generated)
target_link_libraries(wirebench_codecs PRIVATE wb_mpack wb_cbor wb_bson wb_thrift wb_avro)
