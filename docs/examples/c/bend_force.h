/* A student's Bridson bending force on one hinge, with one mistake planted on request.
 *
 *   F_i = k |e|^2 / (|nA| + |nB|) (sin(theta/2) - sin(theta0/2)) u_i,   i = 0..3
 *
 * as seed 004 builds it (Bridson et al. 2003), in the labels of `clothcheck eval`: hinge
 * x0..x3, shared edge x1-x2, x0 in triangle A and x3 in triangle B,
 *   nA = (x2 - x0) x (x1 - x0),  nB = (x1 - x3) x (x2 - x3),  e = x1 - x2,
 *   theta = atan2((nA^ x nB^) . e^, nA^ . nB^).
 *
 * Arrays: x[3m+s] is axis s of vertex m (12 doubles); F likewise; J[12*i + j] = dF_i/dx_j.
 */
#ifndef BEND_FORCE_H
#define BEND_FORCE_H

/* The mistakes one can plant (each keeps the Jacobian the derivative of the force it gives,
 * except nan_flat, which breaks only the Jacobian). */
typedef enum bend_mistake {
    BEND_RIGHT,          /* no mistake */
    BEND_SIGN,           /* the force pushes the wrong way (and its Jacobian with it) */
    BEND_MISSING_TERM,   /* u1, u2 without their triangle-B terms */
    BEND_RELABELLED,     /* the hinge read as shared edge x0-x1, wings x2 and x3 */
    BEND_FORGOT_K,       /* the stiffness k left out */
    BEND_NAN_FLAT,       /* sin(theta/2) = sqrt((1 - cos theta)/2) differentiated as written */
    BEND_MISTAKES
} bend_mistake;

/* The force's parameters: what a simulator would store per hinge. */
typedef struct bend_params {
    double k;               /* bending stiffness */
    double theta0;          /* rest angle */
    bend_mistake mistake;   /* the planted mistake */
} bend_params;

/* the mistake named s ("sign", "missing-term", ...), or -1 */
int bend_mistake_parse(const char *s);

/* F (12) and, if J != NULL, dF/dx (12 x 12) at x; 0, or -1 where a triangle or the edge has
 * zero size */
int bend_force(const bend_params *p, const double x[12], double F[12], double J[144]);

#endif
