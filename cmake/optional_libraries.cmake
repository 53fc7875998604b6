# Optional libraries: each benchmarked library that only its adapters use has
# an option WB_WITH_<LIBRARY> (default ON). ON, its find_package is REQUIRED,
# as for every library; OFF, the library is not looked for, its target
# (wb_<name>) is an empty INTERFACE one (so every target_link_libraries line
# stays as it is), and the sources that include it are left out of every
# target: its adapters, its standalone loops and its own tests. The registry
# follows what was built (codecs/registry.cpp: a left-out adapter's factory
# is a null weak symbol, its lines are out of every list), and so do the
# benchmarks, the tests and the fuzzer that iterate it; the result file's
# context names what was left out ("left_out", "left_out_codecs").
# Included from cmake/libraries.cmake before any library is found.

set(WB_LEFT_OUT "")
set(WB_OPTIONAL_LIBRARIES "")
# wb_optional(NAME "what" source-glob...): the option WB_WITH_NAME, and the
# sources (globs under the source tree) that need the library.
macro(wb_optional name what)
  option(WB_WITH_${name} "Build the ${what} adapters (find_package REQUIRED when ON)" ON)
  list(APPEND WB_OPTIONAL_LIBRARIES ${name})
  set(WB_OPTIONAL_SOURCES_${name} ${ARGN})
  if(NOT WB_WITH_${name})
    list(APPEND WB_LEFT_OUT "${what}")
  endif()
endmacro()

# wb_left_out_target(target...): an empty wb_<name> target for each name
# whose library is left out.
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

# The libraries, what the context calls them, and what needs them. A pairing
# of wcfjson needs both its libraries; the files of codecs/wcfjson/ hold a
# JSON library's pairings with every XML library, so they go with any of
# them.
wb_optional(XERCES "xerces-c" codecs/xml/adapters/xerces_*.cpp codecs/route/adapters/xerces_*.cpp
            codecs/wcfjson/*_encoders.cpp codecs/wcfjson/*_decoders.cpp
            benchmarks/standalone/xerces*.cpp tests/wcfjson_mapping_test.cpp)
wb_optional(POCO "poco" codecs/json/adapters/poco_*.cpp codecs/xml/adapters/poco_*.cpp
            benchmarks/standalone/*poco*.cpp)
# For the result file's context (benchmarks/build_info.hpp.in).
list(JOIN WB_LEFT_OUT ", " WB_LEFT_OUT_TEXT)
