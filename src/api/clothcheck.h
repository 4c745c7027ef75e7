/* clothcheck: audit the derivatives of your own cloth conditions and forces from C or C++.
 *
 * Installed as <clothcheck/clothcheck.h>; link with `pkg-config --cflags --libs --static
 * clothcheck` or, in CMake, find_package(clothcheck) and target clothcheck::clothcheck.
 * docs/api.md walks through a complete example.
 *
 * You describe one element of your model by function pointers and a user pointer, in one of
 * two forms:
 *
 *   condition form   C (ncomp components), its gradient dC and Hessian d2C, as in Baraff &
 *                    Witkin: set `eval`;
 *   force form       the force F on the element's vertices, optionally its Jacobian dF/dx and
 *                    the energy E it derives from: set `force` (and `jacobian`, `energy`).
 *
 * clothcheck_audit evaluates it on a seeded batch of random elements and edge cases (flat and
 * folded hinges, slivers, ...) and compares its numbers with finite differences of its own
 * value and, when you say what it implements (clothcheck_options.claims), with that formula
 * entry by entry. Read back the verdict, the rows of the table and, for failing rows, what kind
 * of mistake they show (a flipped sign, a missing factor, ...).
 *
 * Arrays are plain doubles, row-major, with n = 3 nv degrees of freedom numbered 3m + s
 * (vertex m, axis s):
 *   x      [n]                 x[3m+s] is axis s of vertex m
 *   C      [ncomp]             the condition's components
 *   dC     [ncomp][n]          dC[k*n + i] = dC_k / dx_i
 *   d2C    [ncomp][n][n]       d2C[(k*n + i)*n + j] = d2C_k / dx_i dx_j
 *   F      [n]                 F[3m+s] is axis s of the force on vertex m
 *   dFdx   [n][n]              dFdx[i*n + j] = dF_i / dx_j
 *   E      [1]                 the energy whose negative gradient F is
 * Vertex labels are those of `clothcheck eval` (Pritchard 2003): a triangle is x0, x1, x2; a
 * hinge is x0..x3 with the shared edge x1-x2, x0 in one triangle and x3 in the other; a spring
 * is x0, x1.
 *
 * Every function is reentrant: audits may run in several threads at once, and a callback may
 * itself start an audit. Bad arguments never crash: clothcheck_audit returns NULL and
 * clothcheck_error() says why.
 */
#ifndef CLOTHCHECK_H
#define CLOTHCHECK_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLOTHCHECK_VERSION_MAJOR 0
#define CLOTHCHECK_VERSION_MINOR 1
#define CLOTHCHECK_VERSION_PATCH 0

/* What the engine asks an eval callback for (bits of `want`). */
enum {
    CLOTHCHECK_WANT_VALUE = 1,      /* C */
    CLOTHCHECK_WANT_GRADIENT = 2,   /* dC */
    CLOTHCHECK_WANT_HESSIAN = 4     /* d2C */
};

/* The rest state of one element; only the fields of its kind (nv) are set, the others are 0. */
typedef struct clothcheck_rest {
    int nv;                 /* vertices of the element: 2 spring, 3 triangle, 4 hinge */
    /* triangle (stretch, shear) */
    double uv[6];           /* (u,v) of x0, x1, x2 as u0 v0 u1 v1 u2 v2, with (u0, v0) = (0, 0) */
    double area;            /* a = |(u1-u0)(v2-v0) - (u2-u0)(v1-v0)| / 2 */
    double area_power;      /* p of the area weight alpha = a^p */
    double bu, bv;          /* rest stretch in u and v (1: none) */
    /* hinge (bend) */
    double x_rest[12];      /* the rest positions x0..x3, x_rest[3m+s] */
    double theta0;          /* the rest angle: the signed dihedral angle of x_rest, in (-pi, pi] */
    /* spring */
    double length;          /* rest length L */
} clothcheck_rest;

/* One element of your model. Set nv and either eval (condition form) or force (force form).
 * Callbacks return 0, or any other value where the model is undefined at x (a degenerate
 * element): the engine counts such elements and skips them. */
typedef struct clothcheck_model {
    const char *name;       /* shown in reports, e.g. "my-bend" (NULL: "model") */
    int nv;                 /* vertices per element: 2, 3 or 4 */
    void *user;             /* passed unchanged to every callback */

    /* condition form */
    int ncomp;              /* components of C: 1, 2 or 3 (force form: 0 or 1, one energy) */
    double period;          /* C is an angle modulo period (2 pi for a signed dihedral angle):
                               differences of values are taken modulo it; 0: not periodic, or
                               as the claimed variant's C when claims names one */
    /* fill at least what `want` asks for (the arrays are always there to fill) */
    int (*eval)(void *user, const double *x, const clothcheck_rest *rest, int want,
                double *C, double *dC, double *d2C);

    /* force form: value E, gradient -F, Hessian -dF/dx of one energy; without jacobian
     * (NULL) or energy (NULL) the rows that need them say "not applicable" */
    int (*force)(void *user, const double *x, const clothcheck_rest *rest, double *F);
    int (*jacobian)(void *user, const double *x, const clothcheck_rest *rest, double *dFdx);
    int (*energy)(void *user, const double *x, const clothcheck_rest *rest, double *E);
} clothcheck_model;

/* How to audit. A zero-initialised struct (or NULL) gives the defaults. */
typedef struct clothcheck_options {
    int samples;                /* random elements, 1..100000 (0: 1000); edge cases are added */
    unsigned long long seed;    /* random stream; (seed, case) replays an element (0: 1) */
    const char *claims;         /* what the model says it implements, or NULL for nothing:
                                   "COND/VARIANT" of `clothcheck eval --help` ("bend/bridson",
                                   "stretch/bw98", "spring/linear", ...) -- in the force form,
                                   the energy k/2 C.C of that variant -- or "bridson-force",
                                   Bridson's bending force on a hinge */
    double k;                   /* stiffness of the claimed force or energy (0: 1) */
    double area_power;          /* p of the area weight alpha = a^p handed to the random
                                   triangles (0: 1, as clothcheck audit --area-power) */
} clothcheck_options;

/* What one kind of mistake the engine recognises in a failing row. */
typedef struct clothcheck_finding {
    const char *kind;   /* "sign", "scale", "frozen-magnitude", "rest-angle", "gauss-newton",
                           "relabelled", "proportional", ... (docs/derive.md lists them all) */
    const char *text;   /* one or two sentences for a person */
} clothcheck_finding;

/* One row of the audit table: one quantity against one reference. Its strings live as long
 * as the audit. */
typedef struct clothcheck_row {
    const char *reference;      /* "claim" (what options.claims names), "fd-true" (finite
                                   differences of your value), "fd-frozen", "exact",
                                   "exact-frozen" */
    const char *quantity;       /* "value", "gradient", "hessian", "hessian-vs-gradient",
                                   "symmetry", "translation", "rotation", "rigid-modes",
                                   "taylor" */
    const char *status;         /* "pass", "fail" or "not applicable" */
    int gates;                  /* 1: a "fail" here fails the verdict; 0: reported only */
    double max_rel_error;       /* largest normwise relative error over the elements (NaN if a
                                   NaN was met, the row does not apply, or taylor) */
    const char *worst;          /* its entry and element, "k0 m1 s2 n3 t0 at #17" ("" if none) */
    const char *note;           /* why it does not apply, or what it measures ("" if nothing) */
    int nfindings;              /* findings of a failing gradient or Hessian row, else 0 */
    const clothcheck_finding *findings;  /* nfindings of them */
} clothcheck_row;

/* The result of one audit (opaque). */
typedef struct clothcheck_result clothcheck_result;

/* the audit of model m under options o (NULL: defaults); NULL, with clothcheck_error() set,
 * if m or o is malformed (nv, ncomp, callbacks, claims, samples, k) or memory ran out */
clothcheck_result *clothcheck_audit(const clothcheck_model *m, const clothcheck_options *o);

/* why the calling thread's last clothcheck_audit returned NULL ("" if it did not) */
const char *clothcheck_error(void);

/* 0: the model holds every claim it makes; 1: a gating row fails; -1: r is NULL */
int clothcheck_verdict(const clothcheck_result *r);

/* number of rows of r (0 if r is NULL) */
int clothcheck_row_count(const clothcheck_result *r);

/* row i of r, 0 <= i < clothcheck_row_count(r); NULL otherwise */
const clothcheck_row *clothcheck_row_at(const clothcheck_result *r, int i);

/* the table of r on f, as `clothcheck audit` prints it (nothing if f or r is NULL) */
void clothcheck_print(FILE *f, const clothcheck_result *r);

/* release r (NULL is allowed) */
void clothcheck_free(clothcheck_result *r);

#ifdef __cplusplus
}
#endif

#endif
