/* The audit engine (see audit.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "checks/audit.h"

static const char *const ref_names[] = {"fd-true", "fd-frozen", "exact", "exact-frozen", "claim", "claim-exact"};
static const char *const quantity_names[] = {"gradient", "hessian", "hessian-vs-gradient",
                                             "symmetry", "translation", "rotation",
                                             "rigid-modes", "taylor", "value", "finite"};

const char *cc_ref_name(cc_ref r) { return r >= 0 && r < CC_REF_COUNT ? ref_names[r] : "?"; }
const char *cc_row_reference(const cc_audit_row *w) { return w->q == CC_Q_FINITE ? "target" : cc_ref_name(w->ref); }
const char *cc_quantity_name(cc_quantity q) { return q >= 0 && q < CC_Q_COUNT ? quantity_names[q] : "?"; }

/* the cc_ref named s, or -1 */
int cc_ref_parse(const char *s)
{
    for (int r = 0; r < CC_REF_COUNT; r++)
        if (!strcmp(s, ref_names[r])) return r;
    return -1;
}

/* the cc_quantity named s, or -1 */
int cc_quantity_parse(const char *s)
{
    for (int q = 0; q < CC_Q_COUNT; q++)
        if (!strcmp(s, quantity_names[q])) return q;
    return -1;
}

/* 1000 samples, seed 1, edge cases, every reference, 3 sweep and 16 Taylor elements */
cc_audit_opts cc_audit_defaults(void)
{
    cc_audit_opts o = {0};
    o.samples = 1000;
    o.seed = 1;
    o.edges = 1;
    o.refs = CC_REFS_ALL;
    o.sweep_cases = 3;
    o.taylor_cases = 16;
    o.quantities = CC_QS_ALL;
    return o;
}

double cc_audit_fd_step(double precision)
{
    double h = cbrt(precision > 0 ? precision : 0);
    return h < 1e-5 ? 1e-5 : h > 1e-3 ? 1e-3 : h;
}

/* the scheme and relative step of the rows' differences under o */
static void fd_plan(const cc_audit_opts *o, cc_scheme *s, double *h)
{
    *s = o->fd_central ? CC_FD_CENTRAL : CC_FD_CENTRAL4;
    *h = o->fd_central ? cc_audit_fd_step(o->precision) : CC_AUDIT_STEP_GRAD;
}

static int ref_frozen(cc_ref r) { return r == CC_REF_FD_FROZEN || r == CC_REF_EXACT_FROZEN; }
static int ref_exact(cc_ref r) { return r == CC_REF_EXACT || r == CC_REF_EXACT_FROZEN; }

/* 1 if the target claims its derivatives are those of the function reference r differentiates */
static int claims(const cc_target *t, cc_ref r)
{
    return (t->claim == CC_CLAIM_EXACT && !ref_frozen(r)) || (t->claim == CC_CLAIM_FROZEN && ref_frozen(r));
}

/* why reference r cannot be computed for t, or NULL if it can */
static const char *unavailable(const cc_target *t, cc_ref r)
{
    if (r == CC_REF_CLAIM) return cc_claim_given(&t->claims) ? NULL : "not applicable: no claim given";
    if (r == CC_REF_CLAIM_EXACT)
        return cc_claim_has_exact(&t->claims) ? NULL : "not applicable: the claimed variant's derivatives are exact";
    if (ref_exact(r) && !t->value_hd) return "unavailable: the target has no hyper-dual value code";
    if (ref_frozen(r) && !t->frozen) return "unavailable: the target's value cannot freeze magnitudes";
    return NULL;
}

/* 1 if t gives what the bits `want` name (CC_WANT_VALUE: its value) */
static int gives(const cc_target *t, int want) { return !t->provides || (t->provides & want) == want; }

/* the CC_WANT_* bits of the target a row (ref, q) needs at each element */
static int row_needs(cc_ref ref, cc_quantity q)
{
    int fd = ref == CC_REF_FD_TRUE || ref == CC_REF_FD_FROZEN;
    switch (q) {
    case CC_Q_VALUE: return CC_WANT_VALUE;
    case CC_Q_GRADIENT: return CC_WANT_GRAD | (fd ? CC_WANT_VALUE : 0);
    case CC_Q_HESSIAN: return CC_WANT_HESS | (fd ? CC_WANT_VALUE : 0);
    case CC_Q_HESS_GRADIENT: return CC_WANT_GRAD | CC_WANT_HESS;
    case CC_Q_TRANSLATION:
    case CC_Q_ROTATION: return CC_WANT_GRAD | (fd ? CC_WANT_VALUE : 0);
    case CC_Q_TAYLOR: return CC_WANT_ALL;
    default: return CC_WANT_GRAD | CC_WANT_HESS | (fd ? CC_WANT_VALUE : 0);
    }
}

/* 1 if q is one of the structure checks (symmetry, translation, rotation, rigid modes) */
static int is_structure(cc_quantity q) { return q >= CC_Q_SYMMETRY && q < CC_Q_SYMMETRY + CC_CHECK_COUNT; }

/* why row (ref, q) does not apply to t: a reference it cannot have, or something the target
 * does not give; NULL if it applies */
static const char *not_applicable(const cc_target *t, cc_ref ref, cc_quantity q)
{
    const char *why = unavailable(t, ref);
    if (why) return why;
    if (ref == CC_REF_CLAIM && q == CC_Q_VALUE && t->claims.bridson_force)
        return "not applicable: Bridson's force model has no energy to compare";
    int need = row_needs(ref, q);
    if (is_structure(q) && !gives(t, CC_WANT_VALUE)) need &= ~CC_WANT_VALUE;   /* checked without the baseline */
    if (!gives(t, need & CC_WANT_VALUE))
        return q == CC_Q_VALUE ? "not applicable: the target gives no value" : "not applicable: the target gives no value (energy) to take differences of";
    if (!gives(t, need & CC_WANT_HESS)) return "not applicable: the target gives no Hessian (Jacobian)";
    if (!gives(t, need & CC_WANT_GRAD)) return "not applicable: the target gives no gradient (force)";
    return NULL;
}

/* a new row (ref, q) with tolerance tol; gating only if available and claimed. A quantity the
 * options leave out gets a row that is never filled in: the caller's pointer stays valid, and
 * the row is dropped after planning (drop_unwanted). */
static cc_audit_row *add_row(cc_audit *a, cc_ref ref, cc_quantity q, double tol, int gates)
{
    cc_audit_row *w = &a->rows[a->nrows++];
    const char *why = not_applicable(&a->target, ref, q);
    /* second differences of values of limited precision, and the Taylor test's, keep too few of
     * their digits; first differences keep enough for a gradient (CC_AUDIT_TOL_LIMITED_FD), and
     * the structure rows check the target's own derivatives */
    int second = (ref == CC_REF_FD_TRUE || ref == CC_REF_FD_FROZEN) && q == CC_Q_HESSIAN;
    if (!why && cc_audit_limited(&a->opts) && (second || q == CC_Q_TAYLOR))
        why = "not applicable: second differences of values of limited precision keep too few digits";
    if (cc_audit_limited(&a->opts)) {
        int computed = ref == CC_REF_CLAIM || ref == CC_REF_CLAIM_EXACT || ref_exact(ref) || q >= CC_Q_SYMMETRY;
        tol = fmax(tol, (computed ? CC_AUDIT_TOL_LIMITED : CC_AUDIT_TOL_LIMITED_FD) * a->opts.precision);
    }
    memset(w, 0, sizeof *w);
    w->ref = ref;
    w->q = q;
    w->available = why == NULL;
    w->note = why ? why : "";
    w->scheme = "";
    w->worst = (cc_diff){0, -1, -1, -1, 0, 0};
    w->tol = tol;
    w->gates = gates && w->available && (a->target.claim != CC_CLAIM_NONE || ref == CC_REF_CLAIM);
    w->sweep = -1;
    if (q == CC_Q_GRADIENT || q == CC_Q_HESSIAN || q == CC_Q_HESS_GRADIENT) {
        int computed = ref_exact(ref) || ref == CC_REF_CLAIM || ref == CC_REF_CLAIM_EXACT;
        cc_scheme fs;
        double fh;
        fd_plan(&a->opts, &fs, &fh);
        w->scheme = ref == CC_REF_CLAIM ? "claim" : computed ? "hyper-dual" : q == CC_Q_HESSIAN ? "central4" : cc_scheme_name(fs);
        w->step = computed ? 0 : q == CC_Q_HESSIAN ? CC_AUDIT_STEP_HESS : fh;
    }
    return w;
}

/* the reference whose structure residuals say whether the claimed function is invariant */
static cc_ref structure_baseline(const cc_target *t)
{
    int fr = t->claim == CC_CLAIM_FROZEN && t->frozen;
    if (t->value_hd) return fr ? CC_REF_EXACT_FROZEN : CC_REF_EXACT;
    if (cc_claim_given(&t->claims)) return CC_REF_CLAIM;
    return fr ? CC_REF_FD_FROZEN : CC_REF_FD_TRUE;
}

/* the last row: the target's own numbers are finite */
static void plan_finite(cc_audit *a)
{
    const cc_target *t = &a->target;
    cc_audit_row *fin = add_row(a, CC_REF_FD_TRUE, CC_Q_FINITE, 0, 1);
    fin->available = 1, fin->note = "the target's value, gradient and Hessian are finite numbers";
    fin->gates = t->claim != CC_CLAIM_NONE || cc_claim_given(&t->claims);   /* as every row of what it claims */
}

/* the rows of a: per selected reference gradient and Hessian; structure and Taylor for all;
 * the target's numbers finite */
static void plan_rows(cc_audit *a)
{
    const cc_target *t = &a->target;
    if (cc_claim_given(&t->claims)) {
        double tol = a->opts.claim_tol > 0 ? a->opts.claim_tol : CC_AUDIT_TOL_EXACT;
        cc_audit_row *v = add_row(a, CC_REF_CLAIM, CC_Q_VALUE, tol, 1);
        if (v->available) v->note = "the value against the claim's";
        add_row(a, CC_REF_CLAIM, CC_Q_GRADIENT, tol, 1);
        add_row(a, CC_REF_CLAIM, CC_Q_HESSIAN, tol, 1);
    }
    if (cc_claim_has_exact(&t->claims)) {   /* reported only: what the exact derivatives would give */
        double tol = a->opts.claim_tol > 0 ? a->opts.claim_tol : CC_AUDIT_TOL_EXACT;
        add_row(a, CC_REF_CLAIM_EXACT, CC_Q_GRADIENT, tol, 0);
        add_row(a, CC_REF_CLAIM_EXACT, CC_Q_HESSIAN, tol, 0);
    }
    for (int r = 0; r < CC_REF_CLAIM; r++) {
        if (!(a->opts.refs & (1u << r))) continue;
        int g = claims(t, (cc_ref)r);
        double tg = ref_exact(r) ? CC_AUDIT_TOL_EXACT : CC_AUDIT_TOL_FD_GRAD;
        double th = ref_exact(r) ? CC_AUDIT_TOL_EXACT : CC_AUDIT_TOL_FD_HESS;
        add_row(a, (cc_ref)r, CC_Q_GRADIENT, tg, g);
        if (!(a->opts.no_fd_hessian && !ref_exact(r))) add_row(a, (cc_ref)r, CC_Q_HESSIAN, th, g);
        if (r == CC_REF_FD_TRUE)
            add_row(a, (cc_ref)r, CC_Q_HESS_GRADIENT, CC_AUDIT_TOL_FD_GRAD, t->claim == CC_CLAIM_EXACT)->note =
                "the Hessian against central4 differences of the analytic gradient";
    }
    unsigned claim_refs = (1u << CC_REF_CLAIM) | (1u << CC_REF_CLAIM_EXACT);
    if ((a->opts.refs | claim_refs) != CC_REFS_ALL && !a->opts.all_checks) {
        plan_finite(a);
        return;
    }
    cc_ref base = structure_baseline(t);
    for (int c = 0; c < CC_CHECK_COUNT; c++) {
        cc_audit_row *w = add_row(a, base, (cc_quantity)(CC_Q_SYMMETRY + c), CC_AUDIT_TOL_STRUCTURE, 1);
        if (w->q == CC_Q_SYMMETRY && w->available && !gives(t, CC_WANT_VALUE) && !cc_claim_given(&t->claims))
            w->gates = 0, w->note = "reported, not gated: a force with no energy need not have a symmetric Jacobian";
    }
    add_row(a, CC_REF_FD_TRUE, CC_Q_TAYLOR, 0, t->claim == CC_CLAIM_EXACT);
    if (t->frozen) add_row(a, CC_REF_FD_FROZEN, CC_Q_TAYLOR, 0, t->claim == CC_CLAIM_FROZEN);
    plan_finite(a);
}

/* keep only the rows of the quantities the options ask for */
static void drop_unwanted(cc_audit *a)
{
    int k = 0;
    for (int i = 0; i < a->nrows; i++)
        if (a->rows[i].q == CC_Q_FINITE || (a->opts.quantities & (1u << a->rows[i].q))) a->rows[k++] = a->rows[i];
    a->nrows = k;
}

/* the elements of the batch: random ids 0..samples-1, then the edge cases; or the one case */
static int build_cases(const cc_audit *a, cc_case **out)
{
    const cc_audit_opts *o = &a->opts;
    int nv = a->target.nv, ne = o->edges ? cc_edge_count(nv) : 0;
    int cap = o->only_case ? 1 : o->samples + ne, n = 0;
    cc_case *c = malloc(sizeof *c * (size_t)(cap > 0 ? cap : 1));
    if (!c) return -1;
    if (o->only_case) {
        if (cc_case_make(nv, o->seed, o->case_id, &o->sample, &c[n]) == 0) n++;
    } else {
        for (int i = 0; i < o->samples; i++)
            if (cc_case_make(nv, o->seed, i, &o->sample, &c[n]) == 0) n++;
        for (int j = 0; j < ne; j++)
            if (cc_case_make(nv, o->seed, -j - 1, &o->sample, &c[n]) == 0) n++;
    }
    *out = c;
    return n;
}

/* An element's energy, the target's and the claim's, with its natural size (cc_value_floor). */
typedef struct energy_pair {
    double a, r, floor;
    int id;
} energy_pair;

/* References at one element, each part computed once, when first needed. */
typedef struct refs_at {
    cc_deriv d[CC_REF_COUNT];   /* gradient and Hessian per reference */
    int gstate[CC_REF_COUNT];   /* gradient: 0 not computed, 1 computed, -1 undefined */
    int hstate[CC_REF_COUNT];   /* Hessian: as gstate */
    double claimC[CC_MAX_COMP]; /* the claim's value (reference claim) */
    int claim_bits;             /* CC_CLAIM_HAS_* of it */
    cc_deriv hg;                /* Hessian from differences of the analytic gradient */
    int hg_state;               /* as gstate */
    double ell;                 /* step scale of the element (cc_target_step_scale) */
    energy_pair *energies;      /* the value row of an energy: one pair per element, or NULL */
    int nenergies;
    int single;                 /* the target computes in floats: its positions are rounded too */
    cc_deriv dsingle;           /* the claim at the element's positions rounded to floats */
    double singleC[CC_MAX_COMP];
    int single_state;           /* 0 not computed, CC_CLAIM_HAS_* bits, or -1 undefined */
    int pending;                /* the target's outstanding questions before this element's */
    cc_scheme scheme;           /* the differences' scheme and relative step (fd_plan) */
    double step;
    double limited;             /* a differenced gradient's tolerance where the target's numbers
                                   are of limited precision (its second differences say nothing), else 0 */
    double precision;           /* their relative rounding (cc_audit_opts.precision) */
} refs_at;

/* the relative error, at most, of a gradient d from differences of values of relative rounding
 * ra->precision p at element c: the scheme's weights (central4 1.5 / h, central 1 / h) times
 * the rounding of a value, p max|C|, and of a position's coordinate, p max|x| times max|g|,
 * against max|g| (a float program rounds both; g the larger of the analytic gradient and d, so
 * that a gradient far too small does not excuse itself); 0 where the numbers are given in full */
static double rounding_error(const cc_target *t, const cc_case *c, const cc_eval *e, const cc_deriv *d,
                             const refs_at *ra)
{
    double xm = 0, cm = 0, gm = 0, h = ra->step * ra->ell;
    int n = 3 * t->nv;
    if (!(ra->precision > 0) || !(h > 0)) return 0;
    for (int i = 0; i < n; i++) xm = fmax(xm, fabs(c->x[i]));
    for (int k = 0; k < t->ncomp; k++) {
        cm = fmax(cm, fabs(e->C[k]));
        for (int i = 0; i < n; i++) gm = fmax(gm, fmax(fabs(e->dC[k][i]), fabs(d->g[k][i])));
    }
    double weight = ra->scheme == CC_FD_CENTRAL4 ? 1.5 : 1.0;
    return gm > 0 ? weight * ra->precision * (cm + gm * xm) / (h * gm) : 0;
}

/* d = reference r at element (x, rd) (central4 steps scaled by ell): its gradient, and with
 * hess its Hessian too (exact references give both at once); 0 or -1 */
static int compute_ref_with(const cc_target *t, const double *x, const cc_rest *rd, cc_ref r, double ell, int hess,
                            cc_scheme scheme, double step, cc_deriv *d)
{
    const double *xf = ref_frozen(r) ? x : NULL;
    if (unavailable(t, r)) return -1;
    if (r == CC_REF_CLAIM || r == CC_REF_CLAIM_EXACT) {
        double C[CC_MAX_COMP];
        int got = r == CC_REF_CLAIM ? cc_claim_eval(&t->claims, x, rd, C, d) : cc_claim_eval_exact(&t->claims, x, rd, C, d);
        return got < 0 ? -1 : 0;
    }
    if (ref_exact(r)) return cc_exact_derivs(t, x, xf, rd, 1, d);
    if (!hess) {
        memset(d->H, 0, sizeof d->H);   /* no Hessian: nothing to read a floor from */
        return cc_fd_estimate(t, x, xf, rd, CC_FDQ_GRADIENT, scheme, step * ell, d);
    }
    cc_deriv grad;
    if (cc_fd_estimate(t, x, xf, rd, CC_FDQ_GRADIENT, scheme, step * ell, &grad) < 0) return -1;
    if (cc_fd_estimate(t, x, xf, rd, CC_FDQ_HESS_VALUE, CC_FD_CENTRAL4, CC_AUDIT_STEP_HESS * ell, d) < 0) return -1;
    memcpy(d->g, grad.g, sizeof d->g);
    return 0;
}

/* compute_ref_with the audit's default differences, central4 at CC_AUDIT_STEP_GRAD */
static int compute_ref(const cc_target *t, const double *x, const cc_rest *rd, cc_ref r, double ell, int hess,
                       cc_deriv *d)
{
    return compute_ref_with(t, x, rd, r, ell, hess, CC_FD_CENTRAL4, CC_AUDIT_STEP_GRAD, d);
}

/* d = reference ref at (x, rd) as a row of quantity q uses it; e = the analytic derivatives */
int cc_audit_reference(const cc_target *t, const double *x, const cc_rest *rd, cc_ref ref, cc_quantity q,
                       const cc_eval *e, cc_deriv *d)
{
    double ell = cc_target_step_scale(t, x, e);
    if (q == CC_Q_HESS_GRADIENT)
        return cc_fd_estimate(t, x, NULL, rd, CC_FDQ_HESS_GRADIENT, CC_FD_CENTRAL4, CC_AUDIT_STEP_GRAD * ell, d);
    return compute_ref(t, x, rd, ref, ell, q != CC_Q_GRADIENT, d);
}

/* reference r at c (its Hessian too with hess), each part computed at most once per element;
 * NULL if undefined */
static const cc_deriv *get_ref(const cc_target *t, const cc_case *c, refs_at *ra, cc_ref r, int hess)
{
    if (r == CC_REF_CLAIM && !ra->gstate[r]) {   /* value and derivatives at once */
        ra->claim_bits = unavailable(t, r) ? -1 : cc_claim_eval(&t->claims, c->x, &c->r, ra->claimC, &ra->d[r]);
        ra->gstate[r] = ra->hstate[r] = ra->claim_bits < 0 ? -1 : 1;
    }
    if (hess && !ra->hstate[r]) {
        ra->hstate[r] = compute_ref_with(t, c->x, &c->r, r, ra->ell, 1, ra->scheme, ra->step, &ra->d[r]) < 0 ? -1 : 1;
        ra->gstate[r] = ra->hstate[r];
    } else if (!hess && !ra->gstate[r]) {
        ra->gstate[r] = compute_ref_with(t, c->x, &c->r, r, ra->ell, 0, ra->scheme, ra->step, &ra->d[r]) < 0 ? -1 : 1;
    }
    return (hess ? ra->hstate[r] : ra->gstate[r]) > 0 ? &ra->d[r] : NULL;
}

/* the claim at c's positions rounded to floats, once per element: what a program computing in
 * floats differentiates (where the claimed formula switches branches, as Macri's does at
 * |sin theta| = |cos theta|, the rounding may take the other); NULL if undefined */
static const cc_deriv *get_claim_single(const cc_target *t, const cc_case *c, refs_at *ra)
{
    if (!ra->single_state) {
        double xf[CC_MAX_DOF];
        for (int i = 0; i < 3 * t->nv; i++) xf[i] = (double)(float)c->x[i];
        ra->single_state = cc_claim_eval(&t->claims, xf, &c->r, ra->singleC, &ra->dsingle);
        if (!ra->single_state) ra->single_state = -1;
    }
    return ra->single_state > 0 ? &ra->dsingle : NULL;
}

/* central4 differences of the analytic gradient at c, once per element */
static const cc_deriv *get_hess_grad(const cc_target *t, const cc_case *c, refs_at *ra)
{
    if (!ra->hg_state) {
        double h = ra->step * ra->ell;
        ra->hg_state = cc_fd_estimate(t, c->x, NULL, &c->r, CC_FDQ_HESS_GRADIENT, ra->scheme, h, &ra->hg) < 0 ? -1 : 1;
    }
    return ra->hg_state > 0 ? &ra->hg : NULL;
}

/* fold one element's result into the row: NaN is the worst of all */
static void fold(cc_audit_row *w, cc_diff d, int id)
{
    int first = w->samples == 0;
    w->samples++;
    if (first || (isnan(d.rel) && !isnan(w->max_rel)) || d.rel > w->max_rel) {
        w->max_rel = d.rel;
        w->worst = d;
        w->worst_case = id;
    }
}

/* compare the analytic e with the row's reference at element c; baseline_bad counts elements
 * where the claimed function itself breaks a structure identity */
/* the analytic derivative of quantity q against reference d at element c */
/* 1 if reference r comes with its Hessian whichever part a row asks for (it is computed, not
 * differenced) */
static int ref_has_hessian(cc_ref r) { return ref_exact(r) || r == CC_REF_CLAIM || r == CC_REF_CLAIM_EXACT; }

/* the smaller of two floors, or the one there is */
static double lesser_floor(double a, double b) { return a > 0 && b > 0 ? fmin(a, b) : fmax(a, b); }

/* the analytic derivative of quantity q against reference d (of reference r) at element c: a
 * gradient measured against at least its natural size (cc_gradient_floor), from the analytic
 * Hessian and the reference's where it has one; a Hessian against the curvature its gradient
 * sets */
static cc_diff compare_ref(const cc_target *t, const cc_case *c, cc_eval *e, cc_quantity q, const cc_deriv *d, cc_ref r)
{
    int n = 3 * t->nv;
    if (q == CC_Q_GRADIENT) {
        double fa = cc_gradient_floor(e->d2C, t->ncomp, c->x, t->nv);
        double fr = ref_has_hessian(r) ? cc_gradient_floor((double (*)[CC_MAX_DOF][CC_MAX_DOF])d->H, t->ncomp, c->x, t->nv) : 0;
        return cc_compare_gradient_floor(e->dC, (double (*)[CC_MAX_DOF])d->g, t->ncomp, n, lesser_floor(fa, fr));
    }
    return cc_compare_hessian_floor(e->d2C, (double (*)[CC_MAX_DOF][CC_MAX_DOF])d->H, t->ncomp, n,
                                    cc_hessian_floor(e, c->x, t->nv));
}

/* 1 if row w's reference is a finite difference */
static int differenced(const cc_audit_row *w)
{
    return w->ref == CC_REF_FD_TRUE || w->ref == CC_REF_FD_FROZEN || w->q == CC_Q_HESS_GRADIENT;
}

/* 1 if the row's finite difference d at c settles: taken again at half the step, it moves by
 * less than a tenth of the error it shows (rel); 0 where it does not (a jump within the stencil,
 * as Bridson's force has at theta = +-pi), and then the element has no derivative to compare */
static int converges(const cc_target *t, const cc_case *c, cc_eval *e, const refs_at *ra, const cc_audit_row *w,
                     const cc_deriv *d, double rel)
{
    cc_deriv half;
    double ell = 0.5 * ra->ell;
    int got = w->q == CC_Q_HESS_GRADIENT
                  ? cc_fd_estimate(t, c->x, NULL, &c->r, CC_FDQ_HESS_GRADIENT, ra->scheme, ra->step * ell, &half)
                  : compute_ref_with(t, c->x, &c->r, w->ref, ell, w->q != CC_Q_GRADIENT, ra->scheme, ra->step, &half);
    if (got < 0) return 0;
    cc_eval as = *e;   /* the first estimate in the analytic's place (a gradient's floor stays the analytic's) */
    memcpy(as.dC, d->g, sizeof as.dC);
    if (w->q != CC_Q_GRADIENT) memcpy(as.d2C, d->H, sizeof as.d2C);
    return compare_ref(t, c, &as, w->q, &half, w->ref).rel <= 0.1 * rel;
}

/* 1 if the parts of reference d that quantity q compares are finite */
static int deriv_finite(const cc_deriv *d, const cc_target *t, cc_quantity q)
{
    int n = 3 * t->nv;
    for (int k = 0; k < t->ncomp; k++)
        for (int i = 0; i < n; i++) {
            if (q == CC_Q_GRADIENT && !isfinite(d->g[k][i])) return 0;
            for (int j = 0; q != CC_Q_GRADIENT && q != CC_Q_VALUE && j < n; j++)
                if (!isfinite(d->H[k][i][j])) return 0;
        }
    return 1;
}

static void audit_row_at(const cc_target *t, const cc_case *c, cc_eval *e, refs_at *ra,
                         cc_audit_row *w, int *baseline_bad)
{
    const cc_deriv *d = NULL;
    if (w->q == CC_Q_HESS_GRADIENT) d = get_hess_grad(t, c, ra);
    else if (!is_structure(w->q)) d = get_ref(t, c, ra, w->ref, w->q != CC_Q_GRADIENT);
    if ((!d && !is_structure(w->q)) || (w->q == CC_Q_VALUE && !(ra->claim_bits & CC_CLAIM_HAS_VALUE))) {
        w->undefined++;
        return;
    }
    if (d && !is_structure(w->q) && !deriv_finite(d, t, w->q)) {   /* a reference singular here (acos at a flat hinge) */
        w->undefined++, w->ref_nonfinite++;
        return;
    }
    switch (w->q) {
    case CC_Q_VALUE: {
        double floor = cc_value_floor(e->dC, e->d2C, t->ncomp, c->x, t->nv);
        if (ra->claim_bits & CC_CLAIM_HAS_DERIV)
            floor = lesser_floor(floor, cc_value_floor((double (*)[CC_MAX_DOF])ra->d[CC_REF_CLAIM].g,
                                                       (double (*)[CC_MAX_DOF][CC_MAX_DOF])ra->d[CC_REF_CLAIM].H,
                                                       t->ncomp, c->x, t->nv));
        const double *claimC = ra->claimC;
        cc_diff v = cc_compare_flat_floor(e->C, claimC, t->ncomp, floor);
        if (v.rel > w->tol && ra->single && get_claim_single(t, c, ra) && (ra->single_state & CC_CLAIM_HAS_VALUE)) {
            cc_diff vs = cc_compare_flat_floor(e->C, ra->singleC, t->ncomp, floor);
            if (vs.rel < v.rel) v = vs, claimC = ra->singleC;
        }
        if (ra->energies) {   /* compared once the batch's offset is known (fold_energies) */
            energy_pair *p = &ra->energies[ra->nenergies++];
            p->a = e->C[0], p->r = claimC[0], p->floor = floor, p->id = c->id;
            break;
        }
        v.k = v.i, v.i = -1;   /* the component */
        fold(w, v, c->id);
        break;
    }
    case CC_Q_GRADIENT:
    case CC_Q_HESSIAN:
    case CC_Q_HESS_GRADIENT: {
        cc_diff v = compare_ref(t, c, e, w->q, d, w->q == CC_Q_HESS_GRADIENT ? CC_REF_FD_TRUE : w->ref);
        const cc_deriv *ds;
        if (v.rel > w->tol && w->ref == CC_REF_CLAIM && ra->single && (ds = get_claim_single(t, c, ra)) != NULL) {
            cc_diff vs = compare_ref(t, c, e, w->q, ds, w->ref);
            if (vs.rel < v.rel) v = vs;
        }
        if (v.rel > w->tol && w->q == CC_Q_GRADIENT && differenced(w) && v.rel <= rounding_error(t, c, e, d, ra)) {
            w->rounded++;   /* its differences are no better than this here */
            return;
        }
        /* (not while this element's numbers are stand-ins: their differences say nothing) */
        if (v.rel > w->tol && differenced(w) && cc_target_pending(t) == ra->pending &&
            !converges(t, c, e, ra, w, d, v.rel)) {
            w->rough++;   /* the function is not smooth within the step: no derivative to compare */
            return;
        }
        fold(w, v, c->id);
        break;
    }
    default: {
        cc_structure_check k = (cc_structure_check)(w->q - CC_Q_SYMMETRY);
        cc_diff v = cc_structure(k, c->x, t->nv, t->ncomp, e->dC, e->d2C);
        /* where the target breaks the identity, the claimed function's own residual there: an
         * identity that function breaks too is not gated. Only there: the baseline of a
         * differenced reference costs the target O(n^2) evaluations an element. Of numbers of
         * limited precision the Hessian would come from second differences: the function's own
         * residual is then its gradient's, the rigid modes' that of translation and rotation
         * (which they follow from), and a smooth function's Hessian is symmetric (gated). */
        int hess = k == CC_CHECK_SYMMETRY || k == CC_CHECK_RIGID, fd = differenced(w);
        int limited = fd && ra->limited > 0;
        if (!(v.rel <= w->tol) && !(limited && k == CC_CHECK_SYMMETRY) &&
            (d = get_ref(t, c, ra, w->ref, hess && !limited))) {
            double (*g)[CC_MAX_DOF] = (double (*)[CC_MAX_DOF])d->g;
            double (*H)[CC_MAX_DOF][CC_MAX_DOF] = (double (*)[CC_MAX_DOF][CC_MAX_DOF])d->H;
            double base = cc_structure(k, c->x, t->nv, t->ncomp, g, H).rel;
            if (limited && k == CC_CHECK_RIGID)
                base = fmax(cc_structure(CC_CHECK_TRANSLATION, c->x, t->nv, t->ncomp, g, H).rel,
                            cc_structure(CC_CHECK_ROTATION, c->x, t->nv, t->ncomp, g, H).rel);
            double base_tol = ref_exact(w->ref) ? CC_AUDIT_TOL_STRUCTURE : limited ? ra->limited : CC_AUDIT_TOL_FD_HESS;
            if (!(base <= base_tol)) (*baseline_bad)++;
        }
        fold(w, v, c->id);
    }
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* row w of the energies p[0..n): the target's less the median of their excess over the claim's,
 * if that excess is the same at every element (a constant added to the energy), against the
 * claim's */
static void fold_energies(cc_audit_row *w, const energy_pair *p, int n)
{
    double *ex = malloc(sizeof *ex * (size_t)(n > 0 ? n : 1)), c = 0;
    int finite = 1;
    for (int i = 0; i < n; i++) finite &= isfinite(p[i].a - p[i].r);
    if (ex && n > 0 && finite) {
        for (int i = 0; i < n; i++) ex[i] = p[i].a - p[i].r;
        qsort(ex, (size_t)n, sizeof *ex, by_value);
        c = ex[n / 2];
        for (int i = 0; i < n && c != 0; i++)   /* the same constant everywhere, or none */
            if (!(fabs(p[i].a - c - p[i].r) <= w->tol * fmax(fmax(fabs(p[i].a - c), fabs(p[i].r)), p[i].floor))) c = 0;
    }
    free(ex);
    w->offset = c;
    for (int i = 0; i < n; i++) {
        double a = p[i].a - c;
        cc_diff v = cc_compare_flat_floor(&a, &p[i].r, 1, p[i].floor);
        v.k = 0, v.i = -1, v.analytic = p[i].a;
        fold(w, v, p[i].id);
    }
}

/* the CC_WANT_* bits of e's parts `got` that are not finite, the first such entry into d (k, i, j
 * as the rows name entries; analytic its value) */
static int nonfinite_parts(const cc_target *t, const cc_eval *e, int got, cc_diff *d)
{
    int n = 3 * t->nv, bad = 0;
    *d = (cc_diff){NAN, -1, -1, -1, 0, 0};
    for (int k = 0; k < t->ncomp; k++) {
        if ((got & CC_WANT_VALUE) && !isfinite(e->C[k])) {
            if (!bad) d->k = k, d->analytic = e->C[k];
            bad |= CC_WANT_VALUE;
        }
        for (int i = 0; i < n; i++) {
            if ((got & CC_WANT_GRAD) && !isfinite(e->dC[k][i])) {
                if (!bad) d->k = k, d->i = i, d->analytic = e->dC[k][i];
                bad |= CC_WANT_GRAD;
            }
            for (int j = 0; (got & CC_WANT_HESS) && j < n; j++)
                if (!isfinite(e->d2C[k][i][j])) {
                    if (!bad) d->k = k, d->i = i, d->j = j, d->analytic = e->d2C[k][i][j];
                    bad |= CC_WANT_HESS;
                }
        }
    }
    return bad;
}

/* the finite row w at one element: its first non-finite entry, if any; the CC_WANT_* bits of the
 * parts that are not finite */
static int check_finite(cc_audit_row *w, const cc_target *t, const cc_eval *e, int got, int id)
{
    cc_diff d;
    int bad = got >= 0 ? nonfinite_parts(t, e, got, &d) : 0;
    if (!bad) d = (cc_diff){0, -1, -1, -1, 0, 0};
    int first = w->samples == 0 || (bad && !isnan(w->max_rel));
    w->samples++;
    if (bad) w->undefined++;   /* here: the elements where it is not finite */
    if (first) w->max_rel = d.rel, w->worst = d, w->worst_case = id;
    return bad;
}

/* every comparison row over the n elements, then pass = max_rel <= tol */
static void run_batch(cc_audit *a, const cc_case *cases, int n)
{
    const cc_target *t = &a->target;
    refs_at *ra = calloc(1, sizeof *ra);   /* per audit (18 kB): audits may run side by side */
    cc_eval e;
    cc_audit_row *energy_row = NULL;
    for (int i = 0; i < a->nrows; i++)
        if (a->rows[i].q == CC_Q_VALUE && a->rows[i].available && t->claims.as_energy) energy_row = &a->rows[i];
    if (ra && energy_row && !(ra->energies = malloc(sizeof *ra->energies * (size_t)n))) free(ra), ra = NULL;
    if (ra) ra->single = a->opts.precision >= CC_AUDIT_PREC_SINGLE;
    if (ra) fd_plan(&a->opts, &ra->scheme, &ra->step);
    if (ra && cc_audit_limited(&a->opts))
        ra->limited = CC_AUDIT_TOL_LIMITED_FD * a->opts.precision, ra->precision = a->opts.precision;
    if (!ra) {
        for (int i = 0; i < a->nrows; i++) a->rows[i].undefined = n;
        return;
    }
    int bad[CC_AUDIT_MAX_ROWS] = {0};
    for (int c = 0; c < n; c++) {
        ra->pending = cc_target_pending(t);
        int got = t->eval(t->ctx, cases[c].x, &cases[c].r, CC_WANT_ALL, &e);
        int both = CC_WANT_GRAD | CC_WANT_HESS;
        if (got >= 0 && !(got & CC_WANT_GRAD)) memset(e.dC, 0, sizeof e.dC);   /* not given: no floor from it */
        if (got >= 0 && !(got & CC_WANT_HESS)) memset(e.d2C, 0, sizeof e.d2C);
        int fd_here = a->opts.fd_cases <= 0 || c < a->opts.fd_cases || (cases[c].id < 0 && !a->opts.fd_no_edges);
        memset(ra->gstate, 0, sizeof ra->gstate);
        memset(ra->hstate, 0, sizeof ra->hstate);
        ra->hg_state = 0, ra->single_state = 0;
        int nonfinite = 0;   /* the parts that are not finite here: the finite row says so, the rows that need them skip it */
        for (int i = 0; i < a->nrows; i++)
            if (a->rows[i].q == CC_Q_FINITE) nonfinite = check_finite(&a->rows[i], t, &e, got, cases[c].id);
        ra->ell = cc_target_step_scale(t, cases[c].x, got >= 0 && (got & both) == both && !nonfinite ? &e : NULL);
        for (int i = 0; i < a->nrows; i++) {
            cc_audit_row *w = &a->rows[i];
            if (!w->available || w->q == CC_Q_TAYLOR || w->q == CC_Q_FINITE) continue;
            if (nonfinite & (row_needs(w->ref, w->q) | row_needs(CC_REF_CLAIM, w->q))) {
                w->undefined++;
                continue;
            }
            if (!fd_here && (w->ref == CC_REF_FD_TRUE || w->ref == CC_REF_FD_FROZEN || w->q == CC_Q_HESS_GRADIENT)) continue;
            int need = row_needs(CC_REF_CLAIM, w->q);   /* what the analytic side needs */
            if (got < 0 || (got & need) != need) w->undefined++;
            else audit_row_at(t, &cases[c], &e, ra, w, &bad[i]);
        }
    }
    if (energy_row) fold_energies(energy_row, ra->energies, ra->nenergies);
    free(ra->energies);
    free(ra);
    for (int i = 0; i < a->nrows; i++) {
        cc_audit_row *w = &a->rows[i];
        if (w->q == CC_Q_TAYLOR) continue;
        if (w->q == CC_Q_FINITE) {
            w->pass = w->undefined == 0;
            continue;
        }
        w->pass = w->available && w->samples > 0 && w->max_rel <= w->tol;
        if (bad[i] > 0) {
            w->gates = 0;
            w->note = "the claimed function itself breaks this identity: reported, not gated";
        }
    }
}

/* the sweeps: every (quantity, scheme) on the claimed function, the gradient on the other */
static void run_sweeps(cc_audit *a, const cc_case *cases, int n)
{
    const cc_target *t = &a->target;
    int fr = t->claim == CC_CLAIM_FROZEN && t->frozen;
    for (int q = 0; q < CC_FDQ_COUNT; q++)
        for (int s = 0; s < CC_FD_NSCHEMES; s++)
            cc_sweep_run(t, cases, n, (cc_fdq)q, (cc_scheme)s, q == CC_FDQ_HESS_GRADIENT ? 0 : fr,
                         &a->sweeps[a->nsweeps++]);
    if (t->frozen) cc_sweep_run(t, cases, n, CC_FDQ_GRADIENT, CC_FD_CENTRAL4, !fr, &a->sweeps[a->nsweeps++]);
}

/* the sweep matching a row's finite-difference reference, or -1 */
static int match_sweep(const cc_audit *a, const cc_audit_row *w)
{
    if (ref_exact(w->ref) || w->q > CC_Q_HESS_GRADIENT) return -1;
    cc_fdq q = w->q == CC_Q_GRADIENT ? CC_FDQ_GRADIENT : w->q == CC_Q_HESSIAN ? CC_FDQ_HESS_VALUE : CC_FDQ_HESS_GRADIENT;
    cc_scheme s = CC_FD_CENTRAL4;
    for (int i = 0; i < a->nsweeps; i++) {
        const cc_sweep *sw = &a->sweeps[i];
        if (sw->q == q && sw->scheme == s && (q == CC_FDQ_HESS_GRADIENT || sw->frozen == ref_frozen(w->ref)))
            return i;
    }
    return -1;
}

/* the Taylor rows over the first n elements */
static void run_taylor(cc_audit *a, const cc_case *cases, int n)
{
    for (int i = 0; i < a->nrows; i++) {
        cc_audit_row *w = &a->rows[i];
        if (w->q != CC_Q_TAYLOR || !w->available) continue;
        cc_taylor_run(&a->target, cases, n, a->opts.seed, w->ref == CC_REF_FD_FROZEN, &w->taylor);
        w->pass = cc_taylor_pass(&w->taylor);
        w->samples = n;
        w->max_rel = NAN;
        w->worst_case = w->taylor.worst[1];
        w->scheme = "remainders";
        w->note = w->ref == CC_REF_FD_FROZEN ? "orders of the frozen-magnitude function's remainders"
                                             : "orders of C's Taylor remainders";
    }
}

/* a = rows, sweeps and Taylor orders of target t over the batch of o */
int cc_audit_rows(const cc_target *t, const cc_audit_opts *o, cc_audit *a)
{
    cc_case *cases = NULL;
    memset(a, 0, sizeof *a);
    a->target = *t;
    a->opts = *o;
    a->target.claims = o->claims;
    if (cc_claim_given(&o->claims) &&
        (cc_claim_nv(&o->claims) != t->nv || cc_claim_ncomp(&o->claims) != t->ncomp))
        return -1;
    int n = build_cases(a, &cases);
    if (n <= 0) {
        free(cases);
        return -1;
    }
    a->ncases = n;
    plan_rows(a);
    drop_unwanted(a);
    run_batch(a, cases, n);
    int nrand = o->only_case ? n : (n < o->samples ? n : o->samples);
    int ns = nrand < o->sweep_cases ? nrand : o->sweep_cases;
    if (ns > 0) run_sweeps(a, cases, ns);
    for (int i = 0; i < a->nrows; i++) a->rows[i].sweep = match_sweep(a, &a->rows[i]);
    int nt = nrand < o->taylor_cases ? nrand : o->taylor_cases;
    if (nt > 0) run_taylor(a, cases, nt);
    for (int i = 0; i < a->nrows; i++)
        if (a->rows[i].q == CC_Q_TAYLOR && a->rows[i].available && a->rows[i].samples == 0)
            a->rows[i].gates = 0, a->rows[i].note = "not run (no Taylor elements)";
    free(cases);
    return 0;
}

int cc_audit_limited(const cc_audit_opts *o) { return o->precision > CC_AUDIT_PREC_LIMITED; }

/* 1 if some gating row failed */
int cc_audit_failed(const cc_audit *a)
{
    for (int i = 0; i < a->nrows; i++)
        if (a->rows[i].gates && !a->rows[i].pass) return 1;
    return 0;
}

/* the row (ref, q) of a, or NULL */
const cc_audit_row *cc_audit_find(const cc_audit *a, cc_ref ref, cc_quantity q)
{
    for (int i = 0; i < a->nrows; i++)
        if (a->rows[i].ref == ref && a->rows[i].q == q) return &a->rows[i];
    return NULL;
}
