/* bend/pritchard — Baraff & Witkin's bend condition as written out by Pritchard,
 * 001 (24)-(57), with the constant-magnitude approximation (40)-(45).
 *
 *   C = theta - theta0,  theta = atan2((nA^ x nB^).e^, nA^.nB^)          (24)-(30)
 *   dnA^/dx = dnA/dx / |nA|, ..., d2e^ = 0                               (40)-(45)
 *   dcos, dsin, d2cos, d2sin by the product rule                         (46)-(51)
 *   dC = cos dsin - sin dcos                                             (54)
 *   d2C = cos d2sin - sin d2cos + (sin^2 - cos^2)(...) + 2 sin cos (...) (57)
 *
 * theta0 = rest_angle (0 for Baraff & Witkin, who have no rest angle).
 *
 * (46)-(51) with (40)-(45) substituted are evaluated in 3x3 blocks (cc_hinge_trig_frozen in
 * hinge.h), the same numbers as reading them entry by entry (test_bend.c: 3.7e-16) at a
 * quarter of the cost.
 *
 * Where this departs from the printed text:
 *  - (44) is misprinted in 001 and 000 as "dnB^/dx_{m_s} x_{n_t} = ...", which reads like a
 *    first derivative; it is the second derivative d2nB^/dx_{m_s} dx_{n_t}, the twin of (43).
 *  - (51) ends "(nA^ x nB^) d2e^" without a dot; the dot product is meant (the term is zero
 *    here anyway, by (45)).
 *
 * What the derivatives are the derivatives of: (40)-(45) are the exact derivatives of the unit
 * vectors with their magnitudes frozen at x (001 Section 4), and at x sin^2 + cos^2 = 1, so
 * (54) and (57) are the exact gradient and Hessian of the frozen-magnitude theta at x
 * (claim CC_CLAIM_FROZEN). They are not the derivatives of theta itself: the gradient differs
 * from the true one by exactly cos sin d ln|e| (test_bend.c measures this), because the
 * frozen |nA|, |nB| cancel out of atan2 but the frozen |e| does not.
 */
#include "conditions/derivation.h"
#include "conditions/hinge.h"
#include "conditions/variants.h"

/* C = theta - theta0; dC, d2C by (54), (57) over the frozen-magnitude (40)-(51) */
static int bend_pritchard_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_hinge h;
    cc_hinge_trig t;
    out->ncomp = 1;
    out->ndof = CC_HINGE_DOF;
    if (cc_hinge_make(x, &h) < 0) return -1;
    out->C[0] = h.theta - r->rest_angle;
    if (!(want & (CC_WANT_GRAD | CC_WANT_HESS))) return want & CC_WANT_ALL;
    int hess = (want & CC_WANT_HESS) != 0;
    cc_hinge_trig_frozen(&h, hess, &t);   /* (46)-(51) over (40)-(45), in 3x3 blocks */
    cc_hinge_theta_derivs(&h, &t, hess, out->dC[0], out->d2C[0]);
    return want & CC_WANT_ALL;
}

/* C = atan2((nA^ x nB^).e^, nA^.nB^) - theta0, magnitudes frozen at xf when given */
static void bend_pritchard_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    C[0] = cc_hd_sub(cc_hinge_theta_hd(x, xf), cc_hd_const(r->rest_angle));
}

/* The derivation, step by step: (25)-(39) exact, (40)-(51) with frozen magnitudes, (52)-(57). */
static const cc_step theta = {
    "theta", "001 (30), (52)-(54)",
    CC_FORMULA_THETA,
    "(53) divides by sin^2 + cos^2, which is 1 at x, and (54) drops it. The gradient is that of "
    "theta with the magnitudes of n^A, n^B and e frozen (claim frozen-magnitude).",
    1, 1, 0, &cc_bend_pritchard, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step theta2 = {
    "theta''", "001 (55)-(57)",
    CC_FORMULA_THETA2,
    "(57) is (55) (printed in full only in 000 as (56)) with sin^2 + cos^2 = 1 at x.",
    2, 1, 0, &cc_bend_pritchard, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step *const steps[] = {
    CC_STEPS_HINGE_VECTORS, CC_STEPS_HINGE_FROZEN, &theta, &theta2};
static const cc_derivation derivation = {
    sizeof steps / sizeof steps[0], steps, CC_SAMPLE_HINGE, NULL};

const cc_condition cc_bend_pritchard = {
    .condition = "bend",
    .variant = "pritchard",
    .source = "Pritchard (24)-(57)",
    .summary = "C = theta - theta0 (atan2), constant-magnitude derivatives (40)-(45)",
    .nv = 4,
    .ncomp = 1,
    .claim = CC_CLAIM_FROZEN,
    .eval = bend_pritchard_eval,
    .value_hd = bend_pritchard_value_hd,
    .derivation = &derivation,
};
