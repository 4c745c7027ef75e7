/* The kinds of mistake a diagnosis names: one table, one entry a kind.
 *
 * Each entry is X(ID, name, rank, detector, summary):
 *   ID        the enum's name, CC_FIND_ID (and the public CLOTHCHECK_KIND_ID, generated from
 *             this file into clothcheck.h by CMakeLists.txt)
 *   name      as reports, JSON and the docs write it (docs/derive.md lists every one, in this
 *             order: tests/test_diagnose.c checks it)
 *   rank      the order findings are listed in: 0 explains the whole error (a sign, a factor),
 *             1 says where the right numbers went or where they stop being numbers, 2 describes
 *             a shape of the error
 *   detector  the function of checks/diagnose.c that looks for it in a failing derivative row,
 *             run in this order; NONE where another entry's detector reports it (scale with sign,
 *             rotation with translation, angle-range with rest-angle) or the diagnosis itself
 *             does (unknown)
 *   summary   one line: what the kind means
 * The value row's diagnosis (a value against a claim) names a few of these kinds too. A kind
 * added later goes at the end, so that the public enum's values stay what they were.
 */
#ifndef CC_KINDS_H
#define CC_KINDS_H

#define CC_FINDING_KINDS(X)                                                                                       \
    X(NONFINITE, "non-finite", 1, find_nonfinite, "a number that is not finite: the part, entry and element")     \
    X(FROZEN, "frozen-magnitude", 0, find_frozen, "the derivative with the magnitudes of unit vectors frozen")    \
    X(SIGN, "sign", 0, find_scale, "the reference negated (on the entries that differ)")                          \
    X(SCALE, "scale", 0, NONE, "the reference times one constant over the elements")                              \
    X(ASYMMETRIC, "asymmetric", 2, find_asymmetric, "a Hessian that is not symmetric")                            \
    X(OFF_REST, "off-rest", 2, find_off_rest, "right at the rest state, wrong away from it: a dropped term")       \
    X(TRANSLATION, "translation", 2, find_rigid, "vertex blocks that do not sum to zero")                         \
    X(ROTATION, "rotation", 2, NONE, "not invariant under rigid rotations")                                       \
    X(LOCALIZED, "localized", 2, find_localized, "the error lives on some vertices only")                         \
    X(DIRECTION, "direction", 2, find_direction, "every error vector along one named vector of the element")      \
    X(PROJECTOR, "projector", 1, find_projector, "a unit vector's derivative without its projector")              \
    X(PROPORTIONAL, "proportional", 1, find_proportional, "the reference times a factor that varies by element")  \
    X(RELABELLED, "relabelled", 1, find_relabelled, "the right numbers with the vertices in another order")       \
    X(SWAP, "component-swap", 1, find_swap, "one component's numbers returned for another's")                     \
    X(REST_ANGLE, "rest-angle", 0, find_rest_angle, "the claim with the rest angle left out or negated")          \
    X(GAUSS_NEWTON, "gauss-newton", 0, find_gauss_newton, "the Jacobian without its term -k C d2C")               \
    X(PROJECTED, "projected", 0, find_projected, "the Jacobian projected onto the definite matrices")             \
    X(GROWS, "grows-with", 2, find_growth, "the error grows with a feature of the element")                       \
    X(UNKNOWN, "unknown", 2, NONE, "none of the kinds above fits")                                              \
    X(ANGLE_RANGE, "angle-range", 0, NONE, "theta - theta0 a whole turn off: an angle taken in [0, 2 pi)")

#endif
