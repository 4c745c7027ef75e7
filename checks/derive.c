/* The derivation stepper (see derive.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "checks/audit.h"
#include "checks/derive.h"
#include "checks/fd.h"

const char *cc_step_verdict_name(cc_step_verdict v)
{
    static const char *const names[] = {"exact", "frozen", "differs", "undefined"};
    return v >= CC_STEP_EXACT && v <= CC_STEP_UNDEFINED ? names[v] : "?";
}

/* entries of a step's derivative: n * ndof (order 1) or n * ndof * ndof (order 2) */
static int deriv_size(const cc_step *s, int nv)
{
    int ndof = 3 * nv;
    return s->n * ndof * (s->order == 2 ? ndof : 1);
}

/* d = the exact derivative of the step's value_hd at x (magnitudes frozen at xf if given) */
static void exact_ref(const cc_step *s, int nv, const double *x, const double *xf, const cc_rest *r,
                      double *d)
{
    int ndof = 3 * nv;
    cc_hd hx[CC_MAX_DOF], q[CC_STEP_MAXQ];
    for (int i = 0; i < ndof; i++)
        for (int j = i; j < (s->order == 2 ? ndof : i + 1); j++) {
            for (int p = 0; p < ndof; p++) hx[p] = cc_hd_const(x[p]);
            hx[i].b = 1.0;
            if (s->order == 2) hx[j].c = 1.0;
            s->value_hd(s, hx, xf, r, q);
            for (int c = 0; c < s->n; c++) {
                if (s->order == 1) d[c * ndof + i] = q[c].b;
                else d[(c * ndof + i) * ndof + j] = d[(c * ndof + j) * ndof + i] = q[c].d;
            }
        }
}

/* One component of a step as an audit target, so the engine's finite differences apply. */
typedef struct component {
    const cc_step *s;   /* the step */
    int c;              /* its component */
} component;

/* C = q_c at x through the step's plain value */
static int component_value(void *ctx, const double *x, const double *xf, const cc_rest *r, double *C)
{
    const component *k = ctx;
    double q[CC_STEP_MAXQ];
    if (xf || k->s->value(k->s, x, r, q) < 0) return -1;
    C[0] = q[k->c];
    return isnan(C[0]) ? -1 : 0;
}

/* d = central4 finite differences of the step's plain value; 0 or -1 */
static int fd_ref(const cc_step *s, int nv, const double *x, const cc_rest *r, double *d)
{
    int ndof = 3 * nv;
    component k = {s, 0};
    cc_target t = {.condition = "step", .variant = s->name, .nv = nv, .ncomp = 1, .ctx = &k,
                   .value = component_value};
    double h = CC_AUDIT_STEP_GRAD * cc_target_length_scale(&t, x);
    cc_deriv e;
    for (k.c = 0; k.c < s->n; k.c++) {
        cc_fdq q = s->order == 1 ? CC_FDQ_GRADIENT : CC_FDQ_HESS_VALUE;
        if (cc_fd_estimate(&t, x, NULL, r, q, CC_FD_CENTRAL4, h, &e) < 0) return -1;
        for (int i = 0; i < ndof; i++) {
            if (s->order == 1) d[k.c * ndof + i] = e.g[0][i];
            else memcpy(d + (k.c * ndof + i) * ndof, e.H[0][i], sizeof(double) * (size_t)ndof);
        }
    }
    return 0;
}

/* the normwise error of a against finite differences ref, relative to the larger of the arrays
 * and max|q| / ell^order (ell the element's length scale), so a derivative that is zero is
 * not judged by the differences' round-off alone */
static double fd_relative(const cc_step *s, int nv, const double *x, const double *q, const double *a,
                          const double *ref, int n)
{
    cc_target t = {.nv = nv, .ncomp = 1};
    double ell = cc_target_length_scale(&t, x), worst = 0, scale = 0, qmax = 0;
    for (int c = 0; c < s->n; c++) qmax = fmax(qmax, fabs(q[c]));
    for (int e = 0; e < n; e++) {
        worst = fmax(worst, fabs(a[e] - ref[e]));
        scale = fmax(scale, fmax(fabs(a[e]), fabs(ref[e])));
        if (isnan(a[e] - ref[e])) return NAN;
    }
    scale = fmax(scale, qmax / pow(ell, s->order));
    return scale > 0 ? worst / scale : 0.0;
}

/* one step at (x, r): value, errors, verdict */
static void check_step(const cc_step *s, int nv, const double *x, const cc_rest *r, cc_step_check *k)
{
    double a[CC_STEP_MAXD], ref[CC_STEP_MAXD];   /* 14 KB each: on the stack, so steps may nest */
    int n = deriv_size(s, nv), hd = s->value_hd != NULL;
    double tol = hd ? CC_AUDIT_TOL_EXACT : s->order == 1 ? CC_AUDIT_TOL_FD_GRAD : CC_AUDIT_TOL_FD_HESS;
    memset(k, 0, sizeof *k);
    k->step = s;
    k->err_exact = k->err_frozen = NAN;
    k->worst_exact = k->worst_frozen = (cc_diff){NAN, -1, -1, -1, 0, 0};
    k->reference = hd ? "hyper-dual" : "central4";
    k->verdict = CC_STEP_UNDEFINED;
    if (s->derive(s, x, r, k->value, a) < 0) return;
    if (hd) exact_ref(s, nv, x, NULL, r, ref);
    else if (fd_ref(s, nv, x, r, ref) < 0) return;
    k->worst_exact = cc_compare_flat(a, ref, n);
    k->err_exact = hd ? k->worst_exact.rel : fd_relative(s, nv, x, k->value, a, ref, n);
    if (hd) {
        exact_ref(s, nv, x, x, r, ref);
        k->worst_frozen = cc_compare_flat(a, ref, n);
        k->err_frozen = k->worst_frozen.rel;
    }
    if (isnan(k->err_exact)) return;
    k->verdict = k->err_exact <= tol ? CC_STEP_EXACT : k->err_frozen <= tol ? CC_STEP_FROZEN : CC_STEP_DIFFERS;
}

int cc_derive_run(const char *condition, const char *variant, int nv, const cc_step *const *steps,
                  int nsteps, const double *x, const cc_rest *r, cc_derive *d)
{
    if (nsteps > CC_DERIVE_MAX_STEPS) return -1;
    memset(d, 0, sizeof *d);
    d->condition = condition;
    d->variant = variant;
    d->nv = nv;
    memcpy(d->x, x, sizeof(double) * (size_t)(3 * nv));
    d->nsteps = nsteps;
    d->first_departure = d->first_frozen = d->first_differs = -1;
    for (int i = 0; i < nsteps; i++) {
        check_step(steps[i], nv, x, r, &d->steps[i]);
        cc_step_verdict v = d->steps[i].verdict;
        if (d->first_departure < 0 && v != CC_STEP_EXACT && v != CC_STEP_UNDEFINED) d->first_departure = i;
        if (d->first_frozen < 0 && v == CC_STEP_FROZEN) d->first_frozen = i;
        if (d->first_differs < 0 && v == CC_STEP_DIFFERS) d->first_differs = i;
    }
    return 0;
}

int cc_derive_nonfinite(const cc_derive *d)
{
    for (int i = 0; i < d->nsteps; i++) {
        const cc_step_check *k = &d->steps[i];
        int bad = !isfinite(k->err_exact) || (k->step->value_hd && !isfinite(k->err_frozen));
        for (int c = 0; c < k->step->n; c++) bad |= !isfinite(k->value[c]);
        if (bad) return i;
    }
    return -1;
}

/* "q1 x0.y" or "q1 x0.y x3.z" */
void cc_derive_where(const cc_step *s, int nv, int i, char *buf, int len)
{
    int ndof = 3 * nv;
    if (i < 0) {
        snprintf(buf, (size_t)len, "-");
        return;
    }
    int j = s->order == 2 ? i % ndof : -1, rest = s->order == 2 ? i / ndof : i;
    int c = rest / ndof, dof = rest % ndof;
    const char axis[] = "xyz";
    if (j < 0) snprintf(buf, (size_t)len, "q%d x%d.%c", c, dof / 3, axis[dof % 3]);
    else snprintf(buf, (size_t)len, "q%d x%d.%c x%d.%c", c, dof / 3, axis[dof % 3], j / 3, axis[j % 3]);
}
