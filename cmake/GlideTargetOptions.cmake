# Compiler settings shared by every glide target (libraries, tests, demo, benchmarks).

if(GLIDE_SANITIZE)
  # Applied to everything built in this tree so tests and libraries agree on the ABI.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

if(GLIDE_BUILD_FUZZ)
  # Coverage and sanitizers on everything the fuzz targets reach; each target links the fuzzer.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

# glide_target_options(<target>): C++20, warnings, and floating-point contraction off so
# results do not change with the optimisation level. Never -ffast-math: GJK termination
# relies on IEEE comparisons and NaN checks.
function(glide_target_options target)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_compile_features(${target} INTERFACE cxx_std_20)
    return()
  endif()
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  # -fno-semantic-interposition: the libraries are position-independent (a game may link them
  # into a shared object), and without it GCC will not inline their own exported helpers.
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -ffp-contract=off -fno-semantic-interposition)
  if(GLIDE_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# glide_add_module(<name> SOURCES ... DEPENDS ...): a library module with public headers
# in <name>/include/glide/<name>/ and private sources in <name>/src/.
function(glide_add_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;PRIVATE_DEPENDS" ${ARGN})
  add_library(glide_${name} ${ARG_SOURCES})
  add_library(glide::${name} ALIAS glide_${name})
  set_target_properties(glide_${name} PROPERTIES EXPORT_NAME ${name} OUTPUT_NAME glide_${name}
    POSITION_INDEPENDENT_CODE ON)
  target_include_directories(glide_${name}
    PUBLIC
      $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
      $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/generated/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(glide_${name} PUBLIC ${ARG_DEPENDS} PRIVATE ${ARG_PRIVATE_DEPENDS})
  glide_target_options(glide_${name})
endfunction()
