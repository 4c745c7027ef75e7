/* Suite: the derivation stepper (checks/derive.h) and `clothcheck derive`.
 *
 * Every registered variant has a derivation whose steps cite seed equations; on the sample
 * element and on random elements the exact variants have no departure, and Pritchard's and
 * Macri's first depart at (40), frozen. A wrong derivative planted into one step of a
 * test-only copy of pritchard-exact's derivation makes that step, and no earlier one, the
 * first departure, whichever step it is. The command keeps its JSON contract, prints every
 * step with --step when standard input is not a terminal, steps on a terminal (Enter, d jumping
 * to the first departure, q quitting with the explanation still printed), and refuses bad
 * input with exit 2.
 */
#define _XOPEN_SOURCE 600
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cc_test.h"
#include "checks/cases.h"
#include "checks/derive.h"

static const cc_condition *need(const char *cond, const char *variant)
{
    const cc_condition *c = cc_condition_find(cond, variant);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c->derivation);
    return c;
}

/* d = the derivation of c at random case id of seed 3 */
static int derive_case(const cc_condition *c, int id, cc_derive *d)
{
    cc_case k;
    if (cc_case_make(c->nv, 3, id, NULL, &k) < 0) return -1;
    const cc_derivation *dv = c->derivation;
    return cc_derive_run(c->condition, c->variant, c->nv, dv->steps, dv->nsteps, k.x, &k.r, d);
}

static void test_every_variant_has_steps(void)
{
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = cc_condition_at(i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c->derivation);
        CU_ASSERT(c->derivation->nsteps >= 5);
        for (int s = 0; s < c->derivation->nsteps; s++) {
            const cc_step *st = c->derivation->steps[s];
            CU_ASSERT(strlen(st->name) > 0);
            /* a seed ("001 (25)", "002 ...", "004 ...") or a paper beyond the seeds by authors and year */
            CU_ASSERT(strncmp(st->equations, "00", 2) == 0 || strstr(st->equations, " 20") != NULL);
            CU_ASSERT(strlen(st->formula) > 0);
            CU_ASSERT(st->order == 1 || st->order == 2);
            CU_ASSERT(st->n >= 1 && st->n <= CC_STEP_MAXQ);
        }
    }
}

/* exact variants: every step exact on 30 random elements; the frozen-magnitude ones depart at (40) */
static void test_first_departures(void)
{
    static cc_derive d;
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = cc_condition_at(i);
        int frozen = !strcmp(c->variant, "pritchard") || !strcmp(c->variant, "macri");
        for (int id = 0; id < 30; id++) {
            CU_ASSERT_FATAL(derive_case(c, id, &d) == 0);
            if (!frozen) {
                CU_ASSERT_EQUAL(d.first_departure, -1);
                for (int s = 0; s < d.nsteps; s++) CU_ASSERT(d.steps[s].err_exact <= 1e-10);
                continue;
            }
            CU_ASSERT_EQUAL_FATAL(d.first_departure, 6);
            CU_ASSERT_STRING_EQUAL(d.steps[6].step->equations, "001 (24), (40)");
            CU_ASSERT_EQUAL(d.steps[6].verdict, CC_STEP_FROZEN);
            CU_ASSERT(d.steps[6].err_exact > 1e-3);
            CU_ASSERT(d.steps[6].err_frozen <= 1e-12);
        }
    }
}

/* Pritchard's theta step: frozen everywhere; Macri's quotients: differ (or frozen, theta > 0) */
static void test_final_steps(void)
{
    static cc_derive d;
    int macri_differs = 0;
    for (int id = 0; id < 30; id++) {
        CU_ASSERT_FATAL(derive_case(need("bend", "pritchard"), id, &d) == 0);
        CU_ASSERT_EQUAL(d.steps[16].verdict, CC_STEP_FROZEN);   /* (54) */
        CU_ASSERT_EQUAL(d.steps[17].verdict, CC_STEP_FROZEN);   /* (57) */
        CU_ASSERT_FATAL(derive_case(need("bend", "macri"), id, &d) == 0);
        CU_ASSERT_NOT_EQUAL(d.steps[19].verdict, CC_STEP_EXACT);  /* the switched Hessian */
        macri_differs += d.steps[18].verdict == CC_STEP_DIFFERS;
    }
    CU_ASSERT(macri_differs >= 10);
}

/* A test-only copy of a step whose derivative is wrong in one entry. */
static int planted_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    const cc_step *o = s->ptr;
    int rc = o->derive(o, x, r, q, d);
    d[s->arg] += 0.25 * (1.0 + fabs(d[s->arg]));
    return rc;
}

static void planted_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    const cc_step *o = s->ptr;
    o->value_hd(o, x, xf, r, q);
}

/* plant a wrong entry into each step of pritchard-exact's derivation in turn */
static void test_planted_step_is_first_departure(void)
{
    const cc_condition *c = need("bend", "pritchard-exact");
    const cc_derivation *dv = c->derivation;
    static cc_derive d;
    const cc_step *steps[CC_DERIVE_MAX_STEPS];
    cc_case k;
    CU_ASSERT_FATAL(cc_case_make(4, 3, 5, NULL, &k) == 0);
    for (int p = 0; p < dv->nsteps; p++) {
        cc_step wrong = *dv->steps[p];
        wrong.ptr = dv->steps[p];
        wrong.arg = 7;   /* flat entry 7: component 0, dof 7 (order 1) or (0, 7) (order 2) */
        wrong.derive = planted_derive;
        wrong.value_hd = planted_value_hd;
        for (int s = 0; s < dv->nsteps; s++) steps[s] = s == p ? &wrong : dv->steps[s];
        CU_ASSERT_FATAL(cc_derive_run("bend", "planted", 4, steps, dv->nsteps, k.x, &k.r, &d) == 0);
        CU_ASSERT_EQUAL(d.first_departure, p);
        CU_ASSERT_EQUAL(d.steps[p].verdict, CC_STEP_DIFFERS);
        for (int s = 0; s < p; s++) CU_ASSERT_EQUAL(d.steps[s].verdict, CC_STEP_EXACT);
    }
}

/* Steps without hyper-dual code are checked by finite differences: exact or differs. */
static cc_step copies[CC_DERIVE_MAX_STEPS];
static const cc_step *originals[CC_DERIVE_MAX_STEPS];

/* q = the original step's value at plain x */
static int fd_value(const cc_step *s, const double *x, const cc_rest *r, double *q)
{
    cc_step_value(originals[s - copies], 4, x, NULL, r, q);
    return 0;
}

static void test_fd_steps(void)
{
    const cc_derivation *dv = need("bend", "pritchard")->derivation;
    static cc_derive d;
    const cc_step *steps[CC_DERIVE_MAX_STEPS];
    cc_case k;
    CU_ASSERT_FATAL(cc_case_make(4, 3, 2, NULL, &k) == 0);
    for (int s = 0; s < dv->nsteps; s++) {
        originals[s] = dv->steps[s];
        copies[s] = *dv->steps[s];
        copies[s].value_hd = NULL;
        copies[s].value = fd_value;
        steps[s] = &copies[s];
    }
    CU_ASSERT_FATAL(cc_derive_run("bend", "fd", 4, steps, dv->nsteps, k.x, &k.r, &d) == 0);
    for (int s = 0; s < 6; s++) {
        CU_ASSERT_EQUAL(d.steps[s].verdict, CC_STEP_EXACT);
        CU_ASSERT_STRING_EQUAL(d.steps[s].reference, "central4");
        CU_ASSERT(isnan(d.steps[s].err_frozen));
    }
    CU_ASSERT_EQUAL(d.first_departure, 6);
    CU_ASSERT_EQUAL(d.steps[6].verdict, CC_STEP_DIFFERS);   /* no frozen reference without hyper-duals */
}

/* clothcheck CMD exits with rc and says text, on stdout (rc 0) or stderr */
static void cli_says(const char *cmd, int rc, const char *text)
{
    static char out[1 << 17], err[4096];
    CU_ASSERT_EQUAL(cc_test_run_cli(cmd, out, sizeof out, err, sizeof err), rc);
    CU_ASSERT_PTR_NOT_NULL(strstr(rc == 0 ? out : err, text));
}

static void test_cli_json(void)
{
    static char out[1 << 17], err[4096];
    int rc = cc_test_run_cli("derive bend --variant pritchard --json", out, sizeof out, err, sizeof err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    const char *keys[] = {"\"condition\": \"bend\"", "\"variant\": \"pritchard\"", "\"x\": [[", "\"steps\": [",
                          "\"name\": \"n^A^\"", "\"equations\": \"001 (24), (40)\"", "\"value\": [",
                          "\"derivative_error_exact\": ", "\"derivative_error_frozen\": ",
                          "\"verdict\": \"frozen\"", "\"first_departure\": {\"name\": \"n^A^\""};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) CU_ASSERT_PTR_NOT_NULL(strstr(out, keys[i]));
    CU_ASSERT_PTR_NULL(strstr(out, "nan"));
    cli_says("derive stretch --json", 0, "\"first_departure\": null");
    cli_says("derive spring --x '0 0 0; 2 0 0' --rest 1.5 --json", 0, "\"sample\": false");
    cli_says("derive spring --x '0 0 0; 2 0 0' --rest 1.5 --json", 0, "\"value\": [0.5]");
}

static void test_cli_text_and_step(void)
{
    static char out[1 << 17], err[4096];
    int rc = cc_test_run_cli("derive bend --variant macri --step < /dev/null", out, sizeof out, err, sizeof err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "the sample element"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "[20/20] d2C (switched)"));   /* every step, no prompt */
    CU_ASSERT_PTR_NULL(strstr(out, "Enter: next step"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "First departure: step 7, n^A^, 001 (24), (40)"));
    /* the summary names the first step of each verdict: Macri's is wrong from step 17 on */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "Steps by verdict: exact: 6, frozen: 10 (the first: step 7, n^A^), differs: 4 "
                                       "(the first: step 17, C by -dcos/sin)."));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "First step that differs from both references: step 17, C by -dcos/sin"));
    cli_says("derive bend --variant macri --json", 0, "\"first_differs\": {\"name\": \"C by -dcos/sin\"");
    cli_says("derive bend --variant macri --json", 0, "\"verdict\": \"differs\", \"step\": 17");
    cli_says("derive bend --variant pritchard --json", 0, "\"first_differs\": null");
    cli_says("derive bend --variant pritchard", 0, "frozen: 12 (the first: step 7, n^A^).\nFirst departure");
    CU_ASSERT_PTR_NULL(strstr(out, "rest hinge x_rest"));   /* Macri reads the rest angle only */
    cli_says("derive bend --variant discrete-shells", 0, "rest hinge x_rest = 0.3 -0.9 0; 0 0 0; 1 0 0; 0.5 0.8 0\n");
    cli_says("derive bend/macri", 2, "clothcheck derive bend --variant macri");
    cli_says("derive shear --variant normalized", 0, "No departure");
    cli_says("derive --help", 0, "usage: clothcheck derive");
}

/* Run `clothcheck ARGS` on a pseudo-terminal, answering its n prompts ("-- Enter: ...") with
 * keys[0..n) in turn; out gets what the terminal showed (carriage returns dropped). The
 * exit status, -1 on failure, -2 where the machine has no pseudo-terminals. */
static int run_on_terminal(const char *args, const char *const *keys, int n, char *out, size_t cap)
{
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0) return -2;   /* no pseudo-terminals here */
    if (grantpt(m) || unlockpt(m) || !ptsname(m)) return -1;
    char slave[256], cmd[1024];
    snprintf(slave, sizeof slave, "%s", ptsname(m));
    snprintf(cmd, sizeof cmd, "exec '%s' %s", CC_CLI_PATH, args);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        setsid();
        int s = open(slave, O_RDWR);
        if (s < 0) _exit(127);
        dup2(s, 0), dup2(s, 1), dup2(s, 2);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    size_t len = 0;
    int answered = 0;
    for (;;) {
        ssize_t r = read(m, out + len, cap - 1 - len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;   /* EIO once the program has exited */
        len += (size_t)r;
        out[len] = '\0';
        int prompts = 0;
        for (const char *p = out; (p = strstr(p, "-- Enter:")); p++) prompts++;
        while (answered < prompts && answered < n) {
            char line[16];
            snprintf(line, sizeof line, "%s\n", keys[answered++]);
            if (write(m, line, strlen(line)) < 0) break;
        }
        if (len + 1 >= cap) break;
    }
    close(m);
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st)) return -1;
    size_t k = 0;
    for (size_t i = 0; i < len; i++)
        if (out[i] != '\r') out[k++] = out[i];
    out[k] = '\0';
    return WEXITSTATUS(st);
}

/* --step on a terminal: d jumps to the first departure (the steps before it one line each),
 * then to the first step that differs; q stops, and the explanation is printed all the same */
static void test_step_on_terminal(void)
{
    static char out[1 << 17];
    static const char *const jump[] = {"d", "d", "q"};
    int rc = run_on_terminal("derive bend --variant macri --step", jump, 3, out, sizeof out);
    if (rc == -2) {
        fprintf(stderr, "no pseudo-terminal on this machine (posix_openpt failed): --step on a terminal not run\n");
        return;
    }
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "d: jump to the first departure (step 7)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "[ 6/20] e''              001 (39)                     exact\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "[ 7/20] n^A^             001 (24), (40)\n       n^A^ = "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "d: jump to the first step that differs from both (step 17)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "[16/20] sin theta''      001 (51)                     frozen\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(steps 18 to 20 not shown)"));
    CU_ASSERT_PTR_NULL(strstr(out, "[18/20]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "First departure: step 7, n^A^, 001 (24), (40) (verdict frozen)."));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "First step that differs from both references: step 17"));
    static const char *const quit[] = {"", "q"};   /* step 2 in full, then quit */
    CU_ASSERT_EQUAL_FATAL(run_on_terminal("derive bend --variant pritchard --step", quit, 2, out, sizeof out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "[ 2/"));
    CU_ASSERT_PTR_NULL(strstr(out, "[ 3/"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(steps 3 to "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "First departure: step 7"));
}

static void test_cli_bad_input(void)
{
    static char out[4096], err[4096];
    const char *bad[] = {"derive", "derive cloth", "derive bend --variant nope", "derive bend --x '0 0 0; 1 0 0'",
                         "derive bend --x '0 0 0; 1 0 0; 0 1 0; a b c'", "derive stretch --x '0 0 0; 1 0 0; 0 1 0'",
                         "derive stretch --x '0 0 0; 1 0 0; 0 1 0' --uv '0 0; 1 0; 2 0'",
                         "derive bend --x '0 0 0; 0 0 0; 1 0 0; 0 1 0'", "derive bend --frobnicate",
                         "derive spring --x '1e200 0 0; 0 0 0' --rest 1", "derive bend/macri", "derive bend/"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = cc_test_run_cli(bad[i], out, sizeof out, err, sizeof err);
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "clothcheck derive: "));
    }
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"every variant has steps citing seed equations or papers", test_every_variant_has_steps},
        {"first departures: none for exact variants, (40) for pritchard and macri", test_first_departures},
        {"final steps: pritchard frozen, macri differs", test_final_steps},
        {"a planted step is the first departure", test_planted_step_is_first_departure},
        {"steps without hyper-dual code", test_fd_steps},
        {"clothcheck derive --json", test_cli_json},
        {"clothcheck derive text and --step", test_cli_text_and_step},
    {"--step on a terminal: jump, quit, explanation", test_step_on_terminal},
        {"clothcheck derive bad input", test_cli_bad_input},
        {NULL, NULL}};
    return cc_test_main("derive", tests);
}
