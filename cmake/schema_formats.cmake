# The schema formats: protobuf (libprotobuf, protobuf-c), FlatBuffers and
# Cap'n Proto. Their schemas sit in codecs/<format>/; the compilers run here,
# at build time, into ${WB_SCHEMA_OUT}, and the generated sources are
# compiled into wirebench_codecs with our flags. Included from CMakeLists.txt
# once wirebench_codecs exists; the policy of cmake/libraries.cmake holds
# (Debian archives where Debian ships them, versions in the result context).

set(WB_SCHEMA_OUT ${PROJECT_BINARY_DIR}/generated/schema)
file(MAKE_DIRECTORY ${WB_SCHEMA_OUT})
set(WB_SCHEMA_DATASETS message airport science)
target_include_directories(wirebench_codecs SYSTEM PRIVATE ${WB_SCHEMA_OUT})

# ---------------------------------------------------------------- protobuf
# The schemas, and what each compiler makes of them (none, for a library left
# out). The well-known Timestamp comes with libprotobuf-dev; protoc-c has no
# generated copy of it, so it is compiled for protobuf-c here too.
set(WB_PROTO_DIR ${PROJECT_SOURCE_DIR}/codecs/protobuf)
set(WB_PROTO_FILES "")
set(WB_PB_SOURCES "")
set(WB_PBC_SOURCES "")
if(WB_WITH_PROTOBUF OR WB_WITH_PROTOBUF_C)
  find_path(WB_PROTO_INCLUDE google/protobuf/timestamp.proto REQUIRED)
  foreach(dataset IN LISTS WB_SCHEMA_DATASETS)
    list(APPEND WB_PROTO_FILES ${WB_PROTO_DIR}/${dataset}.proto)
    if(WB_WITH_PROTOBUF)
      list(APPEND WB_PB_SOURCES ${WB_SCHEMA_OUT}/${dataset}.pb.cc)
    endif()
    if(WB_WITH_PROTOBUF_C)
      list(APPEND WB_PBC_SOURCES ${WB_SCHEMA_OUT}/${dataset}.pb-c.c)
    endif()
  endforeach()
  if(WB_WITH_PROTOBUF_C)
    list(PREPEND WB_PBC_SOURCES ${WB_SCHEMA_OUT}/google/protobuf/timestamp.pb-c.c)
  endif()
endif()
# libprotobuf and protoc 3.21 (FindProtobuf), linked from libprotobuf.a.
if(WB_WITH_PROTOBUF)
  find_package(Protobuf 3.21 REQUIRED)
  wb_archive(wb_protobuf libprotobuf.a protobuf::libprotobuf wb_zlib Threads::Threads)
  wb_library(protobuf "${Protobuf_VERSION}" "static (libprotobuf.a)" "${WB_DEBIAN_FLAGS}")
  string(REPLACE ".pb.cc" ".pb.h" WB_PB_HEADERS "${WB_PB_SOURCES}")
  add_custom_command(
    OUTPUT ${WB_PB_SOURCES} ${WB_PB_HEADERS}
    COMMAND protobuf::protoc -I${WB_PROTO_DIR} -I${WB_PROTO_INCLUDE} --cpp_out=${WB_SCHEMA_OUT}
            ${WB_PROTO_FILES}
    DEPENDS ${WB_PROTO_FILES} protobuf::protoc
    COMMENT "protoc: codecs/protobuf/*.proto" VERBATIM)
endif()

# protobuf-c 1.4 and protoc-c, linked from libprotobuf-c.a. The generated
# C compiles as C++ (protobuf-c.h declares its API extern "C"), and is built
# so: a C compiler in the build would bring its own runtime libraries to
# every link (GCC's shared ASan runtime beside clang's, in the debug preset).
if(WB_WITH_PROTOBUF_C)
  pkg_check_modules(PROTOBUF_C REQUIRED IMPORTED_TARGET libprotobuf-c)
  wb_archive(wb_protobuf_c libprotobuf-c.a PkgConfig::PROTOBUF_C)
  wb_library(protobuf-c "${PROTOBUF_C_VERSION}" "static (libprotobuf-c.a)" "${WB_DEBIAN_FLAGS}")
  find_program(WB_PROTOC_C protoc-c REQUIRED)
  string(REPLACE ".pb-c.c" ".pb-c.h" WB_PBC_HEADERS "${WB_PBC_SOURCES}")
  add_custom_command(
    OUTPUT ${WB_PBC_SOURCES} ${WB_PBC_HEADERS}
    COMMAND ${WB_PROTOC_C} -I${WB_PROTO_DIR} -I${WB_PROTO_INCLUDE} --c_out=${WB_SCHEMA_OUT}
            ${WB_PROTO_FILES} ${WB_PROTO_INCLUDE}/google/protobuf/timestamp.proto
    DEPENDS ${WB_PROTO_FILES} ${WB_PROTOC_C}
    COMMENT "protoc-c: codecs/protobuf/*.proto" VERBATIM)
endif()

# ---------------------------------------------------------------- FlatBuffers
# Generated code over flatbuffers/*.h: nothing to link.
if(WB_WITH_FLATBUFFERS)
  find_package(FlatBuffers 2.0.8 CONFIG REQUIRED)
  wb_library(flatbuffers "${FlatBuffers_VERSION}" "header-only (generated code)" "${WB_OUR_FLAGS}")
  set(WB_FBS_DIR ${PROJECT_SOURCE_DIR}/codecs/flatbuffers)
  set(WB_FBS_FILES "")
  set(WB_FBS_HEADERS "")
  foreach(dataset IN LISTS WB_SCHEMA_DATASETS)
    list(APPEND WB_FBS_FILES ${WB_FBS_DIR}/${dataset}.fbs)
    list(APPEND WB_FBS_HEADERS ${WB_SCHEMA_OUT}/${dataset}_generated.h)
  endforeach()
  add_custom_command(
    OUTPUT ${WB_FBS_HEADERS}
    COMMAND flatbuffers::flatc --cpp --gen-object-api -o ${WB_SCHEMA_OUT} ${WB_FBS_FILES}
    DEPENDS ${WB_FBS_FILES} flatbuffers::flatc
    COMMENT "flatc: codecs/flatbuffers/*.fbs" VERBATIM)
  add_library(wb_flatbuffers INTERFACE)
  get_target_property(WB_FLATBUFFERS_INCLUDES flatbuffers::flatbuffers INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(wb_flatbuffers SYSTEM INTERFACE ${WB_FLATBUFFERS_INCLUDES})
endif()

# ---------------------------------------------------------------- Cap'n Proto
# libcapnp and libkj 0.9.2, linked from their archives.
# CapnProtoConfig looks for libatomic with check_library_exists, whose C++
# probe (the project enables no C) declares __atomic_load_8 against GCC's
# builtin of that name and fails on a fresh configure; found by name instead.
if(WB_WITH_CAPNP)
  find_library(WB_LIBATOMIC NAMES atomic libatomic.so.1 REQUIRED
               HINTS /usr/lib/gcc/x86_64-linux-gnu/12)
  set(FOUND_LIBATOMIC TRUE CACHE INTERNAL "libatomic (${WB_LIBATOMIC})")
  find_package(CapnProto 0.9 CONFIG REQUIRED)
  wb_archive(wb_kj libkj.a CapnProto::kj Threads::Threads)
  wb_archive(wb_capnp libcapnp.a CapnProto::capnp wb_kj)
  # The schema parser (libcapnpc, libcapnp-dev's too): --as-formats parses a
  # schema made from a user's feed at run time (codecs/carriers/capnp_dynamic.cpp).
  wb_archive(wb_capnpc libcapnpc.a CapnProto::capnpc wb_capnp)
  wb_library(capnp "${CapnProto_VERSION}" "static (libcapnp.a, libkj.a)" "${WB_DEBIAN_FLAGS}")
  set(WB_CAPNP_DIR ${PROJECT_SOURCE_DIR}/codecs/capnp)
  set(WB_CAPNP_FILES "")
  set(WB_CAPNP_SOURCES "")
  foreach(schema IN LISTS WB_SCHEMA_DATASETS ITEMS feed)
    list(APPEND WB_CAPNP_FILES ${WB_CAPNP_DIR}/${schema}.capnp)
    list(APPEND WB_CAPNP_SOURCES ${WB_SCHEMA_OUT}/${schema}.capnp.c++)
  endforeach()
  string(REPLACE ".capnp.c++" ".capnp.h" WB_CAPNP_HEADERS "${WB_CAPNP_SOURCES}")
  # The package's imported executables point under /usr/lib/bin; its
  # CAPNP_EXECUTABLE and CAPNPC_CXX_EXECUTABLE are right.
  add_custom_command(
    OUTPUT ${WB_CAPNP_SOURCES} ${WB_CAPNP_HEADERS}
    # PWD unset: kj warns when the inherited PWD is not the directory make runs in.
    COMMAND ${CMAKE_COMMAND} -E env --unset=PWD
            ${CAPNP_EXECUTABLE} compile -I${CAPNP_INCLUDE_DIRECTORY} --src-prefix=${WB_CAPNP_DIR}
            -o${CAPNPC_CXX_EXECUTABLE}:${WB_SCHEMA_OUT} ${WB_CAPNP_FILES}
    DEPENDS ${WB_CAPNP_FILES} ${CAPNP_EXECUTABLE} ${CAPNPC_CXX_EXECUTABLE}
    COMMENT "capnp compile: codecs/capnp/*.capnp" VERBATIM)
endif()

# The generated sources: compiled once, into the codecs, as C++.
if(WB_CAPNP_SOURCES OR WB_PBC_SOURCES)
  set_source_files_properties(${WB_CAPNP_SOURCES} ${WB_PBC_SOURCES} PROPERTIES LANGUAGE CXX)
endif()
target_sources(wirebench_codecs PRIVATE ${WB_PB_SOURCES} ${WB_PBC_SOURCES} ${WB_FBS_HEADERS}
                                        ${WB_CAPNP_SOURCES})
target_link_libraries(wirebench_codecs PRIVATE wb_protobuf wb_protobuf_c wb_flatbuffers wb_capnp
                      wb_capnpc)
