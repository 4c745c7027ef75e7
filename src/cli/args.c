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
    va_list ap;
    fprintf(stderr, "clothcheck %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CC_EXIT_USAGE;
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
        for (char *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
            double v;
            if (cc_parse_double(tok, &v) < 0)
                return snprintf(err, CC_ERRLEN, "point %d: '%s' is not a finite number", groups, tok), -1;
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
