# cmake -DGLIDE_SOURCE_DIR=... -P layering.cmake
# The modules' dependencies point one way: gjk <- terrain <- world <- controller <- cases <- demo.
# Fails when a module's header or source includes a module above it, or when the demo or a
# benchmark reaches into a module's private src/ folder (they use the public API only).
set(modules gjk terrain world controller cases)
set(problems "")

foreach(module IN LISTS modules)
  list(FIND modules ${module} level)
  file(GLOB_RECURSE files "${GLIDE_SOURCE_DIR}/${module}/*.hpp" "${GLIDE_SOURCE_DIR}/${module}/*.cpp")
  foreach(file IN LISTS files)
    file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include")
    foreach(line IN LISTS lines)
      if(line MATCHES "<glide/([a-z_]+)/")
        list(FIND modules ${CMAKE_MATCH_1} included)
        if(included GREATER level)
          file(RELATIVE_PATH where "${GLIDE_SOURCE_DIR}" "${file}")
          string(APPEND problems "  ${where}: ${module} includes ${CMAKE_MATCH_1}, a module above it: ${line}\n")
        endif()
      endif()
      if(line MATCHES "\\.\\./")
        file(RELATIVE_PATH where "${GLIDE_SOURCE_DIR}" "${file}")
        string(APPEND problems "  ${where}: includes by a relative path out of its folder: ${line}\n")
      endif()
    endforeach()
  endforeach()
endforeach()

# The program and the benchmarks build against the libraries' public headers only.
file(GLOB_RECURSE build_files "${GLIDE_SOURCE_DIR}/demo/CMakeLists.txt" "${GLIDE_SOURCE_DIR}/demo/*/CMakeLists.txt"
  "${GLIDE_SOURCE_DIR}/bench/CMakeLists.txt")
foreach(file IN LISTS build_files)
  file(STRINGS "${file}" lines)
  foreach(line IN LISTS lines)
    foreach(module IN LISTS modules)
      if(line MATCHES "/${module}/src" AND NOT line MATCHES "^[ \t]*#")
        file(RELATIVE_PATH where "${GLIDE_SOURCE_DIR}" "${file}")
        string(APPEND problems "  ${where}: reaches into ${module}/src: ${line}\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "module layering broken:\n${problems}")
endif()
message(STATUS "module layering: every include points down (gjk <- terrain <- world <- controller <- cases)")
