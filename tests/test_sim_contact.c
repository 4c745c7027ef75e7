/* sim contacts at scale: 003's tablecloth over a round table (a separate suite because it is
 * slow in a Debug build, about two minutes; about 9 s in Release). */
#include <math.h>
#include <stdio.h>
#include "cc_test.h"
#include "mesh/mesh.h"
#include "sim/sim.h"

/* 003's tablecloth: a 1.6 m cloth (40 x 40 vertices, Table 3.1, adaptive steps) dropped onto
 * a round table of radius 0.5 m. Once it lies on the table its total energy must not grow:
 * a contact that slid past the rim is released, not held by a wall through its position
 * (that pumped stretch energy in at the rim: +1e-3 J from 0.8 s to 0.9 s here). */
static void test_tablecloth(void)
{
    char err[CC_ERRLEN];
    cc_sim_params p;
    cc_mesh *m = cc_mesh_grid(40, 40, 1.6, 1.6, 0, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    for (int i = 0; i < m->nv; i++) {
        m->x[3 * i] -= 0.8;
        m->x[3 * i + 1] -= 0.8;
        m->x[3 * i + 2] = 0.02;
    }
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("thesis-table3.1", &p, err), 0);
    p.precond = 3;   /* block IC(0): the cheapest solve here */
    cc_sim *s = cc_sim_new(m, &p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(cc_sim_add_table(s, 0, 0, 0, -0.8, 0.5, err), 0);
    double prev = INFINITY, worst = -INFINITY;
    cc_sim_energy e;
    for (int k = 1; k <= 9; k++) {
        int rc = cc_sim_advance(s, 0.1);
        if (rc) printf("\n    %s", cc_sim_error(s));
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        CU_ASSERT_EQUAL(cc_sim_energies(s, &e), 0);
        if (k >= 6) worst = fmax(worst, e.total - prev);
        prev = e.total;
    }
    const double *x = cc_sim_positions(s);
    double deepest = 0, centre_z = x[3 * (20 + 40 * 20) + 2];
    for (int i = 0; i < m->nv; i++) {
        const double *q = x + 3 * i;
        double rho = sqrt(q[0] * q[0] + q[1] * q[1]);
        if (rho < 0.5 && q[2] < 0 && q[2] > -0.8) deepest = fmin(deepest, fmax(rho - 0.5, q[2]));
    }
    cc_sim_stats st;
    cc_sim_get_stats(s, &st);
    printf("\n    %ld steps, %ld rejected; largest energy rise per 0.1 s after 0.5 s: %.2e J (E = %.4f J)",
           st.steps, st.rejected, worst, e.total);
    CU_ASSERT(worst <= 1e-6);
    CU_ASSERT(deepest > -1e-9);
    CU_ASSERT(fabs(centre_z) < 1e-3);
    CU_ASSERT(x[2] < -0.5);   /* a corner hangs */
    cc_sim_free(s);
    cc_mesh_free(m);
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"tablecloth on a round table (003): no energy gain once draped", test_tablecloth},
        {NULL, NULL},
    };
    return cc_test_main("sim_contact", tests);
}
