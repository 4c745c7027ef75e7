/* The simulator's internals: the state every layer of src/sim reads (struct cc_sim, its terms)
 * and what the assembly layer (assemble.c, the kernels, bend_force.c, hessian.c) gives the
 * model above it (cc_sim_assemble, cc_sim_pattern). What only the model's files share (sim.c,
 * step.c, strain.c, probe.c) is in sim/model/model.h. */
#ifndef CC_SIM_INTERNAL_H
#define CC_SIM_INTERNAL_H

#include "sim/algebra/bsr.h"
#include "sim/assembly/forces.h"
#include "sim/algebra/mpcg.h"
#include "sim/algebra/team.h"
#include "sim/sim.h"

/* TERM_BEND_FORCE: Bridson's bending force model on the hinges (bend_force.c), not a
 * condition; its cond is bend/bridson, used only for C = theta - theta0 (messages, t->C). */
enum { TERM_STRETCH, TERM_SHEAR, TERM_BEND, TERM_USER, TERM_BEND_FORCE };
enum { CON_FREE, CON_PIN, CON_PLANE, CON_LINE };   /* cc_sim.con (the model's: sim.c, step.c) */
enum { OBS_PLANE, OBS_SPHERE, OBS_TABLE };            /* cc_obstacle.kind (the model's) */

/* One condition applied to a list of elements. */
typedef struct cc_term {
    char name[CC_SIM_NAMELEN];   /* "stretch", "shear", "bend" or the user condition's name */
    int kind;                    /* TERM_* */
    int nv;                      /* vertices per element */
    int ncomp;                   /* components of C */
    int nel;                     /* elements */
    int *elem;                   /* nel by nv vertex indices */
    const cc_condition *cond;    /* registry variant, NULL for a user condition */
    cc_rest *rest;               /* nel rest data (registry variants only) */
    cc_sim_condition user;       /* the user callback (user conditions only) */
    double k, kd;                /* stiffness and damping constant */
    int *slot;                   /* nel by nv by nv: block (a, b) lies at A->val + 9 slot (cc_bsr.vpos) */
    double *kdata;               /* the rest data a structured kernel reads, packed per element
                                    (cc_kernel_pack_*), or NULL: built with the slots */
    int nbatch;                  /* batches of CC_LANES elements: ceil(nel / CC_LANES) */
    int *bmax;                   /* nbatch: the highest vertex of each batch */
    int *smin;                   /* nbatch + 1: the lowest vertex of batches b.. (n past the end) */
    int xmin, xmax;              /* the lowest and highest vertex of the batches across
                                    assemble_sweep's cut (n and -1 if none, and with one part) */
    double *energy;              /* nel: k/2 C.C at the last evaluation (bend force: bend_force.c) */
    double *C;                   /* nel by ncomp: C at the last evaluation */
} cc_term;

/* An analytic obstacle. */
typedef struct cc_obstacle {
    int kind;          /* OBS_* */
    double p[3];       /* plane: a point; sphere: centre; table: (cx, cy, top_z) */
    double n[3];       /* plane: unit normal */
    double r;          /* sphere or table radius */
    double floor_z;    /* table: bottom of the cylinder */
} cc_obstacle;

struct cc_sim {
    cc_sim_params p;     /* parameters */
    int nv, nt, nh;      /* vertices, triangles, hinges */
    double *x, *v;       /* 3nv: positions, velocities */
    double *m;           /* nv: lumped masses */
    double *area;        /* nv: lumped rest areas (air drag) */
    double *uv;          /* 2nv: rest (u,v) */
    int *tri;            /* 3nt */
    int *hinge;          /* 4nh */
    cc_term *term;       /* nterm terms */
    int nterm, capterm;  /* count and capacity */
    cc_bsr *A;           /* system matrix; NULL until the pattern is built */
    cc_filter *F;        /* constraint filter of the current step */
    cc_mpcg_work *W;     /* MPCG work space */
    cc_team *team;       /* threads for the parts of the assembly and the multigrid (p.threads,
                            at most CC_MG_PARTS), or NULL: the caller alone */
    int *con;            /* nv: CON_* set by the user */
    double *cvec;        /* 3nv: pin velocity, plane normal or line direction */
    cc_obstacle *obs;    /* nobs obstacles */
    int nobs, capobs;    /* count and capacity */
    int *contact;        /* nv: 1 + obstacle index of an active contact, 0 if none */
    double *cnormal;     /* 3nv: contact normal of an active contact */
    int *crow;           /* nv: constrained vertices of the last step (reaction rows) */
    int ncrow;           /* their count */
    double *f;           /* 3nv: total force */
    double *b;           /* 3nv: right-hand side */
    double *dv;          /* 3nv: velocity change (kept for the warm start) */
    double *dvp;         /* 9nv: the velocity changes of the three steps before (cg_warm_start 2) */
    int ndv;             /* backward Euler solves of step hdv behind dv and dvp: 0 to 4 */
    double hdv;
    double *z;           /* 3nv: prescribed velocity change */
    double *y;           /* 3nv: position correction */
    double *jdx;         /* 3nv: df/dx (h v0 + y) */
    double *react;       /* 3nv: reactions of the last step */
    double *sx, *sv;     /* 3nv: saved state for rejected steps */
    double *tmp;         /* 3nv: scratch */
    double *C0;          /* CC_MAX_COMP nt: stretch C before an adaptive step */
    int *saved_contact;  /* nv: contact state before an adaptive step */
    int ne;              /* edges (strain limiting) */
    int *edge;           /* 2ne */
    double *rest_len;    /* ne: rest lengths */
    cc_sim_stats st;     /* counters */
    int fault;           /* 1: the last step failed because of a non-finite value or blow-up */
    int psd_retry;       /* 1 while a step's solve is done again with every element stiffness
                            projected to PSD (step.c); the assembly projects as under p.psd_project */
    int (*stop)(void);   /* asked before every step of cc_sim_advance (cc_sim_set_stop), or NULL */
    char err[CC_ERRLEN]; /* last error */
};

/* What one assembly computes (cc_sim_assemble), named field by field at the call:
 *   cc_assembly a = {.x = x, .v = v, .mat = 1, .cm = 1, .cx = -h * h, .cv = -h, .dx = dx,
 *                     .f = f, .jdx = jdx};                      (backward Euler's A, f, jdx)
 *   cc_assembly a = {.x = x, .v = v, .f = f};                   (the forces alone) */
typedef struct cc_assembly {
    const double *x, *v;   /* 3nv: positions and velocities the terms are evaluated at */
    int mat;               /* 1: also A = cm M + cx df/dx + cv df/dv (the pattern built if new) */
    double cm, cx, cv;     /* A's weights of the mass, df/dx and df/dv */
    const double *dx;      /* 3nv or NULL: jdx = df/dx dx is taken along it */
    double *f;             /* 3nv: the total force, gravity and air drag included */
    double *jdx;           /* 3nv, or NULL when dx is */
} cc_assembly;

/* Evaluate every term as a asks: f, energies stored per element, A and jdx as above. 0, or
 * -1 with s->err naming the element. */
int cc_sim_assemble(cc_sim *s, const cc_assembly *a);
/* Bridson's bending force on the hinges of term t (bend_force.c), as cc_sim_assemble does
 * for one term: f += F + D; with a->mat, A += cx sym(dF/dx) + cv dD/dv; with jdx, jdx +=
 * sym(dF/dx) dx; energies and C stored. 0, or -1 with *bad the hinge and *why the reason. */
int cc_bend_force_term(cc_sim *s, cc_term *t, const cc_assembly *a, int *bad, const char **why);
/* the cc_hessian_mode term t uses (hessian.c): CC_HESSIAN_PROJECT under psd_project, else
 * stretch_hessian, shear_hessian or bend_hessian by its kind (user conditions: full) */
int cc_term_hessian(const cc_sim *s, const cc_term *t);
/* apply a closed-form mode to an evaluated element at velocities v (ndof) with stiffness k and
 * damping kd: clamp zeroes d2C_c where w_c = -k C_c - kd dC_c.v > 0, Gauss-Newton every d2C_c;
 * full and project leave it (project acts on the formed Jacobian) */
void cc_hessian_apply(int mode, cc_eval *ev, const double *v, double k, double kd);
#define CC_LANES 4   /* elements a structured kernel evaluates side by side (sim/assembly/lanes.h) */

/* The structured kernels: the fused backward Euler assembly of cc_sim_assemble (f += f_e,
 * A += cx Jx + cv Jv, jdx += Jx dx, energies and C stored) for summed damping, the same
 * numbers as the condition-contract path up to round-off, without forming element Hessians,
 * for the batches b0 <= b < b1 of CC_LANES elements (elements CC_LANES b .. CC_LANES b + 3),
 * with a's x, v, cx, cv, dx, f and jdx (a->mat: they always assemble A).
 * kernel_triangle.c: stretch/bw98 on st and shear/bw98 on sh over the same triangles (either
 * may be NULL); kernel_bend.c: bend/pritchard on the hinges of t. hess: the term's
 * cc_hessian_mode (not project). 0, or -1 with the element in *bad (and its term in
 * *bad_term) and the reason in *why. */
/* t->kdata for the kernel: stretch/bw98 and shear/bw98 CC_KTRI doubles per triangle (dwu[3],
 * dwv[3], alpha, bu, bv), bend/pritchard one (theta0); 0, or -1 when out of memory */
#define CC_KTRI 9
int cc_kernel_pack_triangles(cc_term *t);
int cc_kernel_pack_bend(cc_term *t);
int cc_kernel_triangles(cc_sim *s, cc_term *st, int st_hess, cc_term *sh, int sh_hess, int b0, int b1,
                        const cc_assembly *a, cc_term **bad_term, int *bad, const char **why);
int cc_kernel_bend_pritchard(cc_sim *s, cc_term *t, int hess, int b0, int b1, const cc_assembly *a, int *bad,
                             const char **why);
/* kernel_hinge.c: the other bend formulations (pritchard-exact, bridson, macri,
 * discrete-shells and Bridson's force model four hinges at a time, quadratic one at a time);
 * cc_kernel_hinge_has says which; cc_kernel_pack_hinge packs their rest data (theta0 and a
 * weight or sin, cos of theta0/2) */
int cc_kernel_hinge_has(const cc_term *t);
int cc_kernel_pack_hinge(cc_term *t);
int cc_kernel_hinge(cc_sim *s, cc_term *t, int hess, int b0, int b1, const cc_assembly *a, int *bad,
                    const char **why);
/* build the BSR pattern and the slots of every term if not built; 0 or -1 */
int cc_sim_pattern(cc_sim *s);

#endif
