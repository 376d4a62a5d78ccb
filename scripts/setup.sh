# Sourced by demo.sh, test.sh and bench.sh: installs what is missing from Debian's packages
# and configures + builds glide. Not meant to be run on its own.

GLIDE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Build tools and the libraries every build needs; clang is CI's second compiler, and its
# sanitizers' and libFuzzer's runtimes come in a package of their own.
GLIDE_PACKAGES=(g++ clang libclang-rt-dev cmake make pkg-config libglm-dev doctest-dev libtinyobjloader-dev
  libtinygltf-dev libcli11-dev nlohmann-json3-dev libstb-dev libbenchmark-dev)
# The viewer (glide demo --view) and its test under a virtual display with software OpenGL.
GLIDE_PACKAGES+=(libglfw3-dev libimgui-dev xvfb xauth libgl1-mesa-dri)

# glide_install_packages PACKAGE...: one apt-get update, then install only the missing ones.
glide_install_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "glide: missing Debian packages. Run as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "glide: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# glide_build BUILD_DIR [CMAKE_ARG...]: configure (Release unless told otherwise) and build -j2.
glide_build() {
  local dir=$1
  shift
  local werror=OFF
  [ -n "${CI:-}" ] && werror=ON
  cmake -S "$GLIDE_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DGLIDE_WARNINGS_AS_ERRORS=$werror "$@"
  cmake --build "$dir" -j2
}
