/* bend/macri — Macri's bend condition (Real-time cloth, GDC 2000) as described by Pritchard,
 * 001 Section 5.1 and (28)-(30), and by the 002 slides ("Bend Forces - Derivatives").
 * Reproduced faithfully, errors included, so the checks can show it wrong. Not fixed.
 *
 *   C = arccos(nA^ . nB^) - theta0        never negative before theta0 (001 after (30))
 *   if |sin theta| > |cos theta|:  dC = -(1/sin theta) dcos theta      (001 5.1, 002)
 *   else:                          dC =  (1/cos theta) dsin theta
 *   d2C = the derivative of whichever formula is in force:
 *     d2C_ij = dcos_i dsin_j / sin^2 - d2cos_ij / sin      (first formula)
 *     d2C_ij = -dsin_i dcos_j / cos^2 + d2sin_ij / cos     (second formula)
 *
 * with sin theta = (nA^ x nB^).e^ signed as in (29) (002 divides by (n1 x n2).e), cos theta
 * = nA^.nB^ (28), and dcos, dsin, d2cos, d2sin from the same constant-magnitude derivatives
 * as bend/pritchard, (40)-(51). The Hessian is not symmetric (dcos_i dsin_j is not dsin_i
 * dcos_j), the two gradient formulas do not agree at the switch |sin| = |cos|, and since the
 * value is |theta| but the gradient formulas differentiate the signed theta, the gradient has
 * the wrong sign wherever theta < 0. test_bend.c measures each of these.
 *
 * Departure: acos needs |nA^.nB^| <= 1, which round-off can break by an ulp on flat or
 * folded hinges; the real part is clamped to [-1, 1] before acos (value and value_hd). The
 * hyper-dual parts are left alone, so at |cos| = 1 the reference derivatives of arccos are
 * infinite or NaN — |theta| is not differentiable there, and the references say so.
 */
#include "conditions/derivation.h"
#include "conditions/hinge.h"
#include "conditions/variants.h"

/* the real part of c clamped to [-1, 1] */
static double clamp_unit(double c) { return c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c; }

/* gradient and Hessian by Macri's two formulas, switched on |sin| > |cos| */
static void macri_derivs(const cc_hinge *h, const cc_hinge_trig *t, int want_hess,
                         double g[CC_HINGE_DOF], double H[CC_HINGE_DOF][CC_HINGE_DOF])
{
    double c = h->c, s = h->s;
    int by_cos = fabs(s) > fabs(c);
    for (int i = 0; i < CC_HINGE_DOF; i++) g[i] = by_cos ? -t->dc[i] / s : t->ds[i] / c;
    if (!want_hess) return;
    for (int i = 0; i < CC_HINGE_DOF; i++)
        for (int j = 0; j < CC_HINGE_DOF; j++)
            H[i][j] = by_cos ? t->dc[i] * t->ds[j] / (s * s) - t->d2c[i][j] / s
                             : -t->ds[i] * t->dc[j] / (c * c) + t->d2s[i][j] / c;
}

/* C = arccos(nA^.nB^) - theta0; dC, d2C by Macri's switched formulas over (40)-(51) */
static int bend_macri_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_hinge h;
    cc_hinge_trig t;
    out->ncomp = 1;
    out->ndof = CC_HINGE_DOF;
    if (cc_hinge_make(x, &h) < 0) return -1;
    out->C[0] = acos(clamp_unit(h.c)) - r->rest_angle;
    if (!(want & (CC_WANT_GRAD | CC_WANT_HESS))) return want & CC_WANT_ALL;
    int hess = (want & CC_WANT_HESS) != 0;
    cc_hinge_trig_frozen(&h, hess, &t);   /* (46)-(51) over (40)-(45), in 3x3 blocks */
    macri_derivs(&h, &t, hess, out->dC[0], out->d2C[0]);
    return want & CC_WANT_ALL;
}

/* C = arccos(nA^ . nB^) - theta0 (real part clamped to [-1, 1]), magnitudes frozen at xf
 * when given */
static void bend_macri_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    cc_hd c, s;
    cc_hinge_trig_hd(x, xf, &c, &s);
    c.a = clamp_unit(c.a);
    C[0] = cc_hd_sub(cc_hd_acos(c), cc_hd_const(r->rest_angle));
}

/* The derivation, step by step: Pritchard's (25)-(51) with frozen magnitudes, then Macri's two
 * quotients and the switch between them (001 5.1, 002). */

/* q = arccos(cos theta) - theta0; d = -dcos/sin (arg 0) or dsin/cos (arg 1), over (40)-(51) */
static int quotient_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    cc_hinge h;
    cc_hinge_trig t;
    if (cc_hinge_make(x, &h) < 0) return -1;
    cc_hinge_trig_frozen(&h, 0, &t);
    q[0] = acos(clamp_unit(h.c)) - r->rest_angle;
    for (int i = 0; i < CC_HINGE_DOF; i++) d[i] = s->arg == 0 ? -t.dc[i] / h.s : t.ds[i] / h.c;
    return 0;
}

/* q = arccos(nA^ . nB^) - theta0 over hyper-duals */
static void quotient_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    (void)s;
    bend_macri_value_hd(x, xf, r, q);
}

static const cc_step quotient_cos = {
    "C by -dcos/sin", "001 5.1, (28); 002",
    "C = arccos(cos theta) - theta0;  dC/dx_m = -(1/sin theta) dcos theta/dx_m",
    "Differentiating cos theta = cos C gives -sin C dC = dcos, so dC = -dcos/sin C with "
    "sin C = |sin theta| >= 0 (C = arccos is never negative). Macri divides by the signed sin "
    "theta of (29) instead, which flips the sign of the gradient wherever theta < 0; and dcos is "
    "the frozen-magnitude one of (40)-(47).",
    1, 1, 0, NULL, quotient_value_hd, NULL, quotient_derive};
static const cc_step quotient_sin = {
    "C by dsin/cos", "001 5.1, (29); 002",
    "C = arccos(cos theta) - theta0;  dC/dx_m = (1/cos theta) dsin theta/dx_m",
    "Differentiating sin theta = sin C gives cos C dC = dsin, so dC = dsin/cos: right for "
    "theta >= 0 if dsin were exact. With the frozen-magnitude dsin of (48)-(49) the dropped "
    "d ln|e| term is divided by cos theta, and for theta < 0 the sign is wrong again.",
    1, 1, 1, NULL, quotient_value_hd, NULL, quotient_derive};
static const cc_step switched = {
    "dC (switched)", "001 5.1; 002",
    "dC/dx_m = -(1/sin theta) dcos/dx_m if |sin theta| > |cos theta|, else (1/cos theta) dsin/dx_m",
    "Macri uses the first quotient where |sin theta| > |cos theta| to avoid dividing by a small "
    "number. The two quotients differ, so the gradient jumps where |sin| = |cos|.",
    1, 1, 0, &cc_bend_macri, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step switched2 = {
    "d2C (switched)", "001 5.1; 002",
    "d2C = dcos_i dsin_j / sin^2 - d2cos_ij / sin  or  -dsin_i dcos_j / cos^2 + d2sin_ij / cos",
    "The derivative of the quotient in force, taken as if sin theta and cos theta were "
    "independent: not symmetric (dcos_i dsin_j is not dsin_i dcos_j).",
    2, 1, 0, &cc_bend_macri, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step *const steps[] = {
    CC_STEPS_HINGE_VECTORS, CC_STEPS_HINGE_FROZEN, &quotient_cos, &quotient_sin, &switched, &switched2};
static const cc_derivation derivation = {
    sizeof steps / sizeof steps[0], steps, CC_SAMPLE_HINGE, NULL};

const cc_condition cc_bend_macri = {
    .condition = "bend",
    .variant = "macri",
    .source = "Pritchard 5.1, (28)-(29), (40)-(51); 002 slides",
    .summary = "C = arccos(nA^.nB^) - theta0, Macri's switched gradient (reproduced, wrong)",
    .nv = 4,
    .ncomp = 1,
    .claim = CC_CLAIM_NONE,
    .eval = bend_macri_eval,
    .value_hd = bend_macri_value_hd,
    .derivation = &derivation,
};
