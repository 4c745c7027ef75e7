/* bend/pritchard-exact — Pritchard's bend condition without the constant-magnitude
 * approximation: 001 (24)-(39), (46)-(57) with the appendix (A.8)-(A.13) in place of (40)-(45).
 *
 *   dnA^/dx_{m,s} = (I - nA^ nA^T) S_s(qA_m) / |nA|                     (A.8), (A.9) for B
 *   de^/dx_{m,s}  = (I - e^ e^T) qe_m I_s / |e|                           (A.10)
 *   d2nA^/dx_{m,s} dx_{n,t} = -(dnA^_{n,t} nA^T + nA^ dnA^_{n,t}^T) S_s(qA_m) / |nA|
 *        + (I - nA^ nA^T) / |nA|^2 (|nA| S_s(dqA_m/dx_{n,t}) - (S_t(qA_n).nA^) S_s(qA_m))
 *                                                                       (A.11), (A.12) for B
 *   d2e^/dx_{m,s} dx_{n,t} = -(de^_{n,t} e^T + e^ de^_{n,t}^T) qe_m I_s / |e|
 *        - (I - e^ e^T) / |e|^2 qe_m qe_n e^_t I_s                       (A.13)
 *
 * What was read, and why (also in docs/bend.md):
 *  - The appendix says the equations replace "(40) and (43)"; they replace all of (40)-(45):
 *    (A.8)-(A.10) are (40)-(42) and (A.11)-(A.13) are (43)-(45).
 *  - (A.13) as printed in 001 (and in 000) writes S_s(q^e_m). q^e_m is a scalar, so S_s of it
 *    has no meaning; by (33) de/dx_{m,s} = q^e_m I_s, and that is what stands in the same place
 *    of (A.10). Implemented as q^e_m I_s.
 *  - 000 and 001 number the appendix differently: 001 numbers the three second derivatives
 *    (A.11), (A.12), (A.13); 000 prints them as one display numbered (A.11) at its end (the
 *    e^ equation), and heads the section "A..3". This file uses 001's numbers.
 *  - Each formula was re-derived by differentiating the one before it (d(1/|n|) =
 *    -(n^ . dn)/|n|^2, dP = -(dn^ n^T + n^ dn^T)); with the two readings above they agree.
 *
 * nA^ and nB^ are both orthogonal to e^, so sin^2 + cos^2 = 1 identically and (54), (57) are
 * the exact derivatives of theta: claim CC_CLAIM_EXACT.
 */
#include "conditions/derivation.h"
#include "conditions/hinge.h"
#include "conditions/variants.h"

/* d n^/dx_i = (I - n^ n^T) dn_i / |n| for any vector n with derivative dn_i  (A.8)-(A.10) */
static cc_v3 unit_d1(cc_v3 nh, double l, cc_v3 dn)
{
    return cc_v3_scale(cc_v3_axpy(dn, -cc_v3_dot(nh, dn), nh), 1.0 / l);
}

/* d2 n^/dx_i dx_j = -(dn^_j n^T + n^ dn^_j^T) dn_i / |n|
 *                   + (I - n^ n^T) (|n| d2n_ij - (dn_j . n^) dn_i) / |n|^2     (A.11)-(A.13) */
static cc_v3 unit_d2(cc_v3 nh, double l, cc_v3 dn_i, cc_v3 dn_j, cc_v3 dnh_j, cc_v3 d2n_ij)
{
    cc_v3 first = cc_v3_scale(cc_v3_add(cc_v3_scale(dnh_j, cc_v3_dot(nh, dn_i)),
                                        cc_v3_scale(nh, cc_v3_dot(dnh_j, dn_i))), -1.0 / l);
    cc_v3 w = cc_v3_axpy(cc_v3_scale(d2n_ij, l), -cc_v3_dot(dn_j, nh), dn_i);
    cc_v3 second = cc_v3_scale(cc_v3_axpy(w, -cc_v3_dot(nh, w), nh), 1.0 / (l * l));
    return cc_v3_add(first, second);
}

/* de/dx_{m,s} = qe_m I_s                                                          (33) */
static cc_v3 edge_d1(int i) { return cc_v3_scale(cc_v3_axis(i % 3), cc_hinge_qe(i / 3)); }

/* all unit-vector derivatives by the appendix; d2e = 0 (39) enters (A.13) as d2n_ij = 0 */
static void units_exact(const cc_hinge *h, int want_hess, cc_hinge_units *u)
{
    for (int i = 0; i < CC_HINGE_DOF; i++) {
        u->dA[i] = unit_d1(h->nAh, h->lA, cc_hinge_dn(h->qA, i));   /* (A.8) */
        u->dB[i] = unit_d1(h->nBh, h->lB, cc_hinge_dn(h->qB, i));   /* (A.9) */
        u->dE[i] = unit_d1(h->eh, h->le, edge_d1(i));               /* (A.10) */
    }
    if (!want_hess) return;
    for (int i = 0; i < CC_HINGE_DOF; i++)
        for (int j = 0; j < CC_HINGE_DOF; j++) {
            int m = i / 3, n = j / 3;
            u->d2A[i][j] = unit_d2(h->nAh, h->lA, cc_hinge_dn(h->qA, i), cc_hinge_dn(h->qA, j), u->dA[j],
                                   cc_hinge_d2n(cc_hinge_dqA(m, n), i, j));                       /* (A.11) */
            u->d2B[i][j] = unit_d2(h->nBh, h->lB, cc_hinge_dn(h->qB, i), cc_hinge_dn(h->qB, j), u->dB[j],
                                   cc_hinge_d2n(cc_hinge_dqB(m, n), i, j));                       /* (A.12) */
            u->d2E[i][j] = unit_d2(h->eh, h->le, edge_d1(i), edge_d1(j), u->dE[j], cc_v3_zero()); /* (A.13) */
        }
}

/* C = theta - theta0; dC, d2C by (54), (57) over the appendix (A.8)-(A.13) and (46)-(51) */
static int bend_pritchard_exact_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_hinge h;
    cc_hinge_units u;
    cc_hinge_trig t;
    out->ncomp = 1;
    out->ndof = CC_HINGE_DOF;
    if (cc_hinge_make(x, &h) < 0) return -1;
    out->C[0] = h.theta - r->rest_angle;
    if (!(want & (CC_WANT_GRAD | CC_WANT_HESS))) return want & CC_WANT_ALL;
    int hess = (want & CC_WANT_HESS) != 0;
    units_exact(&h, hess, &u);
    cc_hinge_trig_derivs(&h, &u, hess, &t);             /* (46)-(51) */
    cc_hinge_theta_derivs(&h, &t, hess, out->dC[0], out->d2C[0]);   /* (54), (57) */
    return want & CC_WANT_ALL;
}

/* C = atan2((nA^ x nB^).e^, nA^.nB^) - theta0, magnitudes frozen at xf when given */
static void bend_pritchard_exact_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    C[0] = cc_hd_sub(cc_hinge_theta_hd(x, xf), cc_hd_const(r->rest_angle));
}

/* The derivation, step by step: (25)-(39), the appendix (A.8)-(A.13) for the unit vectors,
 * then (46)-(57) as in bend/pritchard. */
static const cc_hinge_formula appendix = {units_exact};

#define UNITS_STEP(nm, eq, form, note, order, n, arg) \
    {nm, eq, form, note, order, n, arg, &appendix, cc_step_hinge_units_value_hd, NULL, cc_step_hinge_units_derive}

static const cc_step units[10] = {
    UNITS_STEP("n^A^", "001 (24), (A.8)", "dn^A^/dx_{m_s} = (I - n^A^ n^A^T) S_s(q^A_m) / |n^A|",
               "The projector I - n^A^ n^A^T removes the part of dn^A along n^A^: the change of "
               "|n^A| that (40) keeps by mistake.", 1, 3, 0),
    UNITS_STEP("n^A^''", "001 (A.11)",
               "d2n^A^ = -(dn^A^_{n_t} n^A^T + n^A^ dn^A^_{n_t}^T) S_s(q^A_m)/|n^A| + (I - n^A^ n^A^T)/|n^A|^2 "
               "(|n^A| S_s(dq^A_m/dx_{n_t}) - (S_t(q^A_n) . n^A^) S_s(q^A_m))",
               "(A.8) differentiated once more: the projector changes too.", 2, 3, 1),
    UNITS_STEP("n^B^", "001 (24), (A.9)", "dn^B^/dx_{m_s} = (I - n^B^ n^B^T) S_s(q^B_m) / |n^B|", "", 1, 3, 2),
    UNITS_STEP("n^B^''", "001 (A.12)", "as (A.11), with B for A", "", 2, 3, 3),
    UNITS_STEP("e^", "001 (24), (A.10)", "de^/dx_{m_s} = (I - e^ e^T) q^e_m I_s / |e|", "", 1, 3, 4),
    UNITS_STEP("e^''", "001 (A.13)",
               "d2e^ = -(de^_{n_t} e^T + e^ de^_{n_t}^T) q^e_m I_s/|e| - (I - e^ e^T)/|e|^2 q^e_m q^e_n e^_t I_s",
               "001 prints S_s(q^e_m) where q^e_m I_s is meant (q^e_m is a scalar).", 2, 3, 5),
    UNITS_STEP("cos theta", "001 (28), (46)-(47)",
               CC_FORMULA_COS,
               "The product rule on (28), fed with (A.8)-(A.9).", 1, 1, 6),
    UNITS_STEP("cos theta''", "001 (50)",
               CC_FORMULA_COS2,
               "", 2, 1, 7),
    UNITS_STEP("sin theta", "001 (29), (48)-(49)",
               CC_FORMULA_SIN,
               "The product rule on (29), fed with (A.8)-(A.10).", 1, 1, 8),
    UNITS_STEP("sin theta''", "001 (51)",
               CC_FORMULA_SIN2,
               "", 2, 1, 9),
};
static const cc_step theta = {
    "theta", "001 (30), (52)-(54)",
    CC_FORMULA_THETA,
    "With exact unit-vector derivatives, sin^2 + cos^2 = 1 holds along every direction, so (54) "
    "is the exact gradient of theta.",
    1, 1, 0, &cc_bend_pritchard_exact, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step theta2 = {
    "theta''", "001 (55)-(57)",
    CC_FORMULA_THETA2,
    "", 2, 1, 0, &cc_bend_pritchard_exact, cc_step_condition_value_hd, NULL, cc_step_condition_derive};
static const cc_step *const steps[] = {
    CC_STEPS_HINGE_VECTORS, &units[0], &units[1], &units[2], &units[3], &units[4],
    &units[5], &units[6], &units[7], &units[8], &units[9], &theta, &theta2};
static const cc_derivation derivation = {
    sizeof steps / sizeof steps[0], steps, CC_SAMPLE_HINGE, NULL};

const cc_condition cc_bend_pritchard_exact = {
    .condition = "bend",
    .variant = "pritchard-exact",
    .source = "Pritchard (24)-(39), (46)-(57), (A.8)-(A.13)",
    .summary = "C = theta - theta0 (atan2), exact unit-vector derivatives of the appendix",
    .nv = 4,
    .ncomp = 1,
    .claim = CC_CLAIM_EXACT,
    .eval = bend_pritchard_exact_eval,
    .value_hd = bend_pritchard_exact_value_hd,
    .derivation = &derivation,
};
