/* Run-time dispatch to AVX2 + FMA loops (bsr.c, multigrid.c).
 *
 * With gcc or clang on x86, a function marked CC_TARGET_AVX2 is compiled for AVX2 and FMA
 * whatever the build's target, and is called only where cc_have_avx2() says the CPU runs
 * them; the portable loop next to it is the fallback and the reference the tests compare
 * it with. Elsewhere CC_AVX2 is 0 and only the portable loops exist.
 */
#ifndef CC_AVX2_H
#define CC_AVX2_H

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define CC_AVX2 1
#define CC_TARGET_AVX2 __attribute__((target("avx2,fma")))
#else
#define CC_AVX2 0
#endif

/* 1 if this CPU runs AVX2 and FMA instructions */
static inline int cc_have_avx2(void)
{
#if CC_AVX2
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

#endif
