/* The findings of a diagnosis (diagnose.h says what each kind means): plain data, kept apart so
 * that an audit row can hold its diagnosis without the audit depending on the diagnosis. */
#ifndef CC_FINDING_H
#define CC_FINDING_H

#define CC_DIAG_MAX   10   /* findings per row, at most */
#define CC_DIAG_CASES 16   /* failing elements examined, at most */
#define CC_DIAG_GROWTH 48  /* elements whose errors are ranked against a feature (grows-with) */

typedef enum cc_finding_kind {
    CC_FIND_SIGN,
    CC_FIND_SCALE,
    CC_FIND_ASYMMETRIC,
    CC_FIND_FROZEN,
    CC_FIND_OFF_REST,
    CC_FIND_TRANSLATION,
    CC_FIND_ROTATION,
    CC_FIND_LOCALIZED,
    CC_FIND_DIRECTION,
    CC_FIND_PROJECTOR,
    CC_FIND_PROPORTIONAL,
    CC_FIND_RELABELLED,
    CC_FIND_SWAP,
    CC_FIND_REST_ANGLE,
    CC_FIND_GAUSS_NEWTON,
    CC_FIND_PROJECTED,
    CC_FIND_NONFINITE,
    CC_FIND_GROWS,
    CC_FIND_UNKNOWN,
    CC_FIND_COUNT
} cc_finding_kind;

typedef struct cc_finding {
    cc_finding_kind kind;
    double factor;        /* scale: A = factor R (sign: -1) */
    unsigned vertices;    /* bit m: vertex m (asymmetric, localized, direction; sign and scale
                             when they hold on some vertices only); 0 if not applicable */
    const char *along;    /* direction: the named vector; NULL otherwise */
    int share, of;        /* holds on `share` of the `of` failing elements examined */
    char text[320];       /* one or two sentences for a student */
} cc_finding;

typedef struct cc_diagnosis {
    int n;                            /* findings */
    cc_finding f[CC_DIAG_MAX];
} cc_diagnosis;

#endif
