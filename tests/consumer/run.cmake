# cmake -DMODE=package|gjk|world_without_tinyobjloader|subdirectory -DGLIDE_SOURCE_DIR=...
#       -DGLIDE_BINARY_DIR=... -DWORK_DIR=... -DBUILD_TYPE=... -P run.cmake
# Configures, builds and runs the consumer in tests/consumer/ against glide. The package modes
# install glide into a prefix of their own; gjk and world_without_tinyobjloader hide
# tinyobjloader, tinygltf's package and nlohmann_json from find_package, so a config that asks for them fails.
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " line)
    message(FATAL_ERROR "consumer (${MODE}) failed: ${line}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(configure_args -S "${GLIDE_SOURCE_DIR}/tests/consumer" -B "${WORK_DIR}/build"
  -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DGLIDE_CONSUMER_MODE=${MODE})
if(MODE STREQUAL "subdirectory")
  # Builds every library again from source as a game with a unity build (as many studios have)
  # would: glide's sources must also compile batched together. Unoptimised, as what it proves
  # is the build's wiring: optimised and file by file it took 6 CPU-minutes, more than all the
  # other tests together; this way under 2.
  list(APPEND configure_args "-DGLIDE_SOURCE_DIR=${GLIDE_SOURCE_DIR}" -DCMAKE_UNITY_BUILD=ON
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0)
else()
  step(${CMAKE_COMMAND} --install "${GLIDE_BINARY_DIR}" --prefix "${WORK_DIR}/prefix")
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
endif()
if(MODE STREQUAL "gjk" OR MODE STREQUAL "world_without_tinyobjloader")
  list(APPEND configure_args -DCMAKE_DISABLE_FIND_PACKAGE_tinyobjloader=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON -DCMAKE_DISABLE_FIND_PACKAGE_TinyGLTF=ON)
endif()

if(MODE STREQUAL "world_without_tinyobjloader")
  execute_process(COMMAND ${CMAKE_COMMAND} ${configure_args} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "consumer (${MODE}): configured although tinyobjloader was hidden")
  endif()
  if(NOT err MATCHES "tinyobjloader")
    message(FATAL_ERROR "consumer (${MODE}): failed, but not for tinyobjloader:\n${err}")
  endif()
  message(STATUS "consumer (${MODE}): refused as it must")
  return()
endif()
step(${CMAKE_COMMAND} ${configure_args})
step(${CMAKE_COMMAND} --build "${WORK_DIR}/build" -j2)
step("${WORK_DIR}/build/consumer")
