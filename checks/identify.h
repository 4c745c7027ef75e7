/* Identification: which known formulation a target computes.
 *
 * A derivative checker compares a function only with its own differences; clothcheck holds every
 * variant of a condition, the frozen-magnitude and the exact derivatives of each, so it can say
 * which of them a target's numbers are. The hypotheses, for every registered variant V of the
 * target's condition (and Bridson's force model, for a bend in the force form):
 *
 *   derivatives  V's own (its formulas: frozen magnitudes for bend/pritchard, Macri's for
 *                bend/macri), exact (hyper-duals of V's value), frozen (hyper-duals with the
 *                magnitudes of normalised vectors frozen, 001 Section 4); in the force form also
 *                the Gauss-Newton Jacobian -k dC dC^T and the PSD-projected one
 *   area power   alpha = a^P of a triangle: the request's P, 1, 0.75 or 0.5
 *   stiffness    k of the force form, fitted (one k over the elements)
 *   labels       the vertices in another order (the program's x_m our x_perm[m])
 *
 * each compared with the target's value, gradient and Hessian (as far as it gives them) on the
 * batch's first random elements, by the normwise relative error of the claim rows (with the
 * values' and gradients' natural sizes as floors). The closest hypothesis is the identification;
 * it is a match where it agrees within the tolerance the audit gives the target's precision.
 */
#ifndef CC_IDENTIFY_H
#define CC_IDENTIFY_H

#include "checks/audit.h"

typedef enum cc_form {
    CC_FORM_OWN,            /* the variant's own derivatives (its claim) */
    CC_FORM_EXACT,          /* exact derivatives of its value (differs from own where it claims no exactness) */
    CC_FORM_FROZEN,         /* derivatives with the magnitudes frozen */
    CC_FORM_GAUSS_NEWTON,   /* force form: the Jacobian -k dC dC^T */
    CC_FORM_PROJECTED,      /* force form: the Jacobian projected onto the PSD matrices */
    CC_FORM_COUNT
} cc_form;

/* "own", "exact", "frozen-magnitude", "gauss-newton", "projected" */
const char *cc_form_name(cc_form f);

typedef struct cc_identity {
    int found;                 /* 1 if the closest hypothesis agrees within tol */
    int any;                   /* 1 if any hypothesis could be compared at all */
    const cc_condition *cond;  /* its variant (NULL for Bridson's force) */
    int bridson_force;         /* 1: Bridson's force model */
    cc_form form;              /* its derivatives */
    double area_power;         /* a triangle's P (the request's where it is no other), else 0 */
    double k;                  /* the force form's stiffness (the request's where it is no other) */
    int perm[CC_MAX_NV];       /* vertex m of the target is our vertex perm[m] (identity: 0 1 2 3) */
    int rest_as_given;         /* with perm: the rest data read as the request gives it (a hinge's
                                  theta0, a triangle's (u, v)), not relabelled */
    const cc_condition *same_as;   /* another variant whose own derivatives give the same numbers, or NULL */
    double max_rel;            /* how close: the largest normwise relative error over the elements */
    double tol;                /* the agreement asked for */
    int elements;              /* elements compared */
} cc_identity;

/* out = the known formulation closest to target t's numbers (t as the audit of options o has
 * it: its condition t->condition, its claims' k and force form), over the first random elements
 * of o's batch; 0, or -1 if not one element could be compared */
int cc_identify(const cc_target *t, const cc_audit_opts *o, cc_identity *out);

/* id = what the target of audit a computes, where a report should say it: when a claims nothing
 * or fails its claim, and the claim rows do not already say it; id->any = 0 otherwise. force: the
 * target is a force (its claim, if any, an energy), k its stiffness. */
void cc_identify_audit(const cc_audit *a, int force, double k, cc_identity *id);

/* what id's derivatives are, as reports name them: its form, or for its own derivatives
 * "exact", "frozen-magnitude" (a frozen variant's) or "as published" (one claiming nothing) */
const char *cc_identity_hessian(const cc_identity *id);

/* 1 if id names the claim `claims` as it is (the same variant and form, the request's area
 * power, stiffness and labels): then the identification says no more than the claim rows */
int cc_identity_is_claim(const cc_identity *id, const cc_claim_spec *claims, const cc_audit_opts *o);

/* "bend/pritchard (frozen-magnitude)", with ", alpha = a^0.75", ", k = 5", ", your x0, x1,
 * x2 our x1, x2, x0" where they differ from the request, and "; bend/bridson gives the same
 * numbers" where another variant does, into buf */
void cc_identity_label(const cc_identity *id, const cc_audit_opts *o, double k_request, char *buf, int len);

#endif
