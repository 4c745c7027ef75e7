/* What the model's files share (sim.c, step.c, strain.c, probe.c; not part of the interface
 * sim.h): the layers below the model (assembly, algebra) do not include it. */
#ifndef CC_SIM_MODEL_H
#define CC_SIM_MODEL_H

#include "sim/assembly/sim_internal.h"

/* The constraint filter S (s->F), prescribed velocity change z and position correction y of
 * a step from velocities v: pins, sliding vertices and obstacle contacts (step.c). Contacts
 * are found and released here (s->contact, s->cnormal). 0, or -1 with s->err. */
int cc_sim_setup_constraints(cc_sim *s, const double *v);

/* strain limiting (strain.c): velocity correction of v1 for x + h v1 (Bridson & Fedkiw), and
 * position correction of x1 with v1 updated (Provot) */
void cc_strain_velocity(cc_sim *s, const double *x, double h, double *v1);
void cc_strain_position(cc_sim *s, double h, double *x1, double *v1);
/* signed distance of point q to obstacle o with the outward normal in n; for a q inside, from
 * (may be NULL) is a point outside it that q came from, and the face it crossed is used */
double cc_obstacle_distance(const cc_obstacle *o, const double *q, const double *from, double *n);
/* the mass of vertex i as strain limiting and contacts see it: infinite when pinned */
double cc_sim_inv_mass(const cc_sim *s, int i);

#endif
