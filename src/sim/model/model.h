/* What the model's files share (not part of the interface sim.h). */
#ifndef CC_SIM_MODEL_H
#define CC_SIM_MODEL_H

#include "sim/assembly/sim_internal.h"

/* The constraint filter S (s->F), prescribed velocity change z and position correction y of
 * a step from velocities v: pins, sliding vertices and obstacle contacts (step.c). Contacts
 * are found and released here (s->contact, s->cnormal). 0, or -1 with s->err. */
int cc_sim_setup_constraints(cc_sim *s, const double *v);

#endif
