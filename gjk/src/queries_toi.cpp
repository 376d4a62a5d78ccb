// Time of impact against the built-in shapes, compiled with the library's flags.
#include <glide/gjk/toi.hpp>

namespace glide::gjk {

GLIDE_GJK_BUILTIN_SHAPES_WITH(GLIDE_GJK_TOI_INSTANCE, )

} // namespace glide::gjk
