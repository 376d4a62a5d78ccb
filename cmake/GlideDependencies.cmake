# Every dependency comes from a Debian package. A missing one stops configure with the
# package to install, never a download.

# glide_require_package(<cmake package> <target it must provide> <debian package>)
macro(glide_require_package package target debian)
  if(NOT TARGET ${target})
    find_package(${package} CONFIG QUIET)
    if(NOT TARGET ${target})
      message(FATAL_ERROR
        "glide needs ${package} (CMake target ${target}). Install it with:\n"
        "  apt-get install -y ${debian}")
    endif()
  endif()
endmacro()

# glide_require_header(<result variable> <header> <debian package>): header-only libraries
# without a CMake package (stb).
function(glide_require_header var header debian)
  find_path(${var} NAMES ${header} PATH_SUFFIXES stb)
  if(NOT ${var})
    message(FATAL_ERROR "glide needs ${header}. Install it with:\n  apt-get install -y ${debian}")
  endif()
endfunction()

# glide_require_tinygltf(): the target TinyGLTF::TinyGLTF. Debian's libtinygltf-dev builds the
# library (its implementation is compiled once, not by glide) and ships a CMake package; where
# that package is missing, the header and library are found directly.
macro(glide_require_tinygltf)
  if(NOT TARGET TinyGLTF::TinyGLTF)
    find_package(TinyGLTF CONFIG QUIET)
  endif()
  if(NOT TARGET TinyGLTF::TinyGLTF)
    find_path(GLIDE_TINYGLTF_INCLUDE_DIR NAMES tiny_gltf.h)
    find_library(GLIDE_TINYGLTF_LIBRARY NAMES tinygltf)
    if(NOT GLIDE_TINYGLTF_INCLUDE_DIR OR NOT GLIDE_TINYGLTF_LIBRARY)
      message(FATAL_ERROR
        "glide needs tinygltf (tiny_gltf.h and libtinygltf). Install it with:\n"
        "  apt-get install -y libtinygltf-dev")
    endif()
    add_library(TinyGLTF::TinyGLTF UNKNOWN IMPORTED)
    set_target_properties(TinyGLTF::TinyGLTF PROPERTIES
      IMPORTED_LOCATION "${GLIDE_TINYGLTF_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${GLIDE_TINYGLTF_INCLUDE_DIR}")
  endif()
endmacro()
