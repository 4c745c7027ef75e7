/* The cloth simulator (docs/design.md "Simulator"): Baraff & Witkin's backward Euler step
 * solved by MPCG over 3x3-block sparse matrices, with explicit and symplectic Euler for
 * comparison.
 *
 * Life of a simulation:
 *     cc_sim_params p;  cc_sim_preset("pritchard-table1", &p, err);
 *     cc_sim_param_set(&p, "k_bend", "1e-4", err);            (overrides by name)
 *     cc_sim *s = cc_sim_new(mesh, &p, err);                    (the mesh is copied)
 *     cc_sim_pin(s, v, NULL, err);  cc_sim_add_sphere(s, c, r, err);  ...
 *     for (...) if (cc_sim_step(s) < 0) puts(cc_sim_error(s));  (or cc_sim_advance)
 *     cc_sim_positions(s);  cc_sim_energies(s, &e);  cc_sim_free(s);
 * Every function that can fail returns -1 (or NULL) with one line in err (CC_ERRLEN bytes)
 * or in cc_sim_error(s); none of them aborts. Names and plain numbers only cross this
 * interface, so a Lua binding can wrap it one function at a time.
 *
 * The implementation is in three layers, each including only the ones below it and this
 * interface:
 *   model/     set-up, parameters, the step and its integrators, constraints, obstacles,
 *              strain limiting, the probe (implements the functions declared here)
 *   assembly/  the simulation's state (sim_internal.h), element forces and stiffness, the
 *              structured kernels, the assembly of A
 *   algebra/   3x3-block sparse matrices, the constraint filter, MPCG, multigrid
 */
#ifndef CC_SIM_H
#define CC_SIM_H

#include "conditions/condition.h"
#include "mesh/mesh.h"
#include "sim/algebra/team.h"

#define CC_SIM_NAMELEN 32   /* size of the variant name fields */
#define CC_SIM_MAX_THREADS CC_TEAM_MAX   /* the threads parameter at most */

/* bend_condition naming Bridson et al.'s bending force model (002, 004) instead of a
 * condition: F_i = k_bend w (sin(theta/2) - sin(theta0/2)) u_i, w = |e|^2/(|nA| + |nB|),
 * damped by D_i = -d_bend w (dtheta/dt) dtheta/dx_i (summed over the hinge's vertices, the
 * per-particle option does not apply). Its Jacobian is not symmetric: the system matrix and
 * the product df/dx dx both use its symmetric part. Its "bend" energy is the work potential
 * k w [2 cos(theta0/2) - 2 cos(theta/2) - sin(theta0/2)(theta - theta0)], exact for bending
 * of rigid triangles only (the force has no energy). Details: src/sim/assembly/bend_force.c. */
#define CC_SIM_BEND_FORCE "bridson-force"

typedef enum cc_integrator {
    CC_BACKWARD_EULER,    /* Baraff & Witkin (15)-(16), one Newton step, solved by MPCG */
    CC_EXPLICIT_EULER,    /* x1 = x0 + h v0, v1 = v0 + h a(x0, v0) (004) */
    CC_SYMPLECTIC_EULER   /* v1 = v0 + h a(x0, v0), x1 = x0 + h v1 */
} cc_integrator;

typedef enum cc_strain_mode {
    CC_STRAIN_NONE,       /* no strain limiting */
    CC_STRAIN_PROVOT,     /* iterative position correction after the step (002, Provot) */
    CC_STRAIN_BRIDSON     /* velocity correction before positions are updated (002, Bridson & Fedkiw) */
} cc_strain_mode;

/* How the curvature part of a term's stiffness enters the backward Euler matrix A and the
 * product df/dx dx. Per element and component c, with w_c = -k C_c - k_d Cdot_c (Cdot summed
 * over the element, 001 (58)), the force Jacobian is
 *   df/dx = sum_c (-k dC_c dC_c^T + w_c d2C_c)          (forces.h; Baraff & Witkin Section 4)
 * and these modes change only the w_c d2C_c part (the force itself is never changed):
 *   CC_HESSIAN_FULL          as it stands (the default);
 *   CC_HESSIAN_CLAMP         w_c d2C_c left out where w_c > 0 (the element pushes outwards:
 *                            compressed stretch); where d2C_c is PSD and orthogonal to dC_c,
 *                            as in stretch/bw98 (001 (14)-(15): w^ against I - w^ w^T), this is
 *                            exactly the projection of the component's stiffness
 *                            k dC dC^T - w_c d2C_c onto the PSD cone, at no cost;
 *                            for other conditions a partial fix;
 *   CC_HESSIAN_GAUSS_NEWTON  w_c d2C_c left out everywhere (stiffness k dC^T dC only);
 *   CC_HESSIAN_PROJECT       the element's -df/dx projected onto the PSD cone by an
 *                            eigen-decomposition (cc_psd_project), as psd_project does for
 *                            every term.
 * docs/reliability.md ("Stability of the implicit step") measures why: with 001 Table 1
 * at h = 0.02, the C d2C of compressed stretch elements (and, less often, of shear elements)
 * outweighs the vertex masses and makes A indefinite on the free DOFs; a step whose MPCG
 * does not meet that negative curvature (so no PSD retry) can blow up. stretch_hessian = clamp
 * with shear_hessian = gauss-newton keeps A positive definite there at no extra cost per
 * element; the bend term's C d2C was measured to be irrelevant (k_bend 1e-5 and 1e-3). */
typedef enum cc_hessian_mode {
    CC_HESSIAN_FULL,
    CC_HESSIAN_CLAMP,
    CC_HESSIAN_GAUSS_NEWTON,
    CC_HESSIAN_PROJECT
} cc_hessian_mode;

/* Everything that sets up a run. Fill with cc_sim_preset, then change fields or use
 * cc_sim_param_set. Units: SI (m, kg, s). */
typedef struct cc_sim_params {
    double k_stretch, k_shear, k_bend;   /* stiffness k of each condition */
    double d_stretch, d_shear, d_bend;   /* damping constant k_d of each condition */
    double density;         /* mass per unit rest area; masses are lumped (a third of each triangle) */
    double gravity[3];      /* acceleration of gravity, 3 */
    double air_drag;        /* k_a: f_i = -k_a A_i v_i with A_i the vertex's lumped rest area */
    double area_power;      /* p in alpha = a^p of stretch and shear */
    double bu, bv;          /* rest stretch in u and v */
    double h;               /* time step (the largest step when adaptive) */
    int integrator;         /* a cc_integrator */
    int damping;            /* 0: Cdot summed over the element's particles (001 (58)); 1: per particle */
    int psd_project;        /* 1: project each element's stiffness block to PSD before assembly
                               (every term, whatever the *_hessian modes say) */
    int stretch_hessian;    /* a cc_hessian_mode for the stretch term (default full) */
    int shear_hessian;      /* a cc_hessian_mode for the shear term (default full) */
    int bend_hessian;       /* a cc_hessian_mode for the bend term (default full); the
                               bridson-force model takes full or project only */
    int kernels;            /* 1 (default): backward Euler assembles stretch/bw98, shear/bw98 and
                               bend/pritchard with the structured kernels (kernel_triangle.c,
                               kernel_bend.c; summed damping, modes other than project);
                               0: every term through the condition contract, the reference
                               the kernels are tested against (same numbers up to round-off) */
    double cg_tol;          /* MPCG relative tolerance */
    int cg_max_iter;        /* MPCG iteration cap */
    int precond;            /* a cc_precond (sim/algebra/mpcg.h): 0 Jacobi, 1 block Jacobi, 2 Ascher & Boxerman, 3 block IC(0),
                               4 aggregation multigrid, 5 auto (Ascher & Boxerman while its solves
                               take at most CC_MPCG_AUTO_ITER = 20 iterations a step on average
                               and fewer than 60 in any one, then the multigrid; mpcg.c) */
    int cg_warm_start;      /* where MPCG starts: 0 from z (dv = 0 on the free DOFs); 1 from the
                               previous step's velocity change; 2 (default) from that, or, where it
                               would clearly have done better at the last step, from
                               dv_{n-2} + (dv_{n-1} - dv_{n-3}) / 2, which follows a velocity change
                               alternating from step to step, as on the bench scene (step.c,
                               warm_guess) */
    double stretch_limit;   /* adaptive steps: largest allowed change of a stretch C in one step */
    double h_min;           /* adaptive steps: give up below this step */
    int grow_after;         /* adaptive steps: double h after this many accepted steps */
    int strain_mode;        /* a cc_strain_mode */
    double strain_max;      /* strain limit: edge lengths kept within (1 +- strain_max) L */
    int strain_iters;       /* strain limiting sweeps over the edges */
    double max_speed;       /* a vertex faster than this is a blow-up */
    double soft_step;       /* backward Euler solves a step again with every element projected to
                               PSD when u^T A u < soft_step u^T M u for its free velocity change u
                               (A nearly indefinite along the step; step.c, soft_step); default
                               0.5, 0 turns the check off */
    double contact_margin;  /* obstacles: a vertex closer than this to a surface is in contact */
    int threads;            /* threads that run the parts of the assembly and of the multigrid
                               preconditioner side by side (CC_MG_PARTS parts, multigrid.h; team.h): 0
                               (default) one per online CPU, 1 the caller alone; the results are
                               the same bit for bit with any number */
    char stretch_variant[CC_SIM_NAMELEN];  /* registry variant of "stretch" */
    char shear_variant[CC_SIM_NAMELEN];    /* registry variant of "shear" */
    char bend_condition[CC_SIM_NAMELEN];   /* registry condition used on hinges ("bend"), or
                                              CC_SIM_BEND_FORCE for Bridson's force model */
    char bend_variant[CC_SIM_NAMELEN];     /* its variant ("pritchard", ...); not used by the
                                              force model, and the simulation's copy reads "bridson" */
} cc_sim_params;

/* Fill p with a named preset: "pritchard-table1" (001 Table 1, alpha = a^0.75),
 * "thesis-table3.1" (003 Table 3.1, alpha = sqrt(a)). 0, or -1 with err. */
int cc_sim_preset(const char *name, cc_sim_params *p, char *err);
/* the preset names, NULL-terminated */
const char *const *cc_sim_preset_names(void);
/* Set one parameter by its field name from text ("k_stretch", "5000"; "integrator",
 * "backward-euler"; "gravity", "0 0 -9.81"); 0, or -1 with err. */
int cc_sim_param_set(cc_sim_params *p, const char *name, const char *value, char *err);
/* the word of an enum parameter's value ("precond" -> "multigrid"); NULL if name is not an
 * enum parameter or the value has no word */
const char *cc_sim_param_word(const cc_sim_params *p, const char *name);
/* the name of the i-th enum parameter (integrator, damping, precond, ...), NULL past the last */
const char *cc_sim_param_enum_name(int i);
/* Check a parameter set for consistency; 0, or -1 with err. */
int cc_sim_params_check(const cc_sim_params *p, char *err);

typedef struct cc_sim cc_sim;

/* A simulation of mesh m (copied: positions, (u,v), triangles, hinges) with parameters p.
 * Stretch and shear act on every triangle, the bend condition (or the force model
 * CC_SIM_BEND_FORCE) on every hinge (rest angle 0: the (u,v) rest shape is flat); a
 * condition with k = 0 and k_d = 0 is left out, so a missing registry entry is an error
 * only when it is used. NULL with err. */
cc_sim *cc_sim_new(const cc_mesh *m, const cc_sim_params *p, char *err);
void cc_sim_free(cc_sim *s);
/* the parameters in use */
const cc_sim_params *cc_sim_get_params(const cc_sim *s);
/* the last error (one line, no newline), "" if none */
const char *cc_sim_error(const cc_sim *s);

/* A user-defined condition (for instance one written in Lua): for element `elem`, fill
 * out->C (and dC, d2C as `want` asks) at the element's positions x (3*nv), exactly as a
 * registry variant's eval does; return the filled CC_WANT_* bits or -1 where undefined. */
typedef struct cc_sim_condition {
    const char *name;   /* for messages and energies (copied) */
    int nv;             /* vertices per element, 2..4 */
    int ncomp;          /* components of C, 1..2 */
    int (*eval)(void *ctx, int elem, const double *x, int want, cc_eval *out);
    void *ctx;          /* passed back to eval */
} cc_sim_condition;

/* Add a user condition over nelem elements (elems: nelem by c->nv vertex indices, copied)
 * with stiffness k and damping kd. 0, or -1 with err. */
int cc_sim_add_condition(cc_sim *s, const cc_sim_condition *c, const int *elems, int nelem,
                         double k, double kd, char *err);

/* Constraints on vertices (Baraff & Witkin 5.3). A pinned vertex moves with velocity vel
 * (NULL: stays put); a sliding vertex keeps its velocity component along the plane normal
 * or off the line direction at zero. A later call on the same vertex replaces the earlier. */
int cc_sim_pin(cc_sim *s, int v, const double *vel, char *err);
int cc_sim_slide_plane(cc_sim *s, int v, const double *normal, char *err);
int cc_sim_slide_line(cc_sim *s, int v, const double *dir, char *err);
int cc_sim_release(cc_sim *s, int v, char *err);

/* Analytic obstacles, handled as constraints in the solve with position correction
 * (Baraff & Witkin Section 6, frictionless): a free vertex that ends a step inside an obstacle
 * is put back on its surface (through the face it came in by) and from the next step on its
 * normal velocity is constrained (S = I - n n^T); the contact ends when the constraint's
 * reaction would pull or the vertex is more than 0.1 mm off the surface. */
int cc_sim_add_plane(cc_sim *s, const double *point, const double *normal, char *err);
int cc_sim_add_sphere(cc_sim *s, const double *center, double radius, char *err);
/* a round table: a disk of the given radius at height top_z centred on (cx, cy), standing
 * on a solid cylinder of the same radius down to floor_z */
int cc_sim_add_table(cc_sim *s, double cx, double cy, double top_z, double floor_z, double radius,
                     char *err);

/* One step of p.h with the chosen integrator. 0, or -1 with cc_sim_error set; on failure
 * the state is that before the step. A backward Euler solve that meets negative curvature
 * (the C d2C terms can make A indefinite), or whose velocity change u has u^T A u <
 * p.soft_step u^T M u (A nearly indefinite along the step), is done again with each
 * element's stiffness projected to PSD (counted in cc_sim_stats.psd_retries); one that only
 * reaches the iteration cap is accepted, as Baraff & Witkin do (last_cg_converged = 0). */
int cc_sim_step(cc_sim *s);
/* Advance by time T with adaptive steps (at most p.h): a step is rejected and halved when a
 * stretch condition changes by more than p.stretch_limit, MPCG does not converge or the
 * step blows up, and h doubles again after p.grow_after accepted steps. 0, or -1 when a
 * step below p.h_min would be needed (the state is that at the last accepted step). */
int cc_sim_advance(cc_sim *s, double T);
/* A function cc_sim_advance asks before every step; when it returns nonzero the advance ends
 * there (-1, "stopped": the state is that at the last accepted step). NULL: never (default).
 * The Lua binding passes its SIGINT / CPU-limit check. */
void cc_sim_set_stop(cc_sim *s, int (*stop)(void));

/* Counters since creation. */
typedef struct cc_sim_stats {
    long steps;              /* accepted steps */
    long rejected;           /* rejected (halved) adaptive steps */
    long cg_iterations;      /* MPCG iterations, all accepted steps */
    int last_cg_iterations;  /* MPCG iterations of the last step */
    int last_cg_converged;   /* 1 if the last solve converged */
    double time;             /* simulated time */
    double h;                /* current adaptive step */
    double assembly_s;       /* wall time in force and matrix assembly, seconds */
    double solve_s;          /* wall time in MPCG, seconds */
    long psd_retries;        /* steps solved again with PSD-projected element stiffness after
                                MPCG met negative curvature (A indefinite) or a soft step */
    long multigrid_from;     /* precond auto: the step whose solve went over to the multigrid
                                (0: the blocks throughout) */
} cc_sim_stats;
void cc_sim_get_stats(const cc_sim *s, cc_sim_stats *st);

/* State: nv by 3, row-major. */
int cc_sim_vertex_count(const cc_sim *s);
const double *cc_sim_positions(const cc_sim *s);
const double *cc_sim_velocities(const cc_sim *s);
/* lumped masses, nv (a pinned vertex keeps its mass; the pin supplies the reaction) */
const double *cc_sim_masses(const cc_sim *s);
/* replace positions and/or velocities (either may be NULL) */
void cc_sim_set_state(cc_sim *s, const double *x, const double *v);

/* Energies at the current state. */
typedef struct cc_sim_energy {
    double stretch;   /* sum k/2 C.C over stretch elements */
    double shear;     /* over shear elements */
    double bend;      /* over hinges (the force model: its work potential, CC_SIM_BEND_FORCE) */
    double user;      /* over user conditions */
    double kinetic;   /* sum m/2 |v|^2 */
    double gravity;   /* -sum m g.x */
    double total;     /* all of the above */
} cc_sim_energy;
int cc_sim_energies(cc_sim *s, cc_sim_energy *e);
/* Per-element energies of a term: "stretch", "shear" (nt values), "bend" (nh), or a user
 * condition's name; writes at most cap values to out and returns the element count, or -1. */
int cc_sim_element_energies(cc_sim *s, const char *term, double *out, int cap);

/* Force the constrained DOFs of vertex v took in the last backward Euler step (the
 * constraint's reaction: (A dv - b)/h restricted to them), 3 values; zeros for a free vertex. */
void cc_sim_reaction(const cc_sim *s, int v, double *out);

/* The total force f(x, v) at the current state (elastic, damping, gravity, drag), 3nv. */
int cc_sim_force(cc_sim *s, double *f);
/* The assembled Jacobians at the current state as a dense 3nv by 3nv row-major matrix:
 * which = 0 for df/dx, 1 for df/dv (for checks and tests on small meshes). */
int cc_sim_jacobian_dense(cc_sim *s, int which, double *J);

#endif
