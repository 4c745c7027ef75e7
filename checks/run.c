/* An audit and the diagnosis of its failing rows (audit.h): the one place that uses both. */
#include "checks/audit.h"
#include "checks/diagnose.h"

int cc_audit_run(const cc_target *t, const cc_audit_opts *o, cc_audit *a)
{
    if (cc_audit_rows(t, o, a) < 0) return -1;
    if (cc_target_pending(t)) return 0;   /* the rows hold stand-ins: diagnose them once they do not */
    for (int i = 0; i < a->nrows; i++)
        if (cc_diagnose_wanted(a, &a->rows[i])) cc_diagnose_row(a, &a->rows[i], &a->rows[i].diag);
    return 0;
}
