/* Shared CUnit harness for the suites in tests/.
 *
 * A suite file defines its tests and ends with
 *     static const cc_test_case tests[] = {{"name", fn}, ..., {NULL, NULL}};
 *     int main(void) { return cc_test_main("suite name", tests); }
 * cc_test_main runs them with CUnit's basic interface and exits non-zero on any failure,
 * so ctest sees the result.
 */
#ifndef CC_TEST_H
#define CC_TEST_H

#include <CUnit/Basic.h>
#include "conditions/condition.h"

typedef struct cc_test_case {
    const char *name;
    void (*fn)(void);
} cc_test_case;

int cc_test_main(const char *suite, const cc_test_case *tests);

/* Run the clothcheck binary with the given shell-quoted arguments; capture stdout and
 * stderr (each up to cap bytes, NUL-terminated) and return the exit status (-1 on failure
 * to run). */
int cc_test_run_cli(const char *args, char *out, size_t outcap, char *err, size_t errcap);

/* The whole of file path, NUL-terminated and malloc'd (free it), or NULL. */
char *cc_test_read_file(const char *path);

/* Count the lines in s. */
int cc_test_count_lines(const char *s);

/* uniform in [-1, 1) by xorshift64 on *state (each suite keeps its own seed) */
double cc_test_rnd(unsigned long long *state);

/* J = the simulation's dense assembled Jacobian (wrt 0: df/dx, 1: df/dv), D = central
 * differences of its assembled force with the given step, D[a*n3 + b] = df_a/dq_b; both
 * n3 by n3 with n3 = 3 * vertices. The state of s is left as it was. */
struct cc_sim;
void cc_test_sim_jacobians(struct cc_sim *s, int wrt, double step, double *J, double *D);

#endif
