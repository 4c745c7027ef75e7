/* Internal to src/api: the user's model (clothcheck.h) as an audit target (checks/target.h).
 *
 * model.c checks a clothcheck_model and wraps its callbacks in a cc_target whose context is
 * a copy of the model; audit.c runs the engine on it and turns its rows into clothcheck_rows.
 */
#ifndef CC_API_H
#define CC_API_H

#include "api/clothcheck.h"
#include "checks/target.h"

#define CC_API_NAMELEN 64   /* bytes of a model's name kept for reports */

/* The user's model as the target's context: what the wrappers read at every call. */
typedef struct cc_api_model {
    clothcheck_model m;             /* the callbacks, user pointer, nv, ncomp, period */
    char name[CC_API_NAMELEN];      /* m.name, copied (or "model") */
} cc_api_model;

/* 0 if m is well formed (nv, ncomp, exactly one form, period), else -1 with why in err */
int cc_api_check_model(const clothcheck_model *m, char *err);

/* 0 if claim s fits model m (vertices, components, form), else -1 with why in err */
int cc_api_check_claim(const clothcheck_model *m, const cc_claim_spec *s, char *err);

/* am = a copy of m; t = the target calling m's callbacks through am (which must outlive t),
 * with the period of m, or that of the variant claimed by s */
void cc_api_target(const clothcheck_model *m, const cc_claim_spec *s, cc_api_model *am, cc_target *t);

/* out = the public form of rest data r */
void cc_api_rest(const cc_rest *r, clothcheck_rest *out);

#endif
