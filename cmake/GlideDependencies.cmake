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
