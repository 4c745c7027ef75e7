/* How clothcheck's C code reports an error, everywhere below the front ends.
 *
 * A function that can fail returns -1 (or NULL) and writes one line saying why, without a
 * newline, into the caller's buffer `char err[CC_ERRLEN]`, its last parameter: the size is
 * this constant, never passed. Callers that add context write their own line around it
 * ("CMD: ...") into a buffer of the same size. An object that outlives the call that failed
 * keeps its last such line (cc_sim_error); inside it, the assembly kernels, which run once per
 * element, name the element and a fixed reason, and cc_sim_assemble writes the line. The
 * front ends turn the line into theirs:
 * cc_cli_error (one line on stderr, exit status 2), luaL_error (file:line in the script),
 * clothcheck_error with clothcheck_errcode (the C library).
 */
#ifndef CC_ERROR_H
#define CC_ERROR_H

#define CC_ERRLEN 512   /* bytes of every error buffer */

/* err = the printf text; -1 */
#ifdef __GNUC__
int cc_fail(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#else
int cc_fail(char *err, const char *fmt, ...);
#endif

#endif
