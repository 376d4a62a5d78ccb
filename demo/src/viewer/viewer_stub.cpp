// run_viewer for builds without the viewer's packages (GLIDE_BUILD_VIEWER off): says so.
#include "view_options.hpp"

#include <ostream>

namespace glide::viewer {

bool viewer_available() { return false; }

int run_viewer(const ViewerOptions&, const LevelLoader&, std::ostream&, std::ostream& err) {
  err << "glide demo --view: this glide was built without the viewer. Install its packages and reconfigure:\n"
         "  apt-get install -y libglfw3-dev libimgui-dev\n";
  return 2;
}

} // namespace glide::viewer
