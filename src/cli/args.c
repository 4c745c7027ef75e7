/* Argument helpers shared by the subcommands. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli/cli.h"
#include "conditions/condition.h"

int cc_cli_error(const char *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* one line whatever the message quotes: control characters become spaces */
    for (char *c = msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = ' ';
    fprintf(stderr, "clothcheck %s: %s\n", cmd, msg);
    return CC_EXIT_USAGE;
}

int cc_int_option(const char *cmd, const char *name, const char *value, int lo, int hi, int *out)
{
    double d;
    if (cc_parse_double(value, &d) < 0 || d != floor(d) || d < lo || d > hi)
        return cc_cli_error(cmd, "--%s needs an integer in %d..%d (got '%s')", name, lo, hi, value), -1;
    *out = (int)d;
    return 0;
}

int cc_opt_next(cc_optparser *p, cc_opt *o)
{
    if (p->i >= p->argc) return 0;
    const char *a = p->argv[p->i++];
    if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
        o->name = NULL;
        o->value = a;
        return 1;
    }
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    for (const cc_optspec *s = p->specs; s->name; s++) {
        if (strlen(s->name) != len || strncmp(s->name, name, len) != 0) continue;
        o->name = s->name;
        o->value = NULL;
        if (!s->has_value) {
            if (eq) return cc_cli_error(p->cmd, "option --%s takes no value", s->name), -1;
            return 1;
        }
        if (eq) o->value = eq + 1;
        else if (p->i < p->argc) o->value = p->argv[p->i++];
        else return cc_cli_error(p->cmd, "option --%s needs a value", s->name), -1;
        return 1;
    }
    cc_cli_error(p->cmd, "unknown option '%.*s' (see --help)", (int)(len + 2), a);
    return -1;
}

int cc_parse_double(const char *s, double *v)
{
    char *end;
    while (isspace((unsigned char)*s)) s++;
    if (*s == '\0') return -1;
    errno = 0;
    double d = strtod(s, &end);
    while (isspace((unsigned char)*end)) end++;
    if (*end != '\0' || errno == ERANGE || !isfinite(d)) return -1;
    *v = d;
    return 0;
}

/* s with every byte outside printable ASCII shown as \xHH, cut to fit out (n bytes), so that
 * a message quoting user input stays one line */
static const char *printable(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 5 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f) out[k++] = (char)c;
        else k += (size_t)snprintf(out + k, n - k, "\\x%02X", c);
    }
    out[k] = '\0';
    return out;
}

int cc_parse_points(const char *s, int dim, double *out, int maxgroups, char *err)
{
    int groups = 0;
    const char *p = s;
    for (;;) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        char buf[512];
        if (len >= sizeof buf) return snprintf(err, CC_ERRLEN, "point %d is too long", groups), -1;
        memcpy(buf, p, len);
        buf[len] = '\0';
        int n = 0;
        char *save = NULL;
        for (char *tok = strtok_r(buf, " \t\r\n\v\f,", &save); tok; tok = strtok_r(NULL, " \t\r\n\v\f,", &save)) {
            double v;
            char shown[64];
            if (cc_parse_double(tok, &v) < 0)
                return snprintf(err, CC_ERRLEN, "point %d: '%s' is not a finite number", groups,
                                printable(tok, shown, sizeof shown)), -1;
            if (n < dim && groups < maxgroups) out[groups * dim + n] = v;
            n++;
        }
        if (n == 0 && !semi && groups > 0) break;   /* a trailing ';' */
        if (n != dim)
            return snprintf(err, CC_ERRLEN, "point %d has %d numbers, expected %d", groups, n, dim), -1;
        if (++groups > maxgroups)
            return snprintf(err, CC_ERRLEN, "more than %d points", maxgroups), -1;
        if (!semi) break;
        p = semi + 1;
    }
    return groups;
}

/* monotonic wall time in seconds */
double cc_cli_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ascending doubles, for qsort */
static int dbl_cmp(const void *p, const void *q)
{
    double a = *(const double *)p, b = *(const double *)q;
    return (a > b) - (a < b);
}

/* median of n values (sorts v) */
double cc_cli_median(double *v, int n)
{
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, dbl_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* area power 1, b_u = b_v = 1, no rest given */
cc_element_opts cc_element_defaults(void)
{
    return (cc_element_opts){.area_power = 1.0, .bu = 1.0, .bv = 1.0};
}

int cc_element_option(const char *cmd, const cc_opt *o, cc_element_opts *e)
{
    double *target = NULL;
    if (!o->name) return 0;
    if (!strcmp(o->name, "x")) e->x = o->value;
    else if (!strcmp(o->name, "uv")) e->uv = o->value;
    else if (!strcmp(o->name, "area-power")) target = &e->area_power;
    else if (!strcmp(o->name, "bu")) target = &e->bu;
    else if (!strcmp(o->name, "bv")) target = &e->bv;
    else if (!strcmp(o->name, "rest")) target = &e->rest, e->have_rest = 1;
    else if (!strcmp(o->name, "x-rest")) e->x_rest = o->value;
    else return 0;
    if (target && cc_parse_double(o->value, target) < 0)
        return cc_cli_error(cmd, "--%s: '%s' is not a finite number", o->name, o->value), -1;
    if (!e->triangle_only && (target == &e->area_power || target == &e->bu || target == &e->bv))
        e->triangle_only = o->name;
    return 1;
}

int cc_rest_hinge_option(const char *cmd, const char *value, double *x_rest, cc_rest *r)
{
    char err[CC_ERRLEN];
    int n = cc_parse_points(value, 3, x_rest, 4, err);
    if (n < 0) return cc_cli_error(cmd, "--x-rest: %s", err);
    if (n != 4) return cc_cli_error(cmd, "--x-rest: the rest hinge needs 4 vertices, got %d", n);
    if (cc_positions_in_range(x_rest, 4, err) < 0 || cc_rest_hinge_shape(r, x_rest, err) < 0)
        return cc_cli_error(cmd, "--x-rest: %s", err);
    return 0;
}

/* r = the rest hinge of e: --x-rest (theta0 = its angle), else the canonical hinge at --rest;
 * 0, or the exit status after printing one line */
static int hinge_rest(const char *cmd, const cc_condition *c, const cc_element_opts *e, cc_rest *r)
{
    char err[CC_ERRLEN];
    double xr[3 * (CC_MAX_NV + 1)];
    if (!e->x_rest) {
        if (c->rest_shape)
            return cc_cli_error(cmd, "%s/%s needs --x-rest \"x y z; ...\" (4 rest points): its weights come from the rest hinge",
                                c->condition, c->variant);
        if (cc_rest_hinge(r, e->rest, err) < 0) return cc_cli_error(cmd, "--rest: %s", err);
        return 0;
    }
    if (e->have_rest) return cc_cli_error(cmd, "give --rest (an angle) or --x-rest (the rest hinge), not both");
    return cc_rest_hinge_option(cmd, e->x_rest, xr, r);
}

int cc_element_build(const char *cmd, const cc_condition *c, const cc_element_opts *e, double *x,
                     cc_rest *r, cc_eval *ev)
{
    char err[CC_ERRLEN];
    double uv[2 * (CC_MAX_NV + 1)], xs[3 * (CC_MAX_NV + 1)];
    int nx = cc_parse_points(e->x, 3, xs, CC_MAX_NV + 1, err), ok;
    if (nx < 0) return cc_cli_error(cmd, "--x: %s", err);
    if (nx != c->nv) return cc_cli_error(cmd, "--x: %s needs %d vertices, got %d", c->condition, c->nv, nx);
    memcpy(x, xs, sizeof(double) * (size_t)(3 * c->nv));
    if (e->uv) {
        int nuv = cc_parse_points(e->uv, 2, uv, CC_MAX_NV + 1, err);
        if (nuv < 0) return cc_cli_error(cmd, "--uv: %s", err);
        if (nuv != c->nv) return cc_cli_error(cmd, "--uv: %s needs %d (u,v) points, got %d", c->condition, c->nv, nuv);
    }
    if (e->x_rest && c->nv != 4)
        return cc_cli_error(cmd, "--x-rest is the rest hinge of a bend condition; %s takes %s", c->condition,
                            c->nv == 3 ? "--uv" : "--rest or --uv");
    if (e->triangle_only && c->nv != 3)
        return cc_cli_error(cmd, "--%s applies to the triangle conditions (stretch, shear), not to %s", e->triangle_only,
                            c->condition);
    if (e->have_rest && c->nv == 3)
        return cc_cli_error(cmd, "--rest does not apply to %s: a triangle's rest shape is its --uv", c->condition);
    if (e->uv && c->nv == 4)
        return cc_cli_error(cmd, "--uv does not apply to bend: its rest shape is --rest (an angle) or --x-rest (a hinge)");
    if (e->uv && e->have_rest && c->nv == 2)
        return cc_cli_error(cmd, "give --rest (the rest length) or --uv (rest positions it is measured from), not both");
    if (c->nv == 3) {
        if (!e->uv) return cc_cli_error(cmd, "--uv is required for %s: 3 points \"u v\" separated by ';'", c->condition);
        ok = cc_rest_triangle(r, uv, e->area_power, e->bu, e->bv, err);
    } else if (c->nv == 4) {
        ok = hinge_rest(cmd, c, e, r);
        if (ok > 0) return ok;
    } else {
        double L = e->rest;
        if (!e->have_rest && !e->uv) return cc_cli_error(cmd, "spring needs --rest L (or --uv to take L from the rest positions)");
        if (!e->have_rest) L = sqrt((uv[2] - uv[0]) * (uv[2] - uv[0]) + (uv[3] - uv[1]) * (uv[3] - uv[1]));
        ok = cc_rest_spring(r, L, err);
    }
    if (ok < 0) return cc_cli_error(cmd, "%s", err);
    if (cc_positions_in_range(x, c->nv, err) < 0) return cc_cli_error(cmd, "--x: %s", err);
    memset(ev, 0, sizeof *ev);
    if (c->eval(x, r, CC_WANT_ALL, ev) < 0)
        return cc_cli_error(cmd, "%s/%s is undefined at these positions (a zero-length edge or zero-area triangle)",
                            c->condition, c->variant);
    if (!cc_eval_finite(ev, CC_WANT_ALL))
        return cc_cli_error(cmd, "%s/%s overflows at these positions (an entry is not a finite number)", c->condition,
                            c->variant);
    return 0;
}
