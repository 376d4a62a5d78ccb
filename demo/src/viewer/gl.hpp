#pragma once

// OpenGL 3.3 core entry points. Linux's libGL (glvnd) exports every core function, so the
// viewer links it directly instead of carrying a loader. GLFW is told not to include GL.
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
