#pragma once

// Keeps the floating-point arithmetic of glide's headers rounding as the library's own code
// does, whatever the including file's flags. glide builds with -ffp-contract=off; a file
// compiled with -mfma and -ffp-contract=fast (GCC's default), or -march=native, would
// otherwise fuse some a * b + c of these headers into one rounding and return other bits.
// Every gjk header wraps its code in GLIDE_GJK_FP_EXACT_BEGIN ... GLIDE_GJK_FP_EXACT_END,
// after its #includes (so that glm and the standard headers are not affected).
//
// GCC: the functions get the attribute optimize("fp-contract=off"). GCC decides contraction
// per function, and never inlines a function with an optimize attribute into one compiled
// with other options, so the code runs uncontracted, with everything it inlines (glm, a
// user's support mapping), as a call from a file with other flags and inline in the library.
// Clang: #pragma clang fp contract(off), which holds for -ffp-contract=on (its default) and
// fast-honor-pragmas but not for -ffp-contract=fast, which ignores pragmas by definition;
// there the queries on the built-in shapes still run the library's copies (instantiations.hpp).

#if defined(__clang__)
#define GLIDE_GJK_FP_EXACT_BEGIN _Pragma("float_control(push)") _Pragma("clang fp contract(off)")
#define GLIDE_GJK_FP_EXACT_END _Pragma("float_control(pop)")
#elif defined(__GNUC__)
#define GLIDE_GJK_FP_EXACT_BEGIN _Pragma("GCC push_options") _Pragma("GCC optimize(\"fp-contract=off\")")
#define GLIDE_GJK_FP_EXACT_END _Pragma("GCC pop_options")
#else
#define GLIDE_GJK_FP_EXACT_BEGIN
#define GLIDE_GJK_FP_EXACT_END
#endif
