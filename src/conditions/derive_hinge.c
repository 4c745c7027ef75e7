/* Hinge steps shared by the bend variants' derivations (derivation.h), in Pritchard's labels
 * (hinge.h): the vectors nA, nB, e of 001 (25)-(39), and the unit vectors, cos theta and
 * sin theta of (24), (28)-(29), (40)-(51) under a cc_hinge_formula (the frozen-magnitude
 * (40)-(45) here; the appendix (A.8)-(A.13) in bend_pritchard_exact.c).
 * Each derivative is the formula the variants use: hinge.h's cc_hinge_dn, cc_hinge_d2n, the
 * formula's units and cc_hinge_trig_derivs. */
#include <string.h>
#include "conditions/derivation.h"
#include "conditions/hinge.h"

#define DOF CC_HINGE_DOF

/* v into q[0..2] */
static void put3(double *q, cc_v3 v) { q[0] = v.x, q[1] = v.y, q[2] = v.z; }

/* derivative entry of vector component c: order 1 d[c][i], order 2 d[c][i][j] */
static double *at1(double *d, int c, int i) { return d + c * DOF + i; }
static double *at2(double *d, int c, int i, int j) { return d + (c * DOF + i) * DOF + j; }

/* q = nA, nB or e (arg 0, 1, 2); d = (31)-(33) (order 1) or (37)-(39) (order 2) */
static int vector_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    cc_hinge h;
    (void)r;
    (void)cc_hinge_make(x, &h);   /* nA, nB, e and the q vectors are set even where theta is not */
    put3(q, s->arg == 0 ? h.nA : s->arg == 1 ? h.nB : h.e);
    for (int i = 0; i < DOF; i++)
        for (int j = 0; j < (s->order == 1 ? 1 : DOF); j++) {
            int m = i / 3, n = j / 3;
            cc_v3 v;
            if (s->arg == 2) v = s->order == 1 ? cc_v3_scale(cc_v3_axis(i % 3), cc_hinge_qe(m)) : cc_v3_zero();
            else if (s->order == 1) v = cc_hinge_dn(s->arg == 0 ? h.qA : h.qB, i);
            else v = cc_hinge_d2n(s->arg == 0 ? cc_hinge_dqA(m, n) : cc_hinge_dqB(m, n), i, j);
            for (int c = 0; c < 3; c++) *(s->order == 1 ? at1(d, c, i) : at2(d, c, i, j)) = v.c[c];
        }
    return 0;
}

/* nA, nB or e over hyper-duals (25)-(27) */
static void vector_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    cc_hv3 v[3];
    (void)xf, (void)r;
    cc_hinge_vectors_hd(x, &v[0], &v[1], &v[2]);
    q[0] = v[s->arg].x, q[1] = v[s->arg].y, q[2] = v[s->arg].z;
}

#define VECTOR_STEP(nm, eq, form, note, order, arg) \
    {nm, eq, form, note, order, 3, arg, NULL, vector_value_hd, NULL, vector_derive}

const cc_step cc_step_hinge_nA = VECTOR_STEP("n^A", "001 (25), (31), (34)",
    "n^A = (x2 - x0) x (x1 - x0);  dn^A/dx_{m_s} = S_s(q^A_m),  q^A = {x2 - x1, x0 - x2, x1 - x0, 0}",
    "The normal of triangle A (x0, x1, x2), not normalised. S_s(v) = e_s x v turns the cross "
    "product's derivative into one vector per vertex and axis.", 1, 0);
const cc_step cc_step_hinge_nA2 = VECTOR_STEP("n^A''", "001 (37)",
    "d2n^A/dx_{m_s} dx_{n_t} = S_s(dq^A_m/dx_{n_t})",
    "n^A is quadratic in the positions, so its second derivative is constant.", 2, 0);
const cc_step cc_step_hinge_nB = VECTOR_STEP("n^B", "001 (26), (32), (35)",
    "n^B = (x1 - x3) x (x2 - x3);  dn^B/dx_{m_s} = S_s(q^B_m),  q^B = {0, x2 - x3, x3 - x1, x1 - x2}",
    "The normal of triangle B (x1, x2, x3), not normalised.", 1, 1);
const cc_step cc_step_hinge_nB2 = VECTOR_STEP("n^B''", "001 (38)",
    "d2n^B/dx_{m_s} dx_{n_t} = S_s(dq^B_m/dx_{n_t})", "", 2, 1);
const cc_step cc_step_hinge_e = VECTOR_STEP("e", "001 (27), (33), (36)",
    "e = x1 - x2;  de/dx_{m_s} = q^e_m I_s,  q^e = {0, 1, -1, 0}",
    "The shared edge, linear in the positions.", 1, 2);
const cc_step cc_step_hinge_e2 = VECTOR_STEP("e''", "001 (39)",
    "d2e/dx_{m_s} dx_{n_t} = 0", "", 2, 2);

/* q = the quantity `arg` (see derivation.h) under formula ptr; d its derivative by the formula
 * and (46)-(51) */
int cc_step_hinge_units_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    const cc_hinge_formula *f = s->ptr;
    cc_hinge h;
    cc_hinge_units u;
    cc_hinge_trig t;
    (void)r;
    if (cc_hinge_make(x, &h) < 0) return -1;
    int hess = s->order == 2, which = s->arg / 2;
    f->units(&h, hess, &u);
    if (which >= 3) {
        cc_hinge_trig_derivs(&h, &u, hess, &t);
        int sin = which == 4;
        q[0] = sin ? h.s : h.c;
        for (int i = 0; i < DOF; i++) {
            if (!hess) d[i] = sin ? t.ds[i] : t.dc[i];
            else memcpy(d + i * DOF, sin ? t.d2s[i] : t.d2c[i], sizeof(double) * DOF);
        }
        return 0;
    }
    put3(q, which == 0 ? h.nAh : which == 1 ? h.nBh : h.eh);
    const cc_v3 *d1 = which == 0 ? u.dA : which == 1 ? u.dB : u.dE;
    cc_v3 (*d2)[DOF] = which == 0 ? u.d2A : which == 1 ? u.d2B : u.d2E;
    for (int i = 0; i < DOF; i++)
        for (int c = 0; c < 3; c++) {
            if (!hess) *at1(d, c, i) = d1[i].c[c];
            else
                for (int j = 0; j < DOF; j++) *at2(d, c, i, j) = d2[i][j].c[c];
        }
    return 0;
}

/* the quantity `arg` over hyper-duals: (24), (28), (29), magnitudes frozen at xf if given */
void cc_step_hinge_units_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r,
                                  cc_hd *q)
{
    int which = s->arg / 2;
    (void)r;
    if (which >= 3) {
        cc_hd c, sn;
        cc_hinge_trig_hd(x, xf, &c, &sn);
        q[0] = which == 4 ? sn : c;
        return;
    }
    cc_hv3 v[3];
    cc_hinge_units_hd(x, xf, &v[0], &v[1], &v[2]);
    q[0] = v[which].x, q[1] = v[which].y, q[2] = v[which].z;
}

static const cc_hinge_formula frozen = {cc_hinge_units_frozen};

#define UNITS_STEP(nm, eq, form, note, order, n, arg) \
    {nm, eq, form, note, order, n, arg, &frozen, cc_step_hinge_units_value_hd, NULL, cc_step_hinge_units_derive}

const cc_step cc_step_hinge_frozen[10] = {
    UNITS_STEP("n^A^", "001 (24), (40)", "n^A^ = n^A / |n^A|;  dn^A^/dx_{m_s} = (1/|n^A|) dn^A/dx_{m_s}",
               "(40) differentiates n^A/|n^A| as if |n^A| were constant (001 Section 4, the "
               "constant-magnitude assumption): it keeps dn^A/|n^A| and leaves out "
               "-n^A^ (n^A^ . dn^A)/|n^A|, the part that changes the length. (41) and (42) do the "
               "same for n^B^ and e^, and cos theta and sin theta inherit it. In "
               "theta = atan2(sin, cos) the lengths of n^A and n^B cancel, but that of e does not: "
               "(54) differs from the true gradient by exactly cos theta sin theta d ln|e|, along e "
               "at x1 and x2, zero on a flat hinge and at a right angle, largest at 45 degrees.",
               1, 3, 0),
    UNITS_STEP("n^A^''", "001 (43)", "d2n^A^/dx_{m_s} dx_{n_t} = (1/|n^A|) d2n^A/dx_{m_s} dx_{n_t}",
               "The second derivative with the length of n^A held constant, as in (40).", 2, 3, 1),
    UNITS_STEP("n^B^", "001 (24), (41)", "n^B^ = n^B / |n^B|;  dn^B^/dx_{m_s} = (1/|n^B|) dn^B/dx_{m_s}",
               "As (40), for triangle B: the length of n^B is held constant.", 1, 3, 2),
    UNITS_STEP("n^B^''", "001 (44)",
               "d2n^B^/dx_{m_s} dx_{n_t} = (1/|n^B|) d2n^B/dx_{m_s} dx_{n_t}  (printed \"dn^B^/dx_{m_s} x_{n_t}\")",
               "001 and 000 misprint the left side of (44) as a first derivative; it is the twin of (43).",
               2, 3, 3),
    UNITS_STEP("e^", "001 (24), (42)", "e^ = e / |e|;  de^/dx_{m_s} = (1/|e|) de/dx_{m_s}",
               "As (40), for the edge: the length of e is held constant. This is the part that "
               "survives into (54).", 1, 3, 4),
    UNITS_STEP("e^''", "001 (45)", "d2e^/dx_{m_s} dx_{n_t} = 0",
               "With |e| held constant, e^ is linear in the positions.", 2, 3, 5),
    UNITS_STEP("cos theta", "001 (28), (46)-(47)",
               CC_FORMULA_COS,
               "The product rule on (28), fed with (40)-(41).", 1, 1, 6),
    UNITS_STEP("cos theta''", "001 (50)",
               CC_FORMULA_COS2,
               "", 2, 1, 7),
    UNITS_STEP("sin theta", "001 (29), (48)-(49)",
               CC_FORMULA_SIN,
               "The product rule on (29), fed with (40)-(42).", 1, 1, 8),
    UNITS_STEP("sin theta''", "001 (51)",
               CC_FORMULA_SIN2,
               "001 prints the last term without its dot.", 2, 1, 9),
};
