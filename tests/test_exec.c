/* Suite: clothcheck audit --exec, the element protocol (checks/exec_elements.c,
 * checks/exec_audit.c, src/cli/audit_exec.c, checks/memo.c).
 *
 * Programs in Python 3: tests/exec/spring.py (a spring in the condition contract, with
 * planted mistakes and every way of misbehaving) and docs/examples/python/bridson_bend.py
 * (a student's Bridson bending force in the force contract, with the planted mistakes of
 * docs/your-code.md). A mistake gets its verdict (exit 1) and its diagnosis; a misbehaving
 * program one line on stderr and exit 2, never a hang.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc_test.h"

static char out[1 << 16], err[1 << 14];

/* clothcheck audit COND --exec "python3 SRC/script ARGS" OPTS; the exit status */
static int audit(const char *cond, const char *script, const char *args, const char *opts)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "audit %s --exec 'python3 %s/%s %s' %s", cond, CC_SOURCE_DIR, script, args, opts);
    return cc_test_run_cli(cmd, out, sizeof out, err, sizeof err);
}

static int spring(const char *mode, const char *opts)
{
    return audit("spring", "tests/exec/spring.py", mode, opts);
}

static int bend(const char *mistake)
{
    char args[64] = "";
    if (mistake) snprintf(args, sizeof args, "--mistake %s", mistake);
    return audit("bend", "docs/examples/python/bridson_bend.py", args,
                 "--contract force --claims bridson-force --k 5 --samples 100");
}

/* the report holds text; prints it when not */
static int says(const char *where, const char *text)
{
    if (strstr(where, text)) return 1;
    fprintf(stderr, "expected '%s' in:\n%s\n", text, where);
    return 0;
}

static void test_right_programs_pass(void)
{
    CU_ASSERT_EQUAL(spring("right", "--claims spring/linear --samples 50"), 0);
    CU_ASSERT(says(out, "=> holds its claim"));
    CU_ASSERT(says(out, "claim        value"));
    CU_ASSERT_EQUAL(bend(NULL), 0);
    CU_ASSERT(says(out, "claims to implement bridson-force (k = 5)"));
    CU_ASSERT(says(out, "missing: the program gives no energy"));
    /* without a claim: only checks of itself, which a consistent program passes */
    CU_ASSERT_EQUAL(spring("sign", "--samples 50"), 0);
}

/* the evaluations per audited element the report's last line gives, or -1 */
static double per_element(void)
{
    const char *p = strstr(out, " elements: ");
    double v;
    return p && sscanf(p, " elements: %lf an audited element", &v) == 1 ? v : -1;
}

/* what the audit asks: a right program is asked little (3 an element or fewer with a claim,
 * 2 (3 nv) + 4 without), a wrong one gets the full audit and its diagnosis */
static void test_what_the_audit_asks(void)
{
    CU_ASSERT_EQUAL(spring("right", "--claims spring/linear"), 0);
    CU_ASSERT(says(out, "(differences on 3 elements: the light audit held)"));
    CU_ASSERT(per_element() > 1 && per_element() <= 3);
    CU_ASSERT_EQUAL(spring("right", ""), 0);
    CU_ASSERT(says(out, "(central differences: the light audit held)"));
    CU_ASSERT(says(out, "fd-true      gradient            central "));
    CU_ASSERT(per_element() > 1 && per_element() <= 2 * 6 + 4);
    CU_ASSERT_EQUAL(bend(NULL), 0);   /* a hinge's force with its claim, 113 elements */
    CU_ASSERT(per_element() > 1 && per_element() <= 3);
    CU_ASSERT_EQUAL(audit("bend", "docs/examples/python/bridson_bend.py", "", "--contract force --k 5 --samples 100"), 0);
    CU_ASSERT(per_element() > 1 && per_element() <= 2 * 12 + 4);
    /* a mistake: the full audit, central4 differences and the diagnosis */
    CU_ASSERT_EQUAL(spring("half", "--claims spring/linear"), 1);
    CU_ASSERT(says(out, "(the light audit failed: the full one ran)"));
    CU_ASSERT(says(out, "central4"));
    CU_ASSERT(says(out, "0.5 times the reference"));
    CU_ASSERT(per_element() > 3);
}

static void test_consistent_mistakes_found_by_the_claim(void)
{
    CU_ASSERT_EQUAL(spring("sign", "--claims spring/linear --samples 50"), 1);
    CU_ASSERT(says(out, "^ sign"));
    CU_ASSERT_EQUAL(spring("half", "--claims spring/linear --samples 50"), 1);
    CU_ASSERT(says(out, "0.5 times the reference"));
    CU_ASSERT_EQUAL(spring("swap", "--claims spring/linear --samples 50"), 1);
    CU_ASSERT(says(out, "laid out axis-major"));
}

static void test_student_bend_mistakes(void)
{
    CU_ASSERT_EQUAL(bend("sign"), 1);
    CU_ASSERT(says(out, "^ sign"));
    CU_ASSERT_EQUAL(bend("missing-term"), 1);
    CU_ASSERT(says(out, "^ proportional"));
    CU_ASSERT(says(out, "it is (|nA| + |nB|)/|nA| on every element"));
    CU_ASSERT_EQUAL(bend("relabelled"), 1);
    CU_ASSERT(says(out, "your x0, x1, x2, x3 are our x2, x0, x1, x3"));
    CU_ASSERT_EQUAL(bend("forgot-k"), 1);
    CU_ASSERT(says(out, "0.2 times the reference"));
    CU_ASSERT_EQUAL(bend("nan-flat"), 1);
    CU_ASSERT(says(out, "^ non-finite       The jacobian is NaN at edge case e0:flat, entry ["));
    CU_ASSERT(says(out, "a square root, division or acos meeting 0"));
}

/* without --claims the report names what the program computes: the Python student's force is
 * Bridson's, read with another labelling, or with k = 1 whatever the request's k; the spring
 * is spring/linear; a formula nothing registered computes gets "matches no" */
static void test_identified_without_claims(void)
{
    const char *opts = "--contract force --k 3 --samples 30";
    CU_ASSERT_EQUAL(audit("bend", "docs/examples/python/bridson_bend.py", "", opts), 0);
    CU_ASSERT(says(out, "=> identified: bridson-force (exact): force and jacobian agree with it to "));
    CU_ASSERT(says(out, "audit it as that with --claims bridson-force"));
    audit("bend", "docs/examples/python/bridson_bend.py", "--mistake relabelled", opts);
    CU_ASSERT(says(out, "=> identified: bridson-force (exact), your x0, x1, x2, x3 our x2, x0, x1, x3"));
    audit("bend", "docs/examples/python/bridson_bend.py", "--mistake forgot-k", opts);
    CU_ASSERT(says(out, "=> identified: bridson-force (exact), k = 1: "));
    audit("bend", "docs/examples/python/bridson_bend.py", "--mistake missing-term", opts);
    CU_ASSERT(says(out, "=> it matches no registered formulation"));
    CU_ASSERT_EQUAL(spring("right", "--samples 30"), 0);
    CU_ASSERT(says(out, "=> identified: spring/linear (exact): value, gradient and hessian agree with it to "));
}

static void test_numbers_not_finite_are_findings(void)
{
    CU_ASSERT_EQUAL(spring("nan", "--claims spring/linear --samples 20"), 1);
    CU_ASSERT(says(out, "target       finite              NOT finite at 23 of 23 elements"));
    CU_ASSERT(says(out, "^ non-finite       The value is NaN at element #0;"));
    /* not blamed on a division by a length that is not zero there */
    CU_ASSERT(says(out, "the vertices do not coincide there (|x0 - x1| = "));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 0);
    CU_ASSERT_EQUAL(spring("negnan", "--claims spring/linear --samples 20"), 1);
    CU_ASSERT(says(out, "target       finite              NOT finite at 23 of 23 elements"));
}

static void test_single_precision(void)
{
    CU_ASSERT_EQUAL(spring("single", "--claims spring/linear --samples 50"), 0);
    CU_ASSERT(says(out, "judged to 6.0e-08 (single: every number it sent is a float's rounding)"));
    /* floats printed as C prints them (%.9g) and as numpy prints a float32 (the fewest digits
     * that read back as it): recognised all the same */
    CU_ASSERT_EQUAL(spring("single9", "--claims spring/linear --samples 50"), 0);
    CU_ASSERT(says(out, "judged to 6.0e-08 (single: every number it sent is a float's rounding)"));
    CU_ASSERT_EQUAL(spring("single-repr", "--claims spring/linear --samples 50"), 0);
    CU_ASSERT(says(out, "judged to 6.0e-08 (single: every number it sent is a float's rounding)"));
    /* doubles printed with 9 digits are judged to those digits, and are not floats */
    CU_ASSERT_EQUAL(spring("digits9", "--claims spring/linear --samples 50"), 0);
    CU_ASSERT(says(out, "judged to 5.0e-09 (it prints 9 significant digits)"));
    /* C's %g: six digits, near some float whatever they are, judged to those digits and told so */
    CU_ASSERT_EQUAL(spring("digits6", "--claims spring/linear --samples 50"), 0);
    CU_ASSERT(says(out, "judged to 5.0e-06 (it prints 6 significant digits)"));
    CU_ASSERT(says(out, "too few digits for a sharp audit: print %.17g (%.9g for floats)"));
    /* a double-precision program is not taken for a single-precision one */
    CU_ASSERT_EQUAL(spring("right", "--claims spring/linear --samples 50"), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "single precision"));
    /* and told so, it is judged so */
    CU_ASSERT_EQUAL(spring("right", "--claims spring/linear --samples 50 --precision single"), 0);
    CU_ASSERT(says(out, "(--precision single)"));
}

/* Without a claim, a program of limited precision has its gradient checked against differences
 * of its values and its derivatives' identities checked: a gradient of the wrong sign fails,
 * printed as floats, as doubles with 6 digits and from a float computation; a right float
 * computation passes, the short spring (1 mm, rest length 1 m, where the rounding of its
 * value and positions outweighs the differences) skipped as within its rounding */
static void test_limited_precision_unclaimed(void)
{
    static const char *const wrong[] = {"single9-gradsign", "digits6-gradsign", "float9-gradsign"};
    /* a gradient far too small does not make its own differences' rounding look large */
    CU_ASSERT_EQUAL(spring("single9-gradtiny", "--samples 50"), 1);
    CU_ASSERT(says(out, "fd-true      gradient            central4    1.00e+00"));
    CU_ASSERT_PTR_NULL(strstr(out, "within its rounding"));
    for (size_t k = 0; k < sizeof wrong / sizeof wrong[0]; k++) {
        CU_ASSERT_EQUAL(spring(wrong[k], "--samples 50"), 1);
        CU_ASSERT(says(out, "=> FAILS its claim"));
        CU_ASSERT(says(out, "^ sign"));
    }
    CU_ASSERT_EQUAL(spring("float9", "--samples 50"), 0);
    CU_ASSERT(says(out, "judged to 6.0e-08 (single"));
    CU_ASSERT(says(out, "PASS [within its rounding at 1 element]"));
    CU_ASSERT_PTR_NULL(strstr(out, "symmetry            not applicable"));
    CU_ASSERT_PTR_NULL(strstr(out, "translation         not applicable"));
    CU_ASSERT(says(out, "second differences of values of limited precision keep too few digits"));
    /* the energy of the short spring (1.5 against a force of 3 at steps of 1e-6) rounded to a
     * float: its differences off by 5e-3 there, within their rounding, not a failure */
    static const char *const force[] = {"single-force", "float9-force"};
    for (size_t k = 0; k < sizeof force / sizeof force[0]; k++) {
        CU_ASSERT_EQUAL(spring(force[k], "--contract force --k 3 --samples 50"), 0);
        CU_ASSERT(says(out, "PASS [within its rounding at 1 element]"));
    }
}

/* mode misbehaves: exit 2 with one line on stderr naming what happened */
static void misbehaves(const char *mode, const char *opts, const char *what)
{
    char o[256];
    snprintf(o, sizeof o, "--samples 20 %s", opts);
    CU_ASSERT_EQUAL(spring(mode, o), 2);
    CU_ASSERT(says(err, what));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    CU_ASSERT_EQUAL(out[0], '\0');
}

static void test_misbehaving_programs(void)
{
    misbehaves("exit", "", "the program exited with status 3 (request 1, 23 elements; last received: nothing)");
    misbehaves("crash", "", "was killed by signal 11 (SIGSEGV)");
    misbehaves("garbage", "", "answer to request 1 is not JSON");
    misbehaves("array", "", "is a JSON array, not an object");
    misbehaves("noelements", "", "has no list \"elements\"");
    misbehaves("count", "", "holds 22 elements, the request 23");
    misbehaves("entries", "", "element 0: 'gradient[0]' has 5 entries, expected 6");
    misbehaves("error", "", "the program says: spring.py cannot do that");
    misbehaves("twolines", "", "wrote more than one line for one request");
    misbehaves("silent", "", "the program exited with status 0");
    misbehaves("hang", "--exec-timeout 1", "sent no answer within 1 s, not one byte of it: ");
    CU_ASSERT(says(err, "flush stdout after every line (Python: print(..., flush=True)"));
    CU_ASSERT(says(err, "(request 1, 23 elements; last received: nothing)"));
    /* an answer left in the program's buffer (Python buffers a pipe unless PYTHONUNBUFFERED is
     * set), and one flushed without its newline: said which */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "audit spring --exec 'env -u PYTHONUNBUFFERED python3 %s/tests/exec/spring.py unflushed' "
             "--exec-timeout 1 --samples 1", CC_SOURCE_DIR);
    CU_ASSERT_EQUAL(cc_test_run_cli(cmd, out, sizeof out, err, sizeof err), 2);
    CU_ASSERT(says(err, "sent no answer within 1 s, not one byte of it: if it wrote one, it is still in its output "
                        "buffer; flush stdout"));
    misbehaves("nonewline", "--exec-timeout 1", "bytes within 1 s but no newline: end each answer with '\\n' and flush");
    CU_ASSERT_EQUAL(cc_test_run_cli("audit spring --exec 'no-such-program-here'", out, sizeof out, err, sizeof err), 2);
    CU_ASSERT(says(err, "cannot start 'no-such-program-here'"));
}

static void test_stderr_passes_through(void)
{
    CU_ASSERT_EQUAL(spring("stderr", "--samples 20"), 0);
    CU_ASSERT(says(err, "spring.py: a note on stderr"));
}

static void test_bad_options(void)
{
    static const char *const bad[][2] = {
        {"audit spring --claims spring/linear", "go with --exec"},
        {"audit --exec 'python3 x.py'", "needs the CONDITION"},
        {"audit spring --exec 'python3 x.py' --claims bend/bridson", "is not a spring variant"},
        {"audit spring --exec 'python3 x.py' --claims spring/nope", "no such variant"},
        {"audit spring --exec 'python3 x.py' --claims bridson-force", "it goes with bend and the force contract"},
        {"audit spring --exec 'python3 x.py' --contract energy", "--contract must be condition or force"},
        {"audit spring --exec 'python3 x.py' --k -1", "--k must be a positive number"},
        {"audit spring --exec 'python3 x.py' --exec-timeout 0", "--exec-timeout must be"},
        {"audit spring --exec 'python3 x.py' --precision half", "--precision must be single or double"},
        {"audit spring --exec 'python3 x.py' --variant linear", "--variant does not apply"},
        {"audit spring --exec \"'python3\"", "quote is not closed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(cc_test_run_cli(bad[i][0], out, sizeof out, err, sizeof err), 2);
        CU_ASSERT(says(err, bad[i][1]));
        CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    }
}

static void test_json_file_written_whole(void)
{
    char path[] = "/tmp/cc_exec_jsonXXXXXX", opts[128];
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    snprintf(opts, sizeof opts, "--claims spring/linear --samples 20 --json %s", path);
    CU_ASSERT_EQUAL(spring("right", opts), 0);
    char *text = cc_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT(says(text, "\"reference\": \"claim\""));
    CU_ASSERT(says(text, "\"status\": \"pass\""));
    free(text);
    /* a misbehaving program leaves the file as it was */
    CU_ASSERT_EQUAL(remove(path), 0);
    snprintf(opts, sizeof opts, "--samples 20 --json %s", path);
    CU_ASSERT_EQUAL(spring("garbage", opts), 2);
    CU_ASSERT_PTR_NULL(fopen(path, "r"));
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"right programs pass", test_right_programs_pass},
        {"consistent mistakes found by the claim", test_consistent_mistakes_found_by_the_claim},
        {"what the audit asks: light for right programs, full for wrong ones", test_what_the_audit_asks},
        {"a student's bend force, each planted mistake", test_student_bend_mistakes},
        {"identified without --claims: what the program computes", test_identified_without_claims},
        {"numbers that are not finite are findings", test_numbers_not_finite_are_findings},
        {"single precision", test_single_precision},
        {"limited precision without a claim: the gradient against the values", test_limited_precision_unclaimed},
        {"misbehaving programs: one line, exit 2", test_misbehaving_programs},
        {"the program's stderr passes through", test_stderr_passes_through},
        {"bad options", test_bad_options},
        {"--json written whole or not at all", test_json_file_written_whole},
        {NULL, NULL},
    };
    return cc_test_main("exec", tests);
}
