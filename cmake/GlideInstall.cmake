# cmake --install: headers, libraries, and glideConfig.cmake so a game writes
#   find_package(glide CONFIG REQUIRED)                      # every module
#   find_package(glide CONFIG REQUIRED COMPONENTS gjk)       # GJK alone: needs GLM only
#   target_link_libraries(game PRIVATE glide::glide)         # or glide::gjk, glide::world, ...
# Each module has an export set of its own, so the config loads (and looks for the
# dependencies of) only the modules a component list asks for.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GLIDE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/glide")

foreach(module ${GLIDE_MODULES})
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/${module}/include/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  install(TARGETS glide_${module}
    EXPORT glide_${module}_targets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
    INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  install(EXPORT glide_${module}_targets NAMESPACE glide:: FILE glide_${module}_targets.cmake
    DESTINATION "${GLIDE_INSTALL_CMAKEDIR}")
endforeach()
install(TARGETS glide EXPORT glide_umbrella_targets)
install(EXPORT glide_umbrella_targets NAMESPACE glide:: FILE glide_umbrella_targets.cmake
  DESTINATION "${GLIDE_INSTALL_CMAKEDIR}")
install(FILES "${PROJECT_BINARY_DIR}/generated/include/glide/version.hpp"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/glide")

configure_package_config_file(cmake/glideConfig.cmake.in
  "${PROJECT_BINARY_DIR}/glideConfig.cmake"
  INSTALL_DESTINATION "${GLIDE_INSTALL_CMAKEDIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/glideConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/glideConfig.cmake" "${PROJECT_BINARY_DIR}/glideConfigVersion.cmake"
  DESTINATION "${GLIDE_INSTALL_CMAKEDIR}")
