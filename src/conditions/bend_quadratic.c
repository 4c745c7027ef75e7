/* bend/quadratic — the quadratic bending model of Bergou, Wardetzky, Harmon, Zorin & Grinspun
 * 2006, "A quadratic bending model for inextensible surfaces", as a three-component condition.
 *
 *   C = sqrt(3 / A_rest) sum_m K_m (x_m - x_rest_m)          (3 components: the axes)
 *   dC_c/dx_{m,s} = sqrt(3 / A_rest) K_m delta_cs,  d2C = 0
 *   E = k/2 |C|^2 = (3k / (2 A_rest)) |sum_m K_m (x_m - x_rest_m)|^2
 *
 * with K the cotangent weights of the rest hinge and A_rest its two triangle areas summed
 * (cc_rest_hinge_shape stores sqrt(3/A_rest) K). On a flat rest hinge sum_m K_m x_rest_m = 0
 * (the paper's case, where E is their Q = (3/A) K K^T); subtracting it makes any rest shape
 * free of energy. C is linear in x: its gradient is constant and its Hessian zero, so the
 * energy Hessian k dC^T dC is constant, and the simulator assembles it once.
 *
 * Label map. Bergou et al. name the shared edge x0 x1 and the opposite vertices x2, x3, with
 * e0 = x1 - x0, e1 = x2 - x0, e2 = x3 - x0, e3 = x2 - x1, e4 = x3 - x1 and c0j = the cotangent
 * of the angle between e0 and ej, and give K = (c03 + c04, c01 + c02, -c01 - c03, -c02 - c04).
 * Their x0, x1, x2, x3 are Pritchard's x2, x1, x0, x3 (the map of hinge_tg.h), so c01, c03 are
 * the angles of triangle A = (x0, x1, x2) at x2 and x1, c02, c04 those of B = (x3, x1, x2):
 *   K_0 = -cot A@x1 - cot A@x2,  K_1 = cot A@x2 + cot B@x2,
 *   K_2 = cot A@x1 + cot B@x1,   K_3 = -cot B@x1 - cot B@x2       (rest.c)
 * For one triangle with edge (p, q) and third vertex w, cot(angle at q) p + cot(angle at p) q
 * - (both) w is the edge's length times the unit in-plane normal towards the edge; the two
 * triangles of a flat hinge give opposite normals, which is why sum K x_rest = 0 there.
 *
 * Claim CC_CLAIM_EXACT: the derivatives are those of C itself.
 */
#include "conditions/derivation.h"
#include "conditions/variants.h"

/* C_c = sum_m K_m (x_{m,c} - x_rest_{m,c}); dC_c/dx_{m,s} = K_m delta_cs; d2C = 0 */
static int bend_quadratic_eval(const double *x, const cc_rest *r, int want, cc_eval *out)
{
    out->ncomp = 3;
    out->ndof = 12;
    for (int c = 0; c < 3; c++) {
        double C = 0;
        for (int m = 0; m < 4; m++) C += r->rest_K[m] * (x[3 * m + c] - r->rest_x[3 * m + c]);
        out->C[c] = C;
        if (want & CC_WANT_GRAD)
            for (int i = 0; i < 12; i++) out->dC[c][i] = i % 3 == c ? r->rest_K[i / 3] : 0.0;
        if (want & CC_WANT_HESS)
            for (int i = 0; i < 12; i++)
                for (int j = 0; j < 12; j++) out->d2C[c][i][j] = 0.0;
    }
    return want & CC_WANT_ALL;
}

/* C over hyper-duals; nothing is normalised, so xf changes nothing */
static void bend_quadratic_value_hd(const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *C)
{
    (void)xf;
    for (int c = 0; c < 3; c++) {
        C[c] = cc_hd_const(0.0);
        for (int m = 0; m < 4; m++)
            C[c] = cc_hd_add(C[c], cc_hd_scale(cc_hd_sub(x[3 * m + c], cc_hd_const(r->rest_x[3 * m + c])),
                                               r->rest_K[m]));
    }
}

/* The derivation: the weights of the rest hinge, then C (each component linear in x). */

/* the weights sqrt(3/A_rest) K_m: rest data, derivative zero */
static void weights_value_hd(const cc_step *s, const cc_hd *x, const double *xf, const cc_rest *r, cc_hd *q)
{
    (void)s, (void)x, (void)xf;
    for (int m = 0; m < 4; m++) q[m] = cc_hd_const(r->rest_K[m]);
}

static int weights_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    (void)s, (void)x;
    for (int m = 0; m < 4; m++) q[m] = r->rest_K[m];
    for (int i = 0; i < 4 * 12; i++) d[i] = 0.0;
    return 0;
}

static const cc_step weights = {
    "K", "Bergou et al. 2006 (cotangent weights)",
    "K = (c03 + c04, c01 + c02, -c01 - c03, -c02 - c04) in their labels, times sqrt(3/A_rest); "
    "here K_0 = -cot A@x1 - cot A@x2, K_1 = cot A@x2 + cot B@x2, K_2 = cot A@x1 + cot B@x1, "
    "K_3 = -cot B@x1 - cot B@x2",
    "The weights depend on the rest hinge only, so their derivative is zero: all of the model's "
    "nonlinearity was moved into the rest state.",
    1, 4, 0, NULL, weights_value_hd, NULL, weights_derive};

#define COMPONENT_STEPS(nm, nm2, k)                                                                  \
    {nm, "Bergou et al. 2006 (Q = (3/A) K K^T)",                                                    \
     "C_c = sqrt(3/A_rest) sum_m K_m (x_{m,c} - x_rest_{m,c});  dC_c/dx_{m_s} = sqrt(3/A_rest) K_m delta_cs", \
     k == 0 ? "One component per axis: the energy k/2 |C|^2 is the paper's x^T (Q (x) I) x for a "    \
              "flat rest hinge." : "",                                                                 \
     1, 1, k, &cc_bend_quadratic, cc_step_condition_value_hd, NULL, cc_step_condition_derive},       \
    {nm2, "Bergou et al. 2006", "d2C_c = 0", k == 0 ? "C is linear in x." : "",                    \
     2, 1, k, &cc_bend_quadratic, cc_step_condition_value_hd, NULL, cc_step_condition_derive}

static const cc_step components[6] = {
    COMPONENT_STEPS("C_x", "C_x''", 0), COMPONENT_STEPS("C_y", "C_y''", 1), COMPONENT_STEPS("C_z", "C_z''", 2)};
static const cc_step *const steps[] = {
    &weights, &components[0], &components[1], &components[2], &components[3], &components[4], &components[5]};
static const cc_derivation derivation = {
    sizeof steps / sizeof steps[0], steps, CC_SAMPLE_HINGE, NULL};

const cc_condition cc_bend_quadratic = {
    .condition = "bend",
    .variant = "quadratic",
    .source = "Bergou, Wardetzky, Harmon, Zorin & Grinspun 2006 (quadratic bending)",
    .summary = "C = sqrt(3/A_rest) sum K_m (x_m - x_rest_m), 3 components, constant gradient, zero Hessian",
    .nv = 4,
    .ncomp = 3,
    .claim = CC_CLAIM_EXACT,
    .rest_shape = 1,
    .eval = bend_quadratic_eval,
    .value_hd = bend_quadratic_value_hd,
    .derivation = &derivation,
};
