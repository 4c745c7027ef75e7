/* Suite: clothcheck check-system (checks/system.c, checks/exec_system.c, cmd_check_system.c).
 *
 * Programs behind the system protocol: clothcheck's own simulator (tests/exec/sim_adapter.c),
 * the mass-spring cloth of docs/examples/system in Python and in C++ (built here with g++), and
 * tests/exec/system.py for the ways a program can misbehave. The right programs pass; each
 * planted mistake is found, narrowed down to its block and its elements, and named; a
 * misbehaving program gets one line and exit 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc_test.h"
#include "checks/csr.h"

static char out[1 << 17], err[1 << 14];

/* clothcheck check-system --exec "PROGRAM" OPTS; the exit status */
static int check(const char *program, const char *opts)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "check-system --exec \"%s\" %s", program, opts);
    return cc_test_run_cli(cmd, out, sizeof out, err, sizeof err);
}

static int says(const char *where, const char *text)
{
    if (strstr(where, text)) return 1;
    fprintf(stderr, "expected '%s' in:\n%s\n", text, where);
    return 0;
}

/* the table row of check `name` holds `result` */
static int row_is(const char *name, const char *result)
{
    char want[96];
    snprintf(want, sizeof want, "  %-16s %-8s", name, result);
    return says(out, want);
}

/* clothcheck's own simulator with mistake m ("" for none) on a 5 x 5 grid */
static int sim_claims(const char *m, const char *spec);

/* the occurrences of w in s */
static int count(const char *s, const char *w)
{
    int n = 0;
    for (const char *p = strstr(s, w); p; p = strstr(p + 1, w)) n++;
    return n;
}

static int sim(const char *m)
{
    char prog[512];
    snprintf(prog, sizeof prog, "%s%s%s", CC_SIM_ADAPTER, *m ? " --mistake " : "", m);
    return check(prog, "--grid 5 --directions 2");
}

static void test_own_simulator(void)
{
    CU_ASSERT_EQUAL(sim(""), 0);
    CU_ASSERT(says(out, "=> every check holds"));
    CU_ASSERT(row_is("force = -grad E", "PASS") && row_is("df/dx", "PASS") && row_is("df/dv", "PASS"));
    CU_ASSERT(row_is("symmetry", "PASS") && row_is("rotation", "PASS") && row_is("mass", "PASS") && row_is("b", "PASS"));
    CU_ASSERT(says(out, "the mass it implies: 0.1 in all"));   /* 1 m^2 of density 0.1 */
    /* its damping's x-derivative is Baraff & Witkin's (5.2), named; a multiple of it fails */
    CU_ASSERT(row_is("df/dx moving", "(differs)") && says(out, "[moving] df/dx's damping part is Baraff & Witkin's (5.2)"));
    CU_ASSERT_EQUAL(sim("damping-dx-sign"), 1);
    CU_ASSERT(row_is("df/dx moving", "FAIL") && says(out, "is -1 times Baraff & Witkin's form (5.2: -kd Cdot d2C/dx2): its sign"));
    CU_ASSERT_EQUAL(count(out, " FAIL "), 1);
    CU_ASSERT_EQUAL(sim("damping-dx-twice"), 1);
    CU_ASSERT(row_is("df/dx moving", "FAIL") && says(out, "is 2 times Baraff & Witkin's form (5.2: -kd Cdot d2C/dx2): a factor in it"));
    /* df/dx at x + h v: right at v = 0, its damping part no longer odd in v as the force's is */
    CU_ASSERT_EQUAL(sim("jacobian-predicted"), 1);
    CU_ASSERT(row_is("df/dx moving", "FAIL") && says(out, "where the force's damping part is odd in v: df/dx changes with v"));
    CU_ASSERT_EQUAL(count(out, " FAIL "), 1);
}

static void test_own_simulator_mistakes(void)
{
    CU_ASSERT_EQUAL(sim("wrong-vertex"), 1);
    CU_ASSERT(row_is("df/dx", "FAIL"));
    CU_ASSERT(says(out, "df/dx block (row vertex 2, column vertex 1): it holds a block that belongs at row vertex 0"));
    CU_ASSERT(says(out, "df/dx block (row vertex 0, column vertex 1): it is zero where the right block is not"));
    CU_ASSERT_EQUAL(sim("transposed"), 1);
    CU_ASSERT(says(out, "df/dx block (row vertex 1, column vertex 0): it is the transpose of the right block"));
    CU_ASSERT(says(out, "an off-diagonal block copied without its transpose"));
    CU_ASSERT_EQUAL(sim("damping-sign"), 1);
    CU_ASSERT(row_is("df/dv", "FAIL") && row_is("df/dx", "PASS"));
    CU_ASSERT(says(out, "it is the negative of the right block: a sign"));
    CU_ASSERT_EQUAL(sim("doubled"), 1);
    CU_ASSERT(row_is("force = -grad E", "FAIL"));
    CU_ASSERT(says(out, "-grad E = ("));
    CU_ASSERT_EQUAL(sim("b-sign"), 1);
    CU_ASSERT(row_is("b", "FAIL") && row_is("mass", "PASS"));
    CU_ASSERT(says(out, "it is h f - h^2 df/dx v: the term h^2 df/dx v has the wrong sign"));
    CU_ASSERT_EQUAL(sim("b-h"), 1);
    CU_ASSERT(says(out, "it is h f + 100 h^2 df/dx v: the term h^2 df/dx v has one h too few (h where h^2 belongs)"));
    CU_ASSERT_EQUAL(sim("A-h"), 1);
    CU_ASSERT(row_is("mass", "FAIL") && says(out, "the term -h^2 df/dx has one h too few (h where h^2 belongs)"));
}

/* a number that is not finite fails "finite", named, and no other check; a simulator computing in
 * floats, one printing 9 digits and one whose energy is off by a constant pass */
static void test_nonfinite_and_right_forms(void)
{
    CU_ASSERT_EQUAL(sim("nan-force"), 1);
    CU_ASSERT(row_is("finite", "FAIL") && says(out, "^ [rest] the force entry 5 (vertex 1, axis z) is NaN"));
    CU_ASSERT_EQUAL(count(out, " FAIL "), 1);   /* no other check fails */
    CU_ASSERT(says(out, "  mass             not run: no state it applies to"));   /* every state's force is NaN */
    CU_ASSERT_EQUAL(sim("nan-jacobian"), 1);
    CU_ASSERT(says(out, "[rest] df/dx entry (4, 7) (row vertex 1 y, column vertex 2 y) is NaN"));
    CU_ASSERT_EQUAL(count(out, " FAIL "), 1);
    CU_ASSERT_EQUAL(sim("single"), 0);
    CU_ASSERT(says(out, "precision: judged to 6.0e-08 (single: every number it sent is a float's rounding)"));
    CU_ASSERT_EQUAL(sim("digits9"), 0);
    CU_ASSERT(says(out, "precision: judged to 5.0e-09 (its numbers' digits)"));
    CU_ASSERT_EQUAL(sim_claims("energy-big-offset", "standard, bend_variant=pritchard-exact, k_bend=1e-3, d_bend=2e-4"), 0);
    CU_ASSERT(says(out, "the energies agree with the claim's up to a constant: the program's are 1000 higher"));
}

/* clothcheck's own simulator with mistake m against the claims spec */
static int sim_claims(const char *m, const char *spec)
{
    char prog[512], opts[512];
    snprintf(prog, sizeof prog, "%s%s%s", CC_SIM_ADAPTER, *m ? " --mistake " : "", m);
    snprintf(opts, sizeof opts, "--grid 5 --directions 2 --claims '%s'", spec);
    return check(prog, opts);
}

static void test_claims(void)
{
    const char *own = "standard, bend_variant=pritchard-exact, k_bend=1e-3, d_bend=2e-4";   /* what the adapter simulates */
    CU_ASSERT_EQUAL(sim_claims("", own), 0);
    CU_ASSERT(says(out, "  claims: standard, bend_variant=pritchard-exact, k_bend=1e-3, d_bend=2e-4  (alpha = a^0.75)\n"));
    CU_ASSERT(row_is("claim: energy", "PASS") && row_is("claim: force", "PASS"));
    CU_ASSERT(row_is("claim: df/dx", "PASS") && row_is("claim: df/dv", "PASS"));
    CU_ASSERT_EQUAL(sim_claims("doubled", own), 1);
    CU_ASSERT(says(out, "the force: the bend term is summed twice"));
    CU_ASSERT_EQUAL(sim_claims("damping-sign", own), 1);
    CU_ASSERT(says(out, "df/dv: all of it is with the wrong sign"));
    /* a claim that is not what it simulates: the term and the factor */
    CU_ASSERT_EQUAL(sim_claims("", "standard, bend_variant=pritchard-exact, k_bend=1e-3, d_bend=2e-4, k_stretch=4000"), 1);
    CU_ASSERT(says(out, "the force: the stretch term is 1.25 times what the claim gives"));
    /* a bare term weighs by a^1, as every request does, unless area_power says otherwise */
    sim_claims("", "stretch:bw98:k=5000");
    CU_ASSERT(says(out, "  claims: stretch:bw98:k=5000  (alpha = a^1)\n"));
    sim_claims("", "stretch:bw98:k=5000, area_power=0.5");
    CU_ASSERT(says(out, "(alpha = a^0.5)\n"));
    sim_claims("", "bend:pritchard:k=1e-3");
    CU_ASSERT(says(out, "  claims: bend:pritchard:k=1e-3\n"));
    /* without --claims the rows say so */
    CU_ASSERT_EQUAL(sim(""), 0);
    CU_ASSERT(says(out, "claim: force     not applicable: no --claims"));
    /* a bad spec */
    CU_ASSERT_EQUAL(sim_claims("", "standard, nonsense"), 2);
    CU_ASSERT(says(err, "--claims: 'nonsense' is neither a term (stretch:bw98:k=5000) nor NAME=VALUE"));
    CU_ASSERT_EQUAL(sim_claims("", "stretch:bw99:k=5"), 2);
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
}

/* the Python example with mistake m ("" for none) on a 6 x 6 grid */
static int springs(const char *prog, const char *m)
{
    char p[1024];
    snprintf(p, sizeof p, "%s%s%s", prog, *m ? " --mistake " : "", m);
    return check(p, "--grid 6 --directions 2");
}

/* the planted mistakes of docs/examples/system, in program prog (all of them, or the ones that
 * differ in kind: the right code, a misplaced block, a sign) */
static void example_mistakes(const char *prog, int all)
{
    CU_ASSERT_EQUAL(springs(prog, ""), 0);
    CU_ASSERT(says(out, "=> every check holds"));
    CU_ASSERT_EQUAL(springs(prog, "wrong-vertex"), 1);
    CU_ASSERT(row_is("df/dx", "FAIL"));
    /* the bending spring's block (0, 2) went to column 1: only a hinge holds both vertices */
    CU_ASSERT(says(out, "df/dx block (row vertex 0, column vertex 2): it lacks a part that column vertex 1 holds instead: "
                        "a term added at the wrong column vertex (1 where 2 belongs); elements holding both: hinge 1"));
    CU_ASSERT_EQUAL(springs(prog, "damping-sign"), 1);
    CU_ASSERT(row_is("df/dv", "FAIL"));
    /* every block negated: one line that says so, not one a block */
    CU_ASSERT(says(out, "df/dv: every block it differs in is of one kind, "));
    CU_ASSERT(says(out, "(0, 0), (1, 0), ") && says(out, ": it is the negative of the right block: a sign"));
    if (!all) return;
    CU_ASSERT_EQUAL(springs(prog, "doubled"), 1);
    CU_ASSERT(row_is("force = -grad E", "FAIL") && row_is("df/dx", "PASS"));
    CU_ASSERT_EQUAL(springs(prog, "missing-bend-jacobian"), 1);
    CU_ASSERT(says(out, "it is zero where the right block is not: a term missing; elements holding both: hinge"));
    /* the damping's position derivative mirrored: seen only with velocities, reported */
    CU_ASSERT_EQUAL(springs(prog, "no-transpose"), 0);
    CU_ASSERT(row_is("df/dx moving", "(differs)"));
    CU_ASSERT(says(out, "[moving] df/dx: every block it differs in is of one kind") &&
              says(out, ": it is the transpose of the right block"));
    /* the damping's x-derivative in each right form passes, named; its sign wrong fails */
    CU_ASSERT_EQUAL(springs(prog, "damping-dx-sign"), 1);
    CU_ASSERT(row_is("df/dx moving", "FAIL") && says(out, "(df/dx at v less df/dx at v = 0) is -1 times the exact one: its sign"));
    char p[400];
    snprintf(p, sizeof p, "%s --damping-dx bw", prog);
    CU_ASSERT_EQUAL(springs(p, ""), 0);
    CU_ASSERT(says(out, "[moving] df/dx's damping part is Baraff & Witkin's (5.2)"));
    CU_ASSERT_EQUAL(springs(p, "damping-dx-sign"), 1);
    CU_ASSERT(says(out, "is -1 times Baraff & Witkin's form (5.2: -kd Cdot d2C/dx2): its sign"));
    snprintf(p, sizeof p, "%s --damping-dx none", prog);
    CU_ASSERT_EQUAL(springs(p, ""), 0);
    CU_ASSERT(says(out, "[moving] df/dx does not change with the velocity: the damping force's x-derivative is left out"));
}

static void test_python_example(void)
{
    char prog[512];
    snprintf(prog, sizeof prog, "python3 %s/docs/examples/system/springs.py", CC_SOURCE_DIR);
    example_mistakes(prog, 1);
    /* without gravity the rest mesh is force-free: f = 0, and the energy's differences there are
     * their own truncation, which the force check must not count */
    snprintf(prog, sizeof prog, "python3 %s/docs/examples/system/springs.py --gravity 0", CC_SOURCE_DIR);
    CU_ASSERT_EQUAL(check(prog, "--grid 4"), 0);
    CU_ASSERT(row_is("force = -grad E", "PASS"));
}

/* the Python example's answers rounded to floats, on a curved mesh: the differences of the force
 * at a float's long step carry their truncation, which must not fail a right df/dx; its df/dx
 * mistakes are still found */
static void test_float_on_curved_mesh(void)
{
    char prog[512], opts[256];
    snprintf(opts, sizeof opts, "--mesh %s/tests/exec/curved.obj", CC_SOURCE_DIR);
    snprintf(prog, sizeof prog, "python3 %s/tests/exec/as_float.py python3 %s/docs/examples/system/springs.py",
             CC_SOURCE_DIR, CC_SOURCE_DIR);
    CU_ASSERT_EQUAL(check(prog, opts), 0);
    CU_ASSERT(row_is("df/dx", "PASS") && says(out, "(single: every number it sent is a float's rounding)"));
    static const char *mistakes[] = {"wrong-vertex", "missing-bend-jacobian"};
    for (int i = 0; i < 2; i++) {
        snprintf(prog, sizeof prog, "python3 %s/tests/exec/as_float.py python3 %s/docs/examples/system/springs.py --mistake %s",
                 CC_SOURCE_DIR, CC_SOURCE_DIR, mistakes[i]);
        CU_ASSERT_EQUAL(check(prog, opts), 1);
        CU_ASSERT(row_is("df/dx", "FAIL"));
    }
    /* the damping's part with its sign wrong: a multiple of the exact one, to its differences' truncation */
    snprintf(prog, sizeof prog, "python3 %s/tests/exec/as_float.py python3 %s/docs/examples/system/springs.py --mistake damping-dx-sign",
             CC_SOURCE_DIR, CC_SOURCE_DIR);
    CU_ASSERT_EQUAL(check(prog, opts), 1);
    CU_ASSERT(row_is("df/dx moving", "FAIL") && says(out, "times the exact one: its sign"));
}

static void test_cpp_example(void)
{
    char bin[] = "/tmp/cc_springsXXXXXX", cmd[1024];
    int fd = mkstemp(bin);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "g++ -std=c++17 -O2 -Wall -Wextra -Werror -o %s %s/docs/examples/system/springs.cpp", bin,
             CC_SOURCE_DIR);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    example_mistakes(bin, 0);   /* the same model as the Python one, which the suite runs in full */
    remove(bin);
}

/* system.py in mode `mode` on a 3 x 3 grid: exit 2, one line on stderr naming `what` */
static void misbehaves(const char *mode, const char *opts, const char *what)
{
    char prog[512], o[128];
    snprintf(prog, sizeof prog, "python3 %s/tests/exec/system.py %s", CC_SOURCE_DIR, mode);
    snprintf(o, sizeof o, "--grid 3 %s", opts);
    CU_ASSERT_EQUAL(check(prog, o), 2);
    CU_ASSERT(says(err, what));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    CU_ASSERT_EQUAL(out[0], '\0');
}

/* a program that provides `provides` (a JSON list) and answers every state with `line`: the
 * one-line error that names its first mistake, whatever the order of its members */
static void answers(const char *provides, const char *line, const char *what)
{
    char path[] = "/tmp/cc_answer_XXXXXX", prog[600];
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%s\n%s\n", provides, line);
    fclose(f);
    snprintf(prog, sizeof prog, "python3 %s/tests/exec/system.py answer %s", CC_SOURCE_DIR, path);
    CU_ASSERT_EQUAL(check(prog, "--grid 3"), 2);
    CU_ASSERT(says(err, what));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    unlink(path);
}

/* an answer's mistakes are named field by field, each by its first, in the same order whatever
 * the order of the answer's members (the answer is read as it arrives) */
static void test_answer_mistakes(void)
{
    char zeros[27 * 3 + 8] = "", f26[sizeof zeros + 8];
    for (int k = 0; k < 27; k++) strcat(zeros, k ? ", 0" : "0");
    snprintf(f26, sizeof f26, "%.*s, [1]", (int)strlen(zeros) - 3, zeros);
    const char *ef = "[\"energy\", \"force\"]", *dx = "[\"df_dx\"]";
    char line[512];
    snprintf(line, sizeof line, "{\"force\": [%s]}", zeros);
    answers(ef, line, "answer to request 2: \"energy\" must be a number");
    answers(ef, "{\"energy\": 1}", "answer to request 2 has no \"force\" though it was asked for");
    answers(ef, "{\"energy\": 1, \"force\": {\"a\": 1}}", "\"force\" must be a list of 27 numbers (got object of 0)");
    snprintf(line, sizeof line, "{\"energy\": 1, \"force\": [%s]}", f26);
    answers(ef, line, "\"force\" entry 26 is a array");
    answers(ef, "{\"energy\": true, \"force\": [1]}", "\"energy\" must be a number");
    answers(ef, "{\"force\": [1], \"energy\": true}", "\"energy\" must be a number");
    answers(ef, "{\"force\": [1], \"energy\": 1, \"energy\": true}", "\"force\" must be a list of 27 numbers (got array of 1)");
    snprintf(line, sizeof line, "{\"energy\": 1, \"force\": [%s], \"error\": \"late\"}", zeros);
    answers(ef, line, "the program says: late");
    answers(ef, "{\"error\": 5, \"energy\": \"x\"}", "the program says: (an error that is not a string)");
    answers(ef, "[1, 2]", "answer to request 2 is a JSON array, not an object");
    answers(ef, "{\"error\": \"x\", \"energy\": \"bad\"", "answer to request 2 is not JSON (',' or '}' expected (at byte 30)): {\"error\"");
    answers(ef, "{} 2", "is not JSON (text after the value (at byte 3)): {} 2");
    answers(dx, "{\"df_dx\": {\"i\": [0], \"j\": [0]}}", "\"df_dx\" must be {\"i\": [...], \"j\": [...], \"v\": [...]}");
    answers(dx, "{\"df_dx\": {\"i\": [0], \"j\": 0, \"v\": [1]}}", "\"df_dx\" must be {\"i\": [...], \"j\": [...], \"v\": [...]}");
    answers(dx, "{\"df_dx\": {\"i\": [0, 1], \"j\": [0], \"v\": [1]}}", "\"df_dx\" has 2 i, 1 j and 1 v");
    answers(dx, "{\"df_dx\": {\"v\": [1, \"x\"], \"i\": [0, 0.5], \"j\": [0, 0]}}", "\"df_dx\" entry 1: i and j must be whole numbers");
    answers(dx, "{\"df_dx\": {\"i\": [0, 0, 1e300], \"j\": [0, 0, 0], \"v\": [1, \"x\", 1]}}", "\"df_dx\" entry 1: v is a string");
    answers(dx, "{\"df_dx\": {\"i\": [NaN], \"j\": [0], \"v\": [1]}}", "\"df_dx\" entry 0: i and j must be whole numbers");
    answers(dx, "{\"df_dx\": {\"i\": [0, 27], \"j\": [0, 0], \"v\": [1, 1]}}", "\"df_dx\" entry 1: (27, 0) is outside the 27 x 27 matrix");
    answers(dx, "{\"df_dx\": {\"i\": [0], \"j\": [0], \"v\": [\"x\"], \"v\": [1]}, \"A\": 3}", "\"df_dx\" entry 0: v is a string");
}

static void test_right_and_misbehaving(void)
{
    char prog[512];
    snprintf(prog, sizeof prog, "python3 %s/tests/exec/system.py", CC_SOURCE_DIR);
    CU_ASSERT_EQUAL(check(prog, "--grid 5"), 0);
    misbehaves("exit", "", "the program exited with status 4 (request 1; last received: nothing)");
    misbehaves("garbage", "", "answer to request 2 is not JSON");
    misbehaves("noprovides", "", "the answer to the mesh has no list \"provides\"");
    misbehaves("badprovides", "", "\"provides\" names 'hessian', not one of energy, force, df_dx, df_dv, system, external");
    misbehaves("nothing", "", "the program provides nothing");
    misbehaves("shortforce", "", "\"force\" must be a list of 27 numbers (got array of 26)");
    misbehaves("badindex", "", "\"df_dx\" entry 0: (1000000, 0) is outside the 27 x 27 matrix");
    misbehaves("error", "", "the program says: system.py cannot do that");
    misbehaves("hang", "--exec-timeout 1", "sent no answer within 1 s, not one byte of it");
    CU_ASSERT_EQUAL(check("no-such-program-here", "--grid 3"), 2);
    CU_ASSERT(says(err, "cannot start 'no-such-program-here'"));
}

static void test_bad_options(void)
{
    static const char *const bad[][2] = {
        {"check-system --grid 3", "--exec \"CMD\" is required"},
        {"check-system --exec 'python3 x.py'", "give the mesh: --mesh FILE.obj or --grid N"},
        {"check-system --exec 'python3 x.py' --grid 3 --mesh a.obj", "give the mesh"},
        {"check-system --exec 'python3 x.py' --grid 1", "--grid"},
        {"check-system --exec 'python3 x.py' --grid 3 --h 0", "--h must be a number in (0, 1]"},
        {"check-system --exec 'python3 x.py' --grid 3 --directions 0", "--directions"},
        {"check-system --exec 'python3 x.py' --mesh /no/such/cloth.obj", "/no/such/cloth.obj"},
        {"check-system --exec 'python3 x.py' --grid 3 --bogus 1", "bogus"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(cc_test_run_cli(bad[i][0], out, sizeof out, err, sizeof err), 2);
        CU_ASSERT(says(err, bad[i][1]));
        CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    }
}

/* a mesh degenerate for the conditions is refused before any program sees it: one line, exit 2 */
static void test_degenerate_mesh(void)
{
    char path[] = "/tmp/cc_sys_vertXXXXXX", cmd[1024];
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    const char *obj = "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 3\nf 2 4 3\n";   /* vertical, no vt */
    CU_ASSERT_EQUAL((size_t)write(fd, obj, strlen(obj)), strlen(obj));
    close(fd);
    /* a program that would fail loudly if it were started */
    snprintf(cmd, sizeof cmd, "check-system --exec 'python3 -c \"import sys; sys.exit(7)\"' --mesh %s", path);
    CU_ASSERT_EQUAL(cc_test_run_cli(cmd, out, sizeof out, err, sizeof err), 2);
    CU_ASSERT(says(err, "triangle 0 (0 1 2): its (u, v) triangle has zero area (the mesh has no vt"));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    remove(path);
}

static void test_json_and_mesh_file(void)
{
    char path[] = "/tmp/cc_sys_jsonXXXXXX", opts[1024];
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    snprintf(opts, sizeof opts, "--mesh %s/docs/examples/system/grid3x3.obj --json %s", CC_SOURCE_DIR, path);
    char prog[512];
    snprintf(prog, sizeof prog, "python3 %s/docs/examples/system/springs.py --mistake damping-sign", CC_SOURCE_DIR);
    CU_ASSERT_EQUAL(check(prog, opts), 1);
    char *text = cc_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT(says(text, "{\"check\": \"df/dv\", \"status\": \"fail\", \"gates\": true"));
    CU_ASSERT(says(text, "\"failed\": true"));
    CU_ASSERT(!strncmp(text, "{\"verdict\": \"fail\", \"options\": {\"mesh\": \"", 41));
    CU_ASSERT(says(text, "grid3x3.obj\", \"claims\": null, \"area_power\": null, \"h\": "));
    CU_ASSERT(says(text, "\"uv_from_xy\": 0, \"uv_mismatch\": 0, \"checks\""));   /* its vt lay it out as it is */
    CU_ASSERT(!strstr(out, "note: the mesh has no vt"));
    free(text);
    remove(path);
    /* a curved rest without vt: (u, v) from (x, y) are not its lengths, and the report says so */
    snprintf(opts, sizeof opts, "--mesh %s/tests/exec/curved.obj --directions 1", CC_SOURCE_DIR);
    CU_ASSERT_EQUAL(check(CC_SIM_ADAPTER, opts), 0);
    CU_ASSERT(says(out, "  note: the mesh has no vt for 36 vertices, so their (u, v) are the rest (x, y); the rest is not "
                        "flat in the x-y plane: (u, v) lengths are up to 96.8 % off the rest lengths (triangle 3)"));
}

/* A program's triplets into compressed rows: every (i, j) some triplet names stored once, with
 * the triplets' sum in their order (bit for bit a dense accumulation), columns ascending in each
 * row, short rows and a full one; an index outside the matrix refused with its triplet. */
static void test_triplets(void)
{
    enum { N = 60, NNZ = 3000 };
    static int I[NNZ], J[NNZ], named[N][N];
    static double V[NNZ], dense[N][N];
    srand(11);
    for (int k = 0; k < NNZ; k++) {
        I[k] = k < N ? 7 : rand() % N, J[k] = k < N ? N - 1 - k : rand() % (N / 2) * 2;   /* row 7 full */
        V[k] = (double)rand() / RAND_MAX - 0.5;
        dense[I[k]][J[k]] += V[k], named[I[k]][J[k]] = 1;
    }
    cc_csr A;
    int bad = 0, wrong = 0;
    CU_ASSERT_EQUAL(cc_csr_from_triplets(&A, N, NNZ, I, J, V, &bad), 0);
    for (int r = 0; r < N; r++) {
        int stored = 0;
        for (int q = A.rowp[r]; q < A.rowp[r + 1]; q++) {
            int c = A.col[q];
            wrong += q > A.rowp[r] && A.col[q - 1] >= c;
            wrong += !named[r][c] || A.val[q] != dense[r][c];
        }
        for (int c = 0; c < N; c++) stored += named[r][c];
        wrong += stored != A.rowp[r + 1] - A.rowp[r];
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(A.rowp[8] - A.rowp[7], N);
    cc_csr_free(&A);
    J[1234] = N;
    CU_ASSERT_EQUAL(cc_csr_from_triplets(&A, N, NNZ, I, J, V, &bad), -1);
    CU_ASSERT_EQUAL(bad, 1234);
    cc_csr_free(&A);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"clothcheck's own simulator passes", test_own_simulator},
        {"mistakes planted in it are found and placed", test_own_simulator_mistakes},
        {"--claims: term by term", test_claims},
        {"the Python example and its mistakes", test_python_example},
        {"the C++ example and its mistakes", test_cpp_example},
        {"floats on a curved mesh: a right df/dx passes, its mistakes fail", test_float_on_curved_mesh},
        {"a right program passes; misbehaving ones: one line, exit 2", test_right_and_misbehaving},
        {"an answer's mistakes: each field's first, in a fixed order", test_answer_mistakes},
        {"bad options", test_bad_options},
        {"a degenerate mesh is refused before any program sees it", test_degenerate_mesh},
        {"numbers not finite are named; float, 9-digit and offset programs pass", test_nonfinite_and_right_forms},
        {"--json, --mesh", test_json_and_mesh_file},
        {"a matrix's triplets into compressed rows", test_triplets},
        {NULL, NULL},
    };
    return cc_test_main("check-system", tests);
}
