/* clothcheck derive: step through a variant's published derivation on one element, with a
 * verdict per step and the first departure (checks/derive.h). The JSON form is a contract
 * other tools read:
 *   {"condition", "variant", "x": [[x, y, z], ...], "steps": [{"name", "equations", "value",
 *    "derivative_error_exact", "derivative_error_frozen", "verdict", ...}],
 *    "first_departure": null | {"name", "equations", "verdict", ...},
 *    "first_frozen": ..., "first_differs": ...  (the first step of each verdict, as first_departure)} */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "checks/derive.h"
#include "cli/cli.h"
#include "io/json.h"

static void derive_usage(FILE *f)
{
    fputs("usage: clothcheck derive CONDITION [--variant V] [--x \"x0 y0 z0; ...\"] [--uv \"u0 v0; ...\"]\n"
          "                         [--rest R | --x-rest \"...\"] [--area-power P] [--bu B] [--bv B]\n"
          "                         [--step] [--json]\n"
          "\n"
          "Step through the variant's published derivation on one element. Each step is one\n"
          "intermediate quantity (n^A, cos theta, w_u, ...) with the seed equations it implements;\n"
          "its derivative as the variant computes it is compared with the exact derivative of the\n"
          "step's own value (hyper-dual numbers, no step size) and with the derivative when the\n"
          "magnitudes of normalised vectors are held constant (001 Section 4). Verdicts:\n"
          "  exact    agrees with the exact derivative (normwise relative error <= 1e-9)\n"
          "  frozen   agrees only with the frozen-magnitude derivative\n"
          "  differs  agrees with neither\n"
          "The first step that is not exact is the first departure: where the derivation stops\n"
          "being the derivative of what it claims. It is explained at the end.\n"
          "\n"
          "  --variant V    formulation (default: the condition's first; see clothcheck eval --help)\n"
          "  --x, --uv, --rest, --x-rest, --area-power, --bu, --bv\n"
          "                 the element, as for clothcheck eval; without --x a sample element\n"
          "                 (printed) is used, with a flat sample rest hinge for the variants\n"
          "                 that read one (discrete-shells, quadratic)\n"
          "  --step         one step at a time: Enter for the next, d to jump to the first departure\n"
          "                 and then to the first step that differs from both references (the\n"
          "                 steps between one line each), q to quit (the explanation of the first\n"
          "                 departure is printed all the same); when standard input is a\n"
          "                 terminal, otherwise everything is printed\n"
          "  --json         print {\"condition\", \"variant\", \"x\", \"steps\": [{\"name\", \"equations\",\n"
          "                 \"value\", \"derivative_error_exact\", \"derivative_error_frozen\", \"verdict\"}],\n"
          "                 \"first_departure\"}\n"
          "\n"
          "Example: clothcheck derive bend --variant pritchard\n"
          "Exit status: 0 success, 2 bad input (one line on stderr).\n", f);
}

/* text wrapped at 88 columns, each line indented by `indent` spaces */
static void print_wrapped(const char *text, int indent)
{
    const char *p = text;
    while (*p) {
        int len = (int)strlen(p), cut = len;
        if (len > 88 - indent) {
            cut = 88 - indent;
            while (cut > 0 && p[cut] != ' ') cut--;
            if (cut == 0) cut = 88 - indent;
        }
        printf("%*s%.*s\n", indent, "", cut, p);
        p += cut;
        while (*p == ' ') p++;
    }
}

/* one step's block */
static void print_step(const cc_derive *d, int i)
{
    const cc_step_check *k = &d->steps[i];
    const cc_step *s = k->step;
    char where[48];
    printf("[%2d/%d] %-16s %s%s\n", i + 1, d->nsteps, s->name, s->equations,
           s->order == 2 ? "   (second derivative)" : "");
    print_wrapped(s->formula, 7);
    printf("       value     ");
    for (int c = 0; c < s->n; c++) printf(" %.6g", k->value[c]);
    printf("\n");
    if (k->verdict == CC_STEP_UNDEFINED) {
        printf("       undefined at this element\n\n");
        return;
    }
    cc_derive_where(s, d->nv, k->worst_exact.i, where, sizeof where);
    printf("       vs exact   %9.2e", k->err_exact);
    if (k->err_exact > 0) printf("  worst %s: %.6g, exact %.6g", where, k->worst_exact.analytic, k->worst_exact.reference);
    printf("   (%s)\n", k->reference);
    if (k->err_frozen == k->err_frozen) {
        cc_derive_where(s, d->nv, k->worst_frozen.i, where, sizeof where);
        printf("       vs frozen  %9.2e", k->err_frozen);
        if (k->err_frozen > 0) printf("  worst %s: %.6g, frozen %.6g", where, k->worst_frozen.analytic,
                                      k->worst_frozen.reference);
        printf("\n");
    }
    printf("       verdict    %s\n", cc_step_verdict_name(k->verdict));
    if (s->note[0] && i != d->first_departure && i != d->first_differs) print_wrapped(s->note, 7);   /* at the end */
    printf("\n");
}

/* "verdict: N" for the count of steps with verdict v, with the first of them */
static void print_count(const cc_derive *d, cc_step_verdict v, int first, const char *sep)
{
    int n = 0;
    for (int i = 0; i < d->nsteps; i++) n += d->steps[i].verdict == v;
    if (!n) return;
    printf("%s%s: %d", sep, cc_step_verdict_name(v), n);
    if (first >= 0) printf(" (the first: step %d, %s)", first + 1, d->steps[first].step->name);
}

/* the first departure and its explanation; then the first step that differs from both
 * references when the departure was only frozen */
static void print_departure(const cc_derive *d)
{
    if (d->first_departure < 0) {
        printf("No departure: every step is the exact derivative of its own value.\n");
        return;
    }
    printf("Steps by verdict: ");
    print_count(d, CC_STEP_EXACT, -1, "");
    print_count(d, CC_STEP_FROZEN, d->first_frozen, ", ");
    print_count(d, CC_STEP_DIFFERS, d->first_differs, ", ");
    print_count(d, CC_STEP_UNDEFINED, -1, ", ");
    printf(".\n");
    const cc_step_check *k = &d->steps[d->first_departure];
    printf("First departure: step %d, %s, %s (verdict %s).\n", d->first_departure + 1, k->step->name,
           k->step->equations, cc_step_verdict_name(k->verdict));
    if (k->step->note[0]) print_wrapped(k->step->note, 2);
    if (d->first_differs > d->first_departure) {
        k = &d->steps[d->first_differs];
        printf("First step that differs from both references: step %d, %s, %s.\n", d->first_differs + 1,
               k->step->name, k->step->equations);
        if (k->step->note[0]) print_wrapped(k->step->note, 2);
    }
}

/* what the reader of --step asked for at the prompt */
typedef enum step_key { KEY_NEXT, KEY_DEPARTURE, KEY_QUIT } step_key;

/* the next step after step i worth a jump: the first departure, then the first step that
 * differs from both references; -1 if none is left */
static int next_departure(const cc_derive *d, int i)
{
    if (d->first_departure > i) return d->first_departure;
    if (d->first_differs > i) return d->first_differs;
    return -1;
}

/* wait for a line at the prompt: Enter, d (jump to step `to`, when to >= 0) or q */
static step_key wait_key(const cc_derive *d, int to)
{
    char line[64];
    if (to >= 0)
        printf("-- Enter: next step, d: jump to the %s (step %d), q: quit -- ",
               to == d->first_departure ? "first departure" : "first step that differs from both", to + 1);
    else
        printf("-- Enter: next step, q: quit -- ");
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) return KEY_QUIT;
    if (line[0] == 'q' || line[0] == 'Q') return KEY_QUIT;
    if ((line[0] == 'd' || line[0] == 'D') && to >= 0) return KEY_DEPARTURE;
    return KEY_NEXT;
}

/* one line for step i passed over: its name and verdict */
static void print_step_line(const cc_derive *d, int i)
{
    const cc_step_check *k = &d->steps[i];
    printf("[%2d/%d] %-16s %-28s %s\n", i + 1, d->nsteps, k->step->name, k->step->equations,
           cc_step_verdict_name(k->verdict));
}

/* v, with -0 printed as 0 */
static double nz(double v)
{
    return v == 0 ? 0.0 : v;
}

static void print_text(const cc_derive *d, const cc_rest *r, int rest_shape, int sample, int step)
{
    printf("%s/%s, its derivation step by step on %s:\n", d->condition, d->variant,
           sample ? "the sample element (give --x for your own)" : "the element given");
    for (int m = 0; m < d->nv; m++) printf("  x%d = (%g, %g, %g)\n", m, d->x[3 * m], d->x[3 * m + 1], d->x[3 * m + 2]);
    if (d->nv == 4) printf("  rest angle theta0 = %g\n", r->rest_angle);
    if (d->nv == 4 && rest_shape && r->rest_weight > 0) {
        printf("  rest hinge x_rest =");
        for (int m = 0; m < 4; m++)
            printf(" %g %g %g%s", nz(r->rest_x[3 * m]), nz(r->rest_x[3 * m + 1]), nz(r->rest_x[3 * m + 2]), m < 3 ? ";" : "\n");
        printf("  weight |e_rest| sqrt(3/A_rest) = %g, cotangent weights sqrt(3/A_rest) K = (%g, %g, %g, %g)\n",
               r->rest_weight, nz(r->rest_K[0]), nz(r->rest_K[1]), nz(r->rest_K[2]), nz(r->rest_K[3]));
    }
    if (d->nv == 2) printf("  rest length L = %g\n", r->rest_length);
    printf("Entries are named q<component> x<vertex>.<axis> [x<vertex>.<axis>] (Pritchard's labels).\n\n");
    for (int i = 0; i < d->nsteps; i++) {
        print_step(d, i);
        if (!step || i + 1 >= d->nsteps) continue;
        int to = next_departure(d, i);
        step_key key = wait_key(d, to);
        if (key == KEY_QUIT) {
            printf("\n(steps %d to %d not shown)\n\n", i + 2, d->nsteps);
            break;
        }
        if (key == KEY_DEPARTURE) {   /* the steps up to it one line each, then it in full */
            printf("\n");
            while (i + 1 < to) print_step_line(d, ++i);
            printf("\n");
        }
    }
    print_departure(d);
}

/* {"name", "equations", "verdict"} fields of step k (no braces) */
static void json_step_head(const cc_step_check *k)
{
    printf("\"name\": ");
    cc_json_string(stdout, k->step->name);
    printf(", \"equations\": ");
    cc_json_string(stdout, k->step->equations);
    printf(", \"verdict\": ");
    cc_json_string(stdout, cc_step_verdict_name(k->verdict));
}

static void print_json(const cc_derive *d, int sample)
{
    printf("{\"condition\": ");
    cc_json_string(stdout, d->condition);
    printf(", \"variant\": ");
    cc_json_string(stdout, d->variant);
    printf(", \"x\": [");
    for (int m = 0; m < d->nv; m++) {
        if (m) printf(", ");
        cc_json_array(stdout, d->x + 3 * m, 3);
    }
    printf("], \"sample\": %s, \"steps\": [", sample ? "true" : "false");
    for (int i = 0; i < d->nsteps; i++) {
        const cc_step_check *k = &d->steps[i];
        printf(i ? ",\n  {" : "\n  {");
        json_step_head(k);
        printf(", \"formula\": ");
        cc_json_string(stdout, k->step->formula);
        printf(", \"order\": %d, \"value\": ", k->step->order);
        cc_json_array(stdout, k->value, k->step->n);
        printf(", \"derivative_error_exact\": ");
        cc_json_number(stdout, k->err_exact);
        printf(", \"derivative_error_frozen\": ");
        cc_json_number(stdout, k->err_frozen);
        printf(", \"reference\": ");
        cc_json_string(stdout, k->reference);
        printf("}");
    }
    static const char *const keys[] = {"first_departure", "first_frozen", "first_differs"};
    const int at[] = {d->first_departure, d->first_frozen, d->first_differs};
    for (int j = 0; j < 3; j++) {
        printf("%s\"%s\": ", j ? ",\n " : "],\n ", keys[j]);
        if (at[j] < 0) printf("null");
        else {
            const cc_step_check *k = &d->steps[at[j]];
            printf("{");
            json_step_head(k);
            printf(", \"step\": %d, \"explanation\": ", at[j] + 1);
            cc_json_string(stdout, k->step->note);
            printf("}");
        }
    }
    printf("}\n");
}

int cc_cmd_derive(int argc, char **argv)
{
    static const cc_optspec specs[] = {
        {"variant", 1}, {"area-power", 1}, {"bu", 1}, {"bv", 1}, {"rest", 1}, {"x-rest", 1}, {"x", 1},
        {"uv", 1}, {"json", 0}, {"step", 0}, {"help", 0}, {NULL, 0}};
    cc_optparser p = {argc, argv, 1, specs, "derive"};
    const char *cname = NULL, *variant = NULL;
    cc_element_opts el = cc_element_defaults();
    int json = 0, step = 0, r, k;
    cc_opt o;
    while ((r = cc_opt_next(&p, &o)) > 0) {
        if ((k = cc_element_option("derive", &o, &el)) < 0) return CC_EXIT_USAGE;
        if (k > 0) continue;
        if (!o.name) {
            if (cname) return cc_cli_error("derive", "unexpected argument '%s'", o.value);
            cname = o.value;
        } else if (!strcmp(o.name, "help")) {
            derive_usage(stdout);
            return CC_EXIT_OK;
        } else if (!strcmp(o.name, "json")) json = 1;
        else if (!strcmp(o.name, "step")) step = 1;
        else if (!strcmp(o.name, "variant")) variant = o.value;
    }
    if (r < 0) return CC_EXIT_USAGE;
    if (!cname) return cc_cli_error("derive", "no condition given (see clothcheck derive --help)");
    const char *slash = strchr(cname, '/');
    if (!cc_condition_known(cname) && slash && slash[1])
        return cc_cli_error("derive", "unknown condition '%s': give the variant apart, clothcheck derive %.*s --variant %s",
                            cname, (int)(slash - cname), cname, slash + 1);
    if (!cc_condition_known(cname))
        return cc_cli_error("derive", "unknown condition '%s' (stretch, shear, bend, spring)", cname);
    const cc_condition *c = cc_condition_find(cname, variant);
    if (!c) return cc_cli_error("derive", "unknown variant '%s' of %s (see clothcheck eval --help)", variant, cname);
    const cc_derivation *dv = c->derivation;
    if (!dv) return cc_cli_error("derive", "%s/%s has no derivation", c->condition, c->variant);
    int sample = el.x == NULL;
    if (sample) {
        el.x = dv->sample;
        if (!el.uv && c->nv == 3) el.uv = dv->sample_uv;
        if (c->nv == 2 && !el.have_rest && !el.uv) el.rest = 1.0, el.have_rest = 1;
        if (c->rest_shape && !el.x_rest && !el.have_rest) el.x_rest = CC_SAMPLE_HINGE_REST;
    }
    double x[CC_MAX_DOF];
    cc_rest rest;
    static cc_eval ev;
    int rc = cc_element_build("derive", c, &el, x, &rest, &ev);
    if (rc) return rc;
    static cc_derive d;
    if (cc_derive_run(c->condition, c->variant, c->nv, dv->steps, dv->nsteps, x, &rest, &d) < 0)
        return cc_cli_error("derive", "%s/%s: too many steps", c->condition, c->variant);
    int bad = cc_derive_nonfinite(&d);
    if (bad >= 0)
        return cc_cli_error("derive", "%s/%s: step '%s' is not a finite number at these positions (an overflow or "
                            "underflow: scale the coordinates)", c->condition, c->variant, d.steps[bad].step->name);
    if (json) print_json(&d, sample);
    else print_text(&d, &rest, c->rest_shape, sample, step && isatty(STDIN_FILENO));
    return CC_EXIT_OK;
}
