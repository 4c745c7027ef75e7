/* Checks of a whole simulator's assembled forces and matrices, from the outside (check-system).
 *
 * A system target gives, at any state (x, v) of a mesh and step h, what it has of: the energy
 * E (its conservative forces' potential, gravity's included), the total force f, the force's
 * Jacobians df/dx and df/dv (sparse), its external part (gravity), and Baraff & Witkin's
 * system A = M - h df/dv - h^2 df/dx, b = h (f + h df/dx v) ((15)-(16)). The checks compare
 * these with each other by directional differences along random directions (cheap on big
 * meshes: a few evaluations per direction, whatever the size) and, where they differ, narrow
 * the difference down by halving the set of vertices a direction moves, to the vertices, the
 * 3x3 blocks and the elements around them, and say what kind of difference a block shows (a
 * sign, a doubled or missing term, a transposed block, a block at the wrong vertex).
 *
 *   finite       every number of every answer is finite: a NaN or an infinity fails, named by
 *                state, part, vertex and entry; a state whose answers are not all finite is left
 *                out of the other checks (their findings are about the rest)
 *   force        f = -grad E at zero velocity (damping forces depend on v and have no energy)
 *   df/dx        df/dx d against differences of f along d, at zero velocity
 *   df/dx moving the same at a state with velocities, reported: three forms of the damping's
 *                part of df/dx are right (exact; Baraff & Witkin's, Section 5.2, which leaves its
 *                term dC/dx dCdot/dx^T out; the derivative left out) and named; a multiple of the
 *                first two (a sign, a factor) fails, and so does a part not odd in v where the
 *                force's damping part is (df/dx taken at another state)
 *   df/dv        df/dv d against differences of f along a change of velocity d
 *   symmetry     df/dx = df/dx^T (gated where the forces have an energy and agree with it)
 *   net force    internal forces (f minus external) sum to zero
 *   net torque   ... and have no torque
 *   translation  df/dx t = 0 for a rigid translation t
 *   rotation     df/dx (w x x) = w x f_internal for a rigid rotation w (zero velocity)
 *   mass         M = A + h df/dv + h^2 df/dx is a lumped mass: 3x3 diagonal blocks m I, m > 0
 *   b            b = h (f + h df/dx v)
 * With the terms of what the program claims to simulate (opts.terms: one target per term, each
 * giving its energy and force, e.g. clothcheck's own simulator with only that term), four more,
 * and a difference is put down to a term where it is a multiple of that term alone (missing,
 * summed twice, the wrong sign):
 *   claim: energy   E against the terms' energies summed, at zero velocity, up to a constant (an
 *                   energy is defined up to one: the program's less the claim's at the first state
 *                   is taken off every state), against how much the claimed energy changes from
 *                   state to state
 *   claim: force    f against the terms' forces summed
 *   claim: df/dx    df/dx d against differences of the terms' forces (zero velocity)
 *   claim: df/dv    df/dv d against differences of the terms' forces along a velocity change
 */
#ifndef CC_SYSTEM_H
#define CC_SYSTEM_H

#include "checks/csr.h"
#include "mesh/mesh.h"

#define CC_SYS_ENERGY   1
#define CC_SYS_FORCE    2
#define CC_SYS_DFDX     4
#define CC_SYS_DFDV     8
#define CC_SYS_SYSTEM   16   /* A and b */
#define CC_SYS_EXTERNAL 32
#define CC_SYS_ALL      63

/* What a target gives at one state; arrays of 3n are the caller's, matrices the target's
 * (cc_sys_eval_clear frees them). */
typedef struct cc_sys_eval {
    int have;             /* CC_SYS_* bits filled */
    double E;
    double *f, *ext, *b;  /* 3n each, allocated by cc_sys_eval_init */
    cc_csr dfdx, dfdv, A;
} cc_sys_eval;

typedef struct cc_sys_target {
    const cc_mesh *mesh;  /* the rest mesh: vertices, (u,v), triangles, hinges */
    int provides;         /* CC_SYS_* bits it can give */
    void *ctx;
    /* the `want` bits of (x, v) with step h into out; 0, or -1 with a one-line err (the
     * program misbehaved: the checks stop) */
    int (*eval)(void *ctx, const double *x, const double *v, double h, int want, cc_sys_eval *out, char *err);
    /* the relative rounding of its numbers, asked after its first answer (2^-24 for a program
     * computing in floats, half a unit of the last digit it prints), or NULL for doubles in full:
     * the checks' tolerances and difference steps follow it, and a claim is then compared at
     * the positions rounded to floats */
    double (*precision)(void *ctx);
} cc_sys_target;

int cc_sys_eval_init(cc_sys_eval *e, int n);
void cc_sys_eval_clear(cc_sys_eval *e);   /* frees the matrices, keeps the arrays */
void cc_sys_eval_free(cc_sys_eval *e);

#define CC_SYS_FINDINGS 8

typedef struct cc_sys_check {
    const char *name;     /* "force = -grad E", "df/dx", ... */
    const char *note;     /* why it does not apply, or what it compares */
    int applies, gates, pass;
    int tests;            /* comparisons made */
    double max_rel;       /* largest relative difference */
    int nfind;
    char find[CC_SYS_FINDINGS][480];   /* where and what kind, one line each */
} cc_sys_check;

enum { CC_SYS_C_FORCE, CC_SYS_C_DFDX, CC_SYS_C_DFDX_MOVING, CC_SYS_C_DFDV, CC_SYS_C_SYM, CC_SYS_C_NETF, CC_SYS_C_TORQUE,
       CC_SYS_C_TRANS, CC_SYS_C_ROT, CC_SYS_C_MASS, CC_SYS_C_B, CC_SYS_C_CLAIM_E, CC_SYS_C_CLAIM_F, CC_SYS_C_CLAIM_DFDX,
       CC_SYS_C_CLAIM_DFDV, CC_SYS_C_FINITE, CC_SYS_CHECKS };

#define CC_SYS_MAX_TERMS 8

typedef struct cc_sys_opts {
    unsigned long long seed;
    double h;             /* the step sent with every state */
    int directions;       /* random directions per state and check (default 3) */
    int localize;         /* vertices to narrow a difference down to, at most (default 4) */
    const cc_sys_target *terms;   /* what the program claims, term by term (energy and force), or NULL */
    const char *const *term_names;   /* "stretch", "bend", "gravity", ... */
    int nterms;
    int base;             /* the number of the first vertex, triangle and hinge in findings: 0, as
                           * the system protocol numbers them (default), or 1 (Lua) */
} cc_sys_opts;

typedef struct cc_sys_report {
    cc_sys_check c[CC_SYS_CHECKS];
    double precision;     /* the target's, as the checks took it (0: doubles in full) */
    int nstates;
    const char *state_name[8];
    long evaluations;     /* states the target was asked for */
    double total_mass;    /* the mass the system implies, when it is given */
} cc_sys_report;

cc_sys_opts cc_sys_defaults(void);

/* run every check on t; 0, or -1 with err when the target failed (misbehaved) */
int cc_sys_run(const cc_sys_target *t, const cc_sys_opts *o, cc_sys_report *r, char *err);

/* 1 if a check that gates failed */
int cc_sys_failed(const cc_sys_report *r);

#endif
