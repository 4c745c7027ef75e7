#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cc_test.h"
#include "sim/sim.h"

int cc_test_main(const char *suite, const cc_test_case *tests)
{
    if (CU_initialize_registry() != CUE_SUCCESS) return 2;
    CU_pSuite s = CU_add_suite(suite, NULL, NULL);
    if (!s) return 2;
    for (const cc_test_case *t = tests; t->name; t++)
        if (!CU_add_test(s, t->name, t->fn)) return 2;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}

char *cc_test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) free(s), s = NULL;
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

/* read a whole file into buf (cap bytes, NUL-terminated) */
static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
}

int cc_test_run_cli(const char *args, char *out, size_t outcap, char *err, size_t errcap)
{
    char outp[] = "/tmp/cc_test_outXXXXXX", errp[] = "/tmp/cc_test_errXXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp);
    if (fo < 0 || fe < 0) return -1;
    close(fo);
    close(fe);
    size_t len = strlen(CC_CLI_PATH) + strlen(args) + strlen(outp) + strlen(errp) + 32;
    char *cmd = malloc(len);
    if (!cmd) return -1;
    snprintf(cmd, len, "'%s' %s >%s 2>%s", CC_CLI_PATH, args, outp, errp);
    int st = system(cmd);
    free(cmd);
    slurp(outp, out, outcap);
    slurp(errp, err, errcap);
    remove(outp);
    remove(errp);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

int cc_test_count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* dense Jacobian and central differences of the assembled force (see cc_test.h) */
void cc_test_sim_jacobians(cc_sim *s, int wrt, double step, double *J, double *D)
{
    int n3 = 3 * cc_sim_vertex_count(s);
    double *fp = malloc(n3 * sizeof *fp), *fm = malloc(n3 * sizeof *fm);
    double *x = malloc(n3 * sizeof *x), *v = malloc(n3 * sizeof *v);
    memcpy(x, cc_sim_positions(s), n3 * sizeof *x);
    memcpy(v, cc_sim_velocities(s), n3 * sizeof *v);
    CU_ASSERT_EQUAL_FATAL(cc_sim_jacobian_dense(s, wrt, J), 0);
    for (int b = 0; b < n3; b++) {
        double *q = wrt ? v : x, keep = q[b];
        q[b] = keep + step;
        cc_sim_set_state(s, x, v);
        CU_ASSERT_EQUAL(cc_sim_force(s, fp), 0);
        q[b] = keep - step;
        cc_sim_set_state(s, x, v);
        CU_ASSERT_EQUAL(cc_sim_force(s, fm), 0);
        q[b] = keep;
        for (int a = 0; a < n3; a++) D[(size_t)a * n3 + b] = (fp[a] - fm[a]) / (2 * step);
    }
    cc_sim_set_state(s, x, v);
    free(fp);
    free(fm);
    free(x);
    free(v);
}

/* uniform in [-1, 1) by xorshift64 on *state */
double cc_test_rnd(unsigned long long *state)
{
    unsigned long long r = *state;
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    *state = r;
    return (double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}
