/* check-system --claims SPEC (sys_claims.c): what a program says it simulates, as clothcheck's
 * own simulator with one term at a time.
 *
 * SPEC: comma-separated items, applied in order on top of no term at all:
 *   standard                       001 Table 1 (the preset pritchard-table1: stretch, shear,
 *                                  bend/pritchard, their damping, gravity, density 0.1)
 *   stretch:bw98:k=5000[:d=1000]   a term, its variant, stiffness and damping (shear, bend too)
 *   gravity=9.81                   gravity along -z (or gravity=X Y Z)
 *   NAME=VALUE                     any simulator parameter by name (density=0.1,
 *                                  area_power=0.75, bend_variant=pritchard-exact, air_drag=...)
 * The area weight is alpha = a^1, as in every request, unless area_power or a preset says
 * otherwise.
 */
#ifndef CC_SYS_CLAIMS_H
#define CC_SYS_CLAIMS_H

#include "checks/system.h"
#include "sim/sim.h"

typedef struct cc_sys_claims {
    int n;                                  /* terms */
    cc_sys_target terms[CC_SYS_MAX_TERMS];  /* each term's energy and force */
    const char *names[CC_SYS_MAX_TERMS];    /* "stretch", "shear", "bend", "gravity", "drag" */
    cc_sim *sim[CC_SYS_MAX_TERMS];
} cc_sys_claims;

/* p = the parameters SPEC describes; 0, or -1 with err (CC_ERRLEN bytes) */
int cc_sys_claims_parse(const char *spec, cc_sim_params *p, char *err);

/* c = one simulation of mesh m per term of p; 0, or -1 with err */
int cc_sys_claims_build(cc_sys_claims *c, const cc_mesh *m, const cc_sim_params *p, char *err);
void cc_sys_claims_free(cc_sys_claims *c);

#endif
