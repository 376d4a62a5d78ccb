# cmake -DMODE=package|subdirectory -DGLIDE_SOURCE_DIR=... -DGLIDE_BINARY_DIR=... -DWORK_DIR=...
#       -DBUILD_TYPE=... -P run.cmake
# Configures, builds and runs the consumer in tests/consumer/ against glide.
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
if(MODE STREQUAL "package")
  step(${CMAKE_COMMAND} --install "${GLIDE_BINARY_DIR}" --prefix "${WORK_DIR}/prefix")
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
else()
  list(APPEND configure_args "-DGLIDE_SOURCE_DIR=${GLIDE_SOURCE_DIR}")
endif()
step(${CMAKE_COMMAND} ${configure_args})
step(${CMAKE_COMMAND} --build "${WORK_DIR}/build" -j2)
step("${WORK_DIR}/build/consumer")
