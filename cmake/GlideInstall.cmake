# cmake --install: headers, libraries, and glideConfig.cmake so a game writes
#   find_package(glide CONFIG REQUIRED)
#   target_link_libraries(game PRIVATE glide::glide)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GLIDE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/glide")

foreach(module gjk terrain controller)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/${module}/include/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endforeach()
install(FILES "${PROJECT_BINARY_DIR}/generated/include/glide/version.hpp"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/glide")

install(TARGETS glide glide_gjk glide_terrain glide_controller
  EXPORT glideTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT glideTargets NAMESPACE glide:: DESTINATION "${GLIDE_INSTALL_CMAKEDIR}")

configure_package_config_file(cmake/glideConfig.cmake.in
  "${PROJECT_BINARY_DIR}/glideConfig.cmake"
  INSTALL_DESTINATION "${GLIDE_INSTALL_CMAKEDIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/glideConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/glideConfig.cmake" "${PROJECT_BINARY_DIR}/glideConfigVersion.cmake"
  DESTINATION "${GLIDE_INSTALL_CMAKEDIR}")
