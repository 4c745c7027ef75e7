/* A target answering from a table filled in batches (see memo.h). */
#include <stdlib.h>
#include <string.h>
#include "checks/memo.h"

int cc_memo_init(cc_memo *m, int nv, int ncomp)
{
    memset(m, 0, sizeof *m);
    m->nv = nv, m->ncomp = ncomp;
    m->nslot = 1 << 12;
    m->slot = malloc(sizeof *m->slot * (size_t)m->nslot);
    if (!m->slot) return -1;
    for (int i = 0; i < m->nslot; i++) m->slot[i] = -1;
    return 0;
}

void cc_memo_free(cc_memo *m)
{
    for (int i = 0; i < m->n; i++) free(m->e[i].g), free(m->e[i].H);
    free(m->e), free(m->slot), free(m->miss);
    memset(m, 0, sizeof *m);
}

void cc_memo_rest_key(const cc_rest *r, double *key)
{
    double k[CC_MEMO_REST] = {r->nv, r->du1, r->dv1, r->du2, r->dv2, r->area_power, r->bu, r->bv,
                              r->rest_length, r->rest_angle};
    memcpy(k + 10, r->rest_x, sizeof r->rest_x);
    memcpy(key, k, sizeof k);
}

/* FNV-1a over the bytes of x (n doubles) and key */
static unsigned hash_of(const double *x, int n, const double *key)
{
    unsigned h = 2166136261u;
    const unsigned char *p = (const unsigned char *)x;
    for (size_t i = 0; i < sizeof(double) * (size_t)n; i++) h = (h ^ p[i]) * 16777619u;
    p = (const unsigned char *)key;
    for (size_t i = 0; i < sizeof(double) * CC_MEMO_REST; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* the slot holding (x, key), or the empty slot where it belongs */
static int slot_of(const cc_memo *m, const double *x, const double *key)
{
    int n = 3 * m->nv;
    unsigned i = hash_of(x, n, key) & (unsigned)(m->nslot - 1);
    for (;; i = (i + 1) & (unsigned)(m->nslot - 1)) {
        int k = m->slot[i];
        if (k < 0) return (int)i;
        const cc_memo_entry *e = &m->e[k];
        if (!memcmp(e->x, x, sizeof(double) * (size_t)n) && !memcmp(e->rest, key, sizeof e->rest)) return (int)i;
    }
}

/* double the hash table; 0 or -1 */
static int grow_slots(cc_memo *m)
{
    int ns = 2 * m->nslot, *s = malloc(sizeof *s * (size_t)ns);
    if (!s) return -1;
    free(m->slot);
    m->slot = s, m->nslot = ns;
    for (int i = 0; i < ns; i++) s[i] = -1;
    for (int k = 0; k < m->n; k++) m->slot[slot_of(m, m->e[k].x, m->e[k].rest)] = k;
    return 0;
}

/* the entry for (x, r), added if new; NULL on memory exhaustion */
static cc_memo_entry *entry(cc_memo *m, const double *x, const cc_rest *r)
{
    double key[CC_MEMO_REST];
    cc_memo_rest_key(r, key);
    int s = slot_of(m, x, key);
    if (m->slot[s] >= 0) return &m->e[m->slot[s]];
    if (2 * (m->n + 1) > m->nslot) {
        if (grow_slots(m) < 0) return NULL;
        s = slot_of(m, x, key);
    }
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 1024;
        cc_memo_entry *e = realloc(m->e, sizeof *e * (size_t)cap);
        if (!e) return NULL;
        m->e = e, m->cap = cap;
    }
    cc_memo_entry *e = &m->e[m->n];
    memset(e, 0, sizeof *e);
    memcpy(e->x, x, sizeof(double) * (size_t)(3 * m->nv));
    memcpy(e->rest, key, sizeof key);
    e->r = *r;
    m->slot[s] = m->n++;
    return e;
}

/* record that entry e is asked for bits `want` */
static void ask(cc_memo *m, cc_memo_entry *e, int want)
{
    if (!e->asked) {
        if (m->nmiss == m->capmiss) {
            int cap = m->capmiss ? 2 * m->capmiss : 1024;
            int *p = realloc(m->miss, sizeof *p * (size_t)cap);
            if (!p) return;
            m->miss = p, m->capmiss = cap;
        }
        m->miss[m->nmiss++] = (int)(e - m->e);
    }
    e->asked |= want;
}

/* the bits of `want` worth asking m's source for */
static int askable(const cc_memo *m, int want) { return m->provides ? want & m->provides : want; }

/* the entry for (x, r), its questions for the askable bits of want not yet answered recorded;
 * *missing = 1 if there were such */
static const cc_memo_entry *lookup(cc_memo *m, const double *x, const cc_rest *r, int want, int *missing)
{
    m->lookups++;
    *missing = 0;
    if (!askable(m, want)) return cc_memo_find(m, x, r);   /* nothing to ask: no entry made for it */
    cc_memo_entry *e = entry(m, x, r);
    if (!e) return NULL;
    int need = askable(m, want) & ~e->answered;
    if (need) {
        ask(m, e, need);
        *missing = 1;
        return e;
    }
    m->hits++;
    return e;
}

static int memo_eval(void *ctx, const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_memo *m = ctx;
    int missing;
    const cc_memo_entry *e = lookup(m, x, r, want, &missing);
    if (!e) return -1;
    int n = 3 * m->nv, got = e->have & want;
    out->ncomp = m->ncomp, out->ndof = n;
    if (missing) {   /* a stand-in until the answer comes: zeros, so the pass asks all it needs */
        got = askable(m, want);
        memset(out->C, 0, sizeof out->C), memset(out->dC, 0, sizeof out->dC), memset(out->d2C, 0, sizeof out->d2C);
        return got;
    }
    for (int k = 0; k < m->ncomp; k++) {
        out->C[k] = e->C[k];
        for (int i = 0; i < n && (got & CC_WANT_GRAD); i++) out->dC[k][i] = e->g[k * n + i];
        for (int i = 0; i < n && (got & CC_WANT_HESS); i++)
            memcpy(out->d2C[k][i], e->H + (k * n + i) * n, sizeof(double) * (size_t)n);
    }
    return got;
}

static int memo_value(void *ctx, const double *x, const double *xf, const cc_rest *r, double *C)
{
    cc_memo *m = ctx;
    int missing;
    if (xf) return -1;
    const cc_memo_entry *e = lookup(m, x, r, CC_WANT_VALUE, &missing);
    if (e && missing) {   /* a stand-in, as in memo_eval */
        memset(C, 0, sizeof(double) * (size_t)m->ncomp);
        return 0;
    }
    if (!e || !(e->have & CC_WANT_VALUE)) return -1;
    memcpy(C, e->C, sizeof(double) * (size_t)m->ncomp);
    return 0;
}

static int memo_pending(const void *ctx) { return ((const cc_memo *)ctx)->nmiss; }

void cc_memo_target(cc_memo *m, cc_target *t)
{
    t->nv = m->nv;
    t->ncomp = m->ncomp;
    t->ctx = m;
    t->eval = memo_eval;
    t->value = memo_value;
    t->value_hd = NULL;
    t->frozen = 0;
    t->pending = memo_pending;
}

int cc_memo_missing_count(const cc_memo *m) { return m->nmiss; }

cc_memo_entry *cc_memo_missing(cc_memo *m, int i) { return &m->e[m->miss[i]]; }

void cc_memo_clear_missing(cc_memo *m)
{
    for (int i = 0; i < m->nmiss; i++) m->e[m->miss[i]].asked = 0;
    m->nmiss = 0;
}

int cc_memo_store(cc_memo *m, cc_memo_entry *e, int have, const double *C, const double *g, const double *H)
{
    int n = 3 * m->nv, nc = m->ncomp;
    if ((have & CC_WANT_GRAD) && !e->g && !(e->g = malloc(sizeof(double) * (size_t)(nc * n)))) return -1;
    if ((have & CC_WANT_HESS) && !e->H && !(e->H = malloc(sizeof(double) * (size_t)(nc * n * n)))) return -1;
    if (have & CC_WANT_VALUE) memcpy(e->C, C, sizeof(double) * (size_t)nc);
    if (have & CC_WANT_GRAD) memcpy(e->g, g, sizeof(double) * (size_t)(nc * n));
    if (have & CC_WANT_HESS) memcpy(e->H, H, sizeof(double) * (size_t)(nc * n * n));
    e->answered |= e->asked;
    e->have |= have;
    return 0;
}

const cc_memo_entry *cc_memo_find(const cc_memo *m, const double *x, const cc_rest *r)
{
    double key[CC_MEMO_REST];
    cc_memo_rest_key(r, key);
    int s = slot_of(m, x, key);
    return m->slot[s] >= 0 ? &m->e[m->slot[s]] : NULL;
}
