/* Strain limiting (002 "Strain Limiting" 1 and 2): edge lengths kept within
 * (1 +- strain_max) of their rest lengths by symmetric, mass-weighted corrections, so linear
 * and angular momentum are unchanged. Pinned vertices have infinite mass; sliding and
 * contact constraints are not consulted here (a departure: a correction may move a sliding
 * vertex off its line slightly until the next step's constraint takes over). */
#include <math.h>
#include <string.h>
#include "sim/assembly/sim_internal.h"
#include "sim/model/model.h"

/* the length L' in [(1 - s) L, (1 + s) L] nearest to len; returns 1 if len is outside */
static int clamp_length(double len, double L, double s, double *target)
{
    if (len > (1 + s) * L) return *target = (1 + s) * L, 1;
    if (len < (1 - s) * L) return *target = (1 - s) * L, 1;
    return 0;
}

/* Bridson & Fedkiw: for each edge whose predicted length |(x_a + h v_a) - (x_b + h v_b)|
 * leaves the band, change the relative velocity along the edge so that it lands on the band
 * edge; swept strain_iters times (Gauss-Seidel). */
void cc_strain_velocity(cc_sim *s, const double *x, double h, double *v)
{
    double tau = s->p.strain_max;
    for (int it = 0; it < s->p.strain_iters; it++) {
        int changed = 0;
        for (int e = 0; e < s->ne; e++) {
            int a = s->edge[2 * e], b = s->edge[2 * e + 1];
            double wa = cc_sim_inv_mass(s, a), wb = cc_sim_inv_mass(s, b);
            if (wa + wb == 0) continue;
            double d[3], len = 0, target;
            for (int k = 0; k < 3; k++) {
                d[k] = (x[3 * a + k] + h * v[3 * a + k]) - (x[3 * b + k] + h * v[3 * b + k]);
                len += d[k] * d[k];
            }
            len = sqrt(len);
            if (!(len > 0) || !clamp_length(len, s->rest_len[e], tau, &target)) continue;
            double dvrel = (target - len) / h;   /* wanted change of (v_a - v_b) . u */
            for (int k = 0; k < 3; k++) {
                double u = d[k] / len;
                v[3 * a + k] += wa / (wa + wb) * dvrel * u;
                v[3 * b + k] -= wb / (wa + wb) * dvrel * u;
            }
            changed = 1;
        }
        if (!changed) break;
    }
}

/* Provot: move the endpoints of each edge outside the band symmetrically onto it, swept
 * strain_iters times; the velocities take the displacement: v += dx / h. */
void cc_strain_position(cc_sim *s, double h, double *x, double *v)
{
    double tau = s->p.strain_max, *x0 = s->tmp;
    memcpy(x0, x, 3 * (size_t)s->nv * sizeof *x);
    for (int it = 0; it < s->p.strain_iters; it++) {
        int changed = 0;
        for (int e = 0; e < s->ne; e++) {
            int a = s->edge[2 * e], b = s->edge[2 * e + 1];
            double wa = cc_sim_inv_mass(s, a), wb = cc_sim_inv_mass(s, b);
            if (wa + wb == 0) continue;
            double d[3], len = 0, target;
            for (int k = 0; k < 3; k++) {
                d[k] = x[3 * a + k] - x[3 * b + k];
                len += d[k] * d[k];
            }
            len = sqrt(len);
            if (!(len > 0) || !clamp_length(len, s->rest_len[e], tau, &target)) continue;
            double corr = target - len;
            for (int k = 0; k < 3; k++) {
                double u = d[k] / len;
                x[3 * a + k] += wa / (wa + wb) * corr * u;
                x[3 * b + k] -= wb / (wa + wb) * corr * u;
            }
            changed = 1;
        }
        if (!changed) break;
    }
    for (int k = 0; k < 3 * s->nv; k++) v[k] += (x[k] - x0[k]) / h;
}
