/* The reference "claim": what a target says it implements (cc_claim_spec, target.h), at one
 * element, as the numbers the target itself should give.
 *
 *   condition form   C, dC, d2C of the claimed variant: its own value, and the hyper-dual
 *                    derivatives of that value where the variant claims exact derivatives,
 *                    its own formulas where it claims frozen magnitudes or nothing (so a
 *                    program that implements Pritchard's (54) is compared with (54))
 *   force form       E = k/2 C.C, dE = k C dC, d2E = k (dC dC^T + C d2C) from the same, one
 *                    component (the target's value E, gradient -F, Hessian -dF/dx)
 *   Bridson's force  -F and -dF/dx of cc_bridson_force (Jacobian by hyper-duals); no energy
 */
#ifndef CC_CLAIM_H
#define CC_CLAIM_H

#include "checks/fd.h"
#include "checks/target.h"

#define CC_CLAIM_HAS_VALUE 1   /* C was filled */
#define CC_CLAIM_HAS_DERIV 2   /* d->g and d->H were filled */

/* 1 if s claims anything */
int cc_claim_given(const cc_claim_spec *s);
/* components of what s claims, as the target gives them (1 in the force forms) */
int cc_claim_ncomp(const cc_claim_spec *s);
/* vertices of the claimed element */
int cc_claim_nv(const cc_claim_spec *s);
/* "bend/bridson", "bend/bridson as the energy k/2 C^2", "bridson-force" into buf */
void cc_claim_label(const cc_claim_spec *s, char *buf, int n);

/* s from "COND/VARIANT" (a registered variant, s->cond) or "bridson-force", stiffness k,
 * taken as an energy when as_energy; 0, or -1 with why in err */
int cc_claim_parse(const char *spec, double k, int as_energy, cc_claim_spec *s, char *err);

/* C and d at element (x, r) as the claim has them; the CC_CLAIM_HAS_* bits, or -1 where the
 * claimed formula is undefined */
int cc_claim_eval(const cc_claim_spec *s, const double *x, const cc_rest *r, double *C, cc_deriv *d);

/* 1 if the claimed variant has derivatives other than exact ones (frozen-magnitude, or none)
 * and a hyper-dual value: then cc_claim_eval_exact gives what the exact derivatives would be */
int cc_claim_has_exact(const cc_claim_spec *s);
/* cc_claim_eval with the derivatives exact (hyper-duals of the claimed value), whatever the
 * variant claims */
int cc_claim_eval_exact(const cc_claim_spec *s, const double *x, const cc_rest *r, double *C, cc_deriv *d);
/* cc_claim_eval with the derivatives taken with the magnitudes of the claimed variant's
 * normalised vectors frozen (001 Section 4: what Pritchard's constant-magnitude formulas give),
 * for a variant whose value code can freeze them; -1 otherwise */
int cc_claim_eval_frozen(const cc_claim_spec *s, const double *x, const cc_rest *r, double *C, cc_deriv *d);

#endif
