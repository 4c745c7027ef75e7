/* A target whose numbers come from elsewhere in batches: a table of answers, keyed by the
 * element (its positions and rest data), and the list of what was asked and not yet there.
 *
 * The audit engine asks a target for one element at a time; a program spoken to through a
 * pipe answers best a batch at a time. So an audit of such a program runs in passes: each
 * pass is a whole audit against the table, where a question the table cannot answer is
 * recorded as missing and answered with zeros for the time being (so that the pass goes on
 * to ask everything it can); between passes the caller fetches what is
 * missing (cc_memo_missing, cc_memo_store) and runs the audit again, until a pass misses
 * nothing. The engine is deterministic, so that last pass is the audit of the program.
 *
 * Stored answers are in the condition form: value C, gradient dC/dx, Hessian d2C/dx2 (a force
 * goes in as its energy E, -F and -dF/dx). Numbers that are not finite are kept as given.
 */
#ifndef CC_MEMO_H
#define CC_MEMO_H

#include "checks/target.h"

#define CC_MEMO_REST 24   /* rest numbers that tell elements apart (cc_memo_rest_key) */

typedef struct cc_memo_entry {
    double x[CC_MAX_DOF];
    double rest[CC_MEMO_REST];
    cc_rest r;              /* the rest data it was asked with, for the caller's request */
    int asked;              /* CC_WANT_* bits asked and not yet answered */
    int answered;           /* CC_WANT_* bits answered (present or not) */
    int have;               /* CC_WANT_* bits present in the answers */
    double C[CC_MAX_COMP];
    double *g;              /* ncomp x ndof, when CC_WANT_GRAD was answered */
    double *H;              /* ncomp x ndof x ndof, when CC_WANT_HESS was answered */
} cc_memo_entry;

typedef struct cc_memo {
    int nv, ncomp;
    int provides;            /* CC_WANT_* bits worth asking for (0: all) */
    cc_memo_entry *e;        /* entries */
    int n, cap;
    int *slot;               /* open-addressing hash of entry indices, -1 empty */
    int nslot;
    int *miss;               /* entries with asked bits, in the order asked */
    int nmiss, capmiss;
    long lookups, hits;      /* counters of the last pass */
} cc_memo;

/* an empty table for elements of nv vertices and ncomp components; 0 or -1 (memory) */
int cc_memo_init(cc_memo *m, int nv, int ncomp);
void cc_memo_free(cc_memo *m);

/* the target t answering from m (its callbacks and context; names and claims are the
 * caller's to fill) */
void cc_memo_target(cc_memo *m, cc_target *t);

/* the rest numbers an element is told apart by, into key (CC_MEMO_REST doubles) */
void cc_memo_rest_key(const cc_rest *r, double *key);

/* entries with questions outstanding: their count; index i < count through cc_memo_missing */
int cc_memo_missing_count(const cc_memo *m);
cc_memo_entry *cc_memo_missing(cc_memo *m, int i);
/* forget the list of outstanding questions (after their answers were stored) */
void cc_memo_clear_missing(cc_memo *m);

/* the answer to entry e: the bits `have` of what was asked, C, g (ncomp x ndof) and H (ncomp x
 * ndof x ndof) as far as have says; 0 or -1 (memory) */
int cc_memo_store(cc_memo *m, cc_memo_entry *e, int have, const double *C, const double *g, const double *H);

/* the entry for (x, r), or NULL if it was never asked */
const cc_memo_entry *cc_memo_find(const cc_memo *m, const double *x, const cc_rest *r);

#endif
