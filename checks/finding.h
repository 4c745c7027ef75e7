/* The findings of a diagnosis (kinds.h lists the kinds): plain data, kept apart so
 * that an audit row can hold its diagnosis without the audit depending on the diagnosis. */
#ifndef CC_FINDING_H
#define CC_FINDING_H

#include "checks/kinds.h"

#define CC_DIAG_MAX   10   /* findings per row, at most */
#define CC_DIAG_CASES 16   /* failing elements examined, at most */
#define CC_DIAG_GROWTH 48  /* elements whose errors are ranked against a feature (grows-with) */

/* CC_FIND_NONFINITE, CC_FIND_FROZEN, ...: the kinds of checks/kinds.h, in its order */
#define CC_KIND_ENUM(id, name, rank, detector, summary) CC_FIND_##id,
typedef enum cc_finding_kind { CC_FINDING_KINDS(CC_KIND_ENUM) CC_FIND_COUNT } cc_finding_kind;
#undef CC_KIND_ENUM

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
