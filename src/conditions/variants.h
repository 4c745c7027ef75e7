/* Every condition variant module, declared for the registry (registry.c). */
#ifndef CC_VARIANTS_H
#define CC_VARIANTS_H

#include "conditions/condition.h"

extern const cc_condition cc_stretch_bw98;      /* stretch_bw98.c */
extern const cc_condition cc_shear_bw98;        /* shear_bw98.c */
extern const cc_condition cc_shear_normalized;  /* shear_normalized.c */
extern const cc_condition cc_bend_pritchard;        /* bend_pritchard.c */
extern const cc_condition cc_bend_pritchard_exact;  /* bend_pritchard_exact.c */
extern const cc_condition cc_bend_macri;            /* bend_macri.c */
extern const cc_condition cc_bend_bridson;          /* bend_bridson.c */
extern const cc_condition cc_bend_discrete_shells;  /* bend_discrete_shells.c */
extern const cc_condition cc_bend_quadratic;        /* bend_quadratic.c */
extern const cc_condition cc_spring_linear;     /* spring_linear.c */

#endif
