/* The system protocol, clothcheck's side (docs/your-code.md, "Checking a whole simulator"):
 *
 *   first     {"protocol": 1, "contract": "system", "mesh": {"vertices": [3n], "uv": [2n],
 *              "triangles": [[i, j, k], ...]}}            ->  {"provides": ["energy", ...]}
 *   then      {"state": {"x": [3n], "v": [3n]}, "h": 0.01, "want": [...]}
 *             ->  {"energy": E, "force": [3n], "df_dx": {"i": [...], "j": [...], "v": [...]},
 *                  "df_dv": {...}, "A": {...}, "b": [3n], "external": [3n]}
 *
 * A program that answers otherwise gets one line and exit 2 (cc_exec_system_eval's err).
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/exec.h"
#include "checks/exec_system.h"
#include "checks/sys_claims.h"
#include "io/json.h"
#include "io/jread.h"
#include "io/jsonr.h"

static const char *const field[6] = {"energy", "force", "df_dx", "df_dv", "system", "external"};
static const int bit[6] = {CC_SYS_ENERGY, CC_SYS_FORCE, CC_SYS_DFDX, CC_SYS_DFDV, CC_SYS_SYSTEM, CC_SYS_EXTERNAL};

/* A request line written in memory (open_memstream), then sent. */
typedef struct request {
    FILE *f;
    char *buf;
    size_t len;
} request;

/* q ready to write into; 0 or -1 */
static int request_open(request *q)
{
    q->buf = NULL, q->len = 0;
    q->f = open_memstream(&q->buf, &q->len);
    return q->f ? 0 : -1;
}

/* send request q (closing it) and parse the one-line answer into *doc; 0 or -1 */
static int exchange(cc_exec_system *x, request *q, cc_jdoc **doc, char *err)
{
    char *ans, perr[400];
    int bad = fclose(q->f) != 0;
    x->requests++;
    int rc = bad ? -1 : cc_proc_exchange(&x->proc, q->buf, q->len, x->timeout, &ans, perr);
    free(q->buf);
    if (bad) return cc_fail(err, "out of memory");
    if (rc < 0)
        return cc_fail(err, "%s (request %d; last received: %s)", perr, x->requests, x->last[0] ? x->last : "nothing");
    snprintf(x->last, sizeof x->last, "%.60s%s", ans, strlen(ans) > 60 ? "..." : "");
    *doc = cc_jdoc_parse(ans, strlen(ans), perr);
    if (!*doc) return cc_fail(err, "answer to request %d is not JSON (%s): %s", x->requests, perr, x->last);
    cc_jdecimals dec = cc_jdoc_decimals(*doc);
    x->dec.count += dec.count, x->dec.nonfloat += dec.nonfloat;
    if (dec.max_digits > x->dec.max_digits) x->dec.max_digits = dec.max_digits;
    const cc_jv *root = cc_jdoc_root(*doc), *msg = cc_jv_get(root, "error");
    rc = 0;
    if (root->type != CC_JV_OBJECT)
        rc = cc_fail(err, "answer to request %d is a JSON %s, not an object", x->requests, cc_jv_type_name(root));
    else if (msg)
        rc = cc_fail(err, "the program says: %s", msg->type == CC_JV_STRING ? msg->str : "(an error that is not a string)");
    if (rc) cc_jdoc_free(*doc), *doc = NULL;
    return rc;
}

double cc_exec_system_precision(void *ctx)
{
    int floats;
    return cc_jdecimals_precision(&((cc_exec_system *)ctx)->dec, 0, 0, &floats);
}

int cc_exec_system_start(cc_exec_system *x, const char *cmd, const cc_mesh *m, char *err)
{
    char *argv[64], words[4096];
    x->cmd = cmd, x->mesh = m;
    if (cc_proc_split(cmd, argv, 64, words, sizeof words, err) < 0) return -1;
    if (cc_proc_start(&x->proc, argv, err) < 0) return -1;
    x->proc.max_line = (size_t)1 << 31;   /* a 132 x 132 cloth's matrices take 0.5 GB of text */
    request q;
    if (request_open(&q) < 0) return cc_fail(err, "out of memory");
    fputs("{\"protocol\": 1, \"contract\": \"system\", \"mesh\": {\"vertices\": ", q.f);
    cc_json_array(q.f, m->x, 3 * m->nv);
    if (m->uv) fputs(", \"uv\": ", q.f), cc_json_array(q.f, m->uv, 2 * m->nv);
    fputs(", \"triangles\": [", q.f);
    for (int t = 0; t < m->nt; t++)
        fprintf(q.f, t ? ", [%d, %d, %d]" : "[%d, %d, %d]", m->tri[3 * t], m->tri[3 * t + 1], m->tri[3 * t + 2]);
    fputs("]}}\n", q.f);
    cc_jdoc *doc = NULL;
    if (exchange(x, &q, &doc, err)) return -1;
    int rc = 0;
    const cc_jv *p = cc_jv_get(cc_jdoc_root(doc), "provides");
    if (!p || p->type != CC_JV_ARRAY) rc = cc_fail(err, "the answer to the mesh has no list \"provides\": %s", x->last);
    for (int i = 0; p && !rc && i < p->n; i++) {
        const cc_jv *w = &p->items[i];
        int k = 0;
        while (k < 6 && !(w->type == CC_JV_STRING && !strcmp(w->str, field[k]))) k++;
        if (k == 6)
            rc = cc_fail(err, "\"provides\" names %s%s%s, not one of energy, force, df_dx, df_dv, system, external",
                     w->type == CC_JV_STRING ? "'" : "a ", w->type == CC_JV_STRING ? w->str : cc_jv_type_name(w),
                     w->type == CC_JV_STRING ? "'" : "");
        else x->provides |= bit[k];
    }
    if (!rc && !x->provides) rc = cc_fail(err, "the program provides nothing (an empty \"provides\")");
    cc_jdoc_free(doc);
    return rc;
}

void cc_exec_system_close(cc_exec_system *x)
{
    cc_proc_close(&x->proc, 2.0);
    free(x->ti), free(x->tj), free(x->tv);
    x->ti = x->tj = NULL, x->tv = NULL;
    x->cap[0] = x->cap[1] = x->cap[2] = x->most = 0;
}

/* ---- an answer to a state, read as it arrives ----
 *
 * The answer is read a token at a time (io/jread.h), each field into its place as it comes:
 * vectors into the caller's arrays, a matrix's triplets into arrays kept from state to state
 * and made into a cc_csr as its object closes. A field's first mistake is kept and reported
 * once the whole answer has been read as JSON, the fields in a fixed order, so that what a
 * program is told does not depend on the order of its members. */

enum { F_ENERGY, F_FORCE, F_EXTERNAL, F_DFDX, F_DFDV, F_A, F_B, F_ERROR, NFIELDS };
static const char *const member[NFIELDS] = {"energy", "force", "external", "df_dx", "df_dv", "A", "b", "error"};
static const int member_bit[NFIELDS] = {CC_SYS_ENERGY, CC_SYS_FORCE, CC_SYS_EXTERNAL, CC_SYS_DFDX, CC_SYS_DFDV,
                                        CC_SYS_SYSTEM, CC_SYS_SYSTEM, 0};   /* "error": always read */

typedef struct answer {
    cc_exec_system *x;
    cc_jread r;
    int req, n;
    int seen[NFIELDS];            /* 1 once the field has been read (its first occurrence counts) */
    char why[NFIELDS][CC_ERRLEN]; /* its mistake, or "" */
    char head[64];                /* the answer's first bytes, for messages */
    size_t nhead, consumed;
    int oom;                      /* 1: no memory for its matrices */
} answer;

/* the program's answer as a cc_jread_source, keeping its first bytes */
static int from_program(void *ctx, size_t done, const char **s, size_t *n, char *err)
{
    answer *a = ctx;
    int rc = cc_proc_read(&a->x->proc, done, s, n, err);
    a->consumed += done;
    for (; rc >= 0 && a->nhead < sizeof a->head - 1 && a->nhead < a->consumed + *n; a->nhead++)
        a->head[a->nhead] = (*s)[a->nhead - a->consumed];
    a->head[a->nhead] = '\0';
    return rc;
}

/* the field's mistake, the first one only; 0 */
static int mistake(answer *a, int k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int mistake(answer *a, int k, const char *fmt, ...)
{
    if (a->why[k][0]) return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->why[k], CC_ERRLEN, fmt, ap);
    va_end(ap);
    return 0;
}

/* room for c + 1 entries in a growing array of `size`-byte entries; 0 or -1 */
static int room(void **p, int *cap, int c, size_t size)
{
    if (c < *cap) return 0;
    int m = *cap ? 2 * *cap : 4096;
    void *q = realloc(*p, (size_t)m * size);
    if (!q) return -1;
    *p = q, *cap = m;
    return 0;
}

/* the triplet arrays' room cut to count entries when count is the most a matrix has had (the
 * arrays grow by doubling; what the next states need is what this one did) */
static void fit(cc_exec_system *x, int count)
{
    if (count <= x->most) return;
    x->most = count;
    void **p[3] = {(void **)&x->ti, (void **)&x->tj, (void **)&x->tv};
    size_t size[3] = {sizeof *x->ti, sizeof *x->tj, sizeof *x->tv};
    for (int c = 0; c < 3; c++) {
        void *q = x->cap[c] > count ? realloc(*p[c], size[c] * (size_t)count) : NULL;
        if (q) *p[c] = q, x->cap[c] = count;
    }
}

/* a number or null (NaN) */
static int numeric(int t) { return t == CC_JT_NUMBER || t == CC_JT_NULL; }

/* the list of n numbers of field k (token t) into out; 0 or -1 (not JSON) */
static int read_vector(answer *a, int k, int t, double *out)
{
    cc_jread *r = &a->r;
    if (t != CC_JT_ARRAY) {
        mistake(a, k, "answer to request %d: \"%s\" must be a list of %d numbers (got %s of 0)", a->req, member[k], a->n,
                cc_jread_type_name(t));
        return cc_jread_skip(r, t);
    }
    int count = 0, bad = -1, badt = 0;
    for (int u; (u = cc_jread_next(r)) != CC_JT_CLOSE; count++) {
        if (u == CC_JT_FAIL) return -1;
        if (!numeric(u)) {
            if (bad < 0) bad = count, badt = u;
            if (cc_jread_skip(r, u) < 0) return -1;
        } else if (count < a->n) {
            out[count] = u == CC_JT_NULL ? NAN : r->num;
        }
    }
    if (count != a->n)
        return mistake(a, k, "answer to request %d: \"%s\" must be a list of %d numbers (got array of %d)", a->req,
                       member[k], a->n, count);
    if (bad >= 0)
        return mistake(a, k, "answer to request %d: \"%s\" entry %d is a %s", a->req, member[k], bad,
                       cc_jread_type_name(badt));
    return 0;
}

/* v as a whole number within an int, into *i; 1 if it is one */
static int whole(double v, int *i)
{
    if (!(v >= -2147483648.0 && v < 2147483648.0) || v != (double)(int)v) return 0;
    *i = (int)v;
    return 1;
}

/* one of a matrix's lists (c = 0, 1, 2: i, j, v; token t) into the triplet arrays; its length
 * into *count and the first entry that is not a whole number (i, j) or a number (v) into *bad
 * (INT_MAX: none), with its type; 0 or -1 */
static int read_triplets(answer *a, int c, int *count, int *bad, int *badt)
{
    cc_exec_system *x = a->x;
    cc_jread *r = &a->r;
    *count = 0, *bad = INT_MAX;
    for (int u, m = 0; (u = cc_jread_next(r)) != CC_JT_CLOSE; m++, *count = m) {
        if (u == CC_JT_FAIL) return -1;
        int ok = c < 2 ? u == CC_JT_NUMBER : numeric(u), at = 0;
        if (c < 2 && ok) ok = whole(r->num, &at);
        if (!ok && *bad == INT_MAX) *bad = m, *badt = u;
        if (cc_jread_skip(r, u) < 0) return -1;
        int fits = c == 0 ? room((void **)&x->ti, &x->cap[0], m, sizeof *x->ti)
                 : c == 1 ? room((void **)&x->tj, &x->cap[1], m, sizeof *x->tj)
                          : room((void **)&x->tv, &x->cap[2], m, sizeof *x->tv);
        if (fits < 0) return a->oom = 1, -1;
        if (c == 0) x->ti[m] = at;
        else if (c == 1) x->tj[m] = at;
        else x->tv[m] = u == CC_JT_NUMBER ? r->num : NAN;
    }
    return 0;
}

/* the sparse matrix of field k (token t: {"i": [...], "j": [...], "v": [...]}) into A; 0 or -1 */
static int read_matrix(answer *a, int k, int t, cc_csr *A)
{
    cc_jread *r = &a->r;
    const char *shape = "answer to request %d: \"%s\" must be {\"i\": [...], \"j\": [...], \"v\": [...]}";
    if (t != CC_JT_OBJECT) return mistake(a, k, shape, a->req, member[k]), cc_jread_skip(r, t);
    int have[3] = {0, 0, 0}, count[3] = {0, 0, 0}, bad[3] = {INT_MAX, INT_MAX, INT_MAX}, badt[3] = {0, 0, 0};
    for (int u; (u = cc_jread_next(r)) != CC_JT_CLOSE;) {
        if (u == CC_JT_FAIL) return -1;
        int c = !strcmp(r->key, "i") ? 0 : !strcmp(r->key, "j") ? 1 : !strcmp(r->key, "v") ? 2 : -1;
        if (c < 0 || have[c]) {
            if (cc_jread_skip(r, u) < 0) return -1;
            continue;
        }
        have[c] = u == CC_JT_ARRAY ? 1 : -1;
        if (u != CC_JT_ARRAY ? cc_jread_skip(r, u) : read_triplets(a, c, &count[c], &bad[c], &badt[c])) return -1;
    }
    if (have[0] < 1 || have[1] < 1 || have[2] < 1) return mistake(a, k, shape, a->req, member[k]);
    if (count[0] != count[1] || count[0] != count[2])
        return mistake(a, k, "answer to request %d: \"%s\" has %d i, %d j and %d v", a->req, member[k], count[0],
                       count[1], count[2]);
    int kij = bad[0] < bad[1] ? bad[0] : bad[1];
    if (kij < INT_MAX && kij <= bad[2])
        return mistake(a, k, "answer to request %d: \"%s\" entry %d: i and j must be whole numbers", a->req, member[k], kij);
    if (bad[2] < INT_MAX)
        return mistake(a, k, "answer to request %d: \"%s\" entry %d: v is a %s", a->req, member[k], bad[2],
                       cc_jread_type_name(badt[2]));
    int out;
    cc_exec_system *x = a->x;
    fit(x, count[0]);
    if (cc_csr_from_triplets(A, a->n, count[0], x->ti, x->tj, x->tv, &out) < 0) {
        if (out < 0) return a->oom = 1, -1;
        return mistake(a, k, "answer to request %d: \"%s\" entry %d: (%d, %d) is outside the %d x %d matrix", a->req,
                       member[k], out, x->ti[out], x->tj[out], a->n, a->n);
    }
    return 0;
}

/* the answer's members, the wanted fields into out; its root's token into *root; 0 or -1 */
static int read_members(answer *a, int want, cc_sys_eval *out, int *root)
{
    cc_jread *r = &a->r;
    int t = *root = cc_jread_next(r);
    if (t != CC_JT_OBJECT) return cc_jread_skip(r, t);
    cc_csr *matrix[NFIELDS] = {[F_DFDX] = &out->dfdx, [F_DFDV] = &out->dfdv, [F_A] = &out->A};
    double *vector[NFIELDS] = {[F_FORCE] = out->f, [F_EXTERNAL] = out->ext, [F_B] = out->b};
    for (int u; (u = cc_jread_next(r)) != CC_JT_CLOSE;) {
        if (u == CC_JT_FAIL) return -1;
        int k = 0, rc = 0;
        while (k < NFIELDS && strcmp(r->key, member[k])) k++;
        if (k == NFIELDS || a->seen[k] || (k != F_ERROR && !(want & member_bit[k]))) {
            if (cc_jread_skip(r, u) < 0) return -1;
            continue;
        }
        a->seen[k] = 1;
        if (k == F_ERROR) {
            mistake(a, k, "the program says: %s", u == CC_JT_STRING ? r->str : "(an error that is not a string)");
            rc = cc_jread_skip(r, u);
        } else if (k == F_ENERGY) {
            if (!numeric(u)) mistake(a, k, "answer to request %d: \"energy\" must be a number", a->req);
            else out->E = u == CC_JT_NULL ? NAN : r->num;
            rc = cc_jread_skip(r, u);
        } else {
            rc = matrix[k] ? read_matrix(a, k, u, matrix[k]) : read_vector(a, k, u, vector[k]);
        }
        if (rc < 0) return -1;
    }
    return 0;
}

int cc_exec_system_eval(void *ctx, const double *x, const double *v, double h, int want, cc_sys_eval *out, char *err)
{
    cc_exec_system *X = ctx;
    int n = 3 * X->mesh->nv, first = 1;
    want &= X->provides;
    request q;
    if (request_open(&q) < 0) return cc_fail(err, "out of memory");
    fputs("{\"state\": {\"x\": ", q.f);
    cc_json_array(q.f, x, n);
    fputs(", \"v\": ", q.f);
    cc_json_array(q.f, v, n);
    fprintf(q.f, "}, \"h\": %.17g, \"want\": [", h);
    for (int k = 0; k < 6; k++)
        if (want & bit[k]) fprintf(q.f, first ? "\"%s\"" : ", \"%s\"", field[k]), first = 0;
    fputs("]}\n", q.f);
    char perr[CC_ERRLEN];
    int bad = fclose(q.f) != 0, req = ++X->requests;
    int rc = bad ? -1 : cc_proc_send(&X->proc, q.buf, q.len, X->timeout, perr);
    free(q.buf);
    if (bad) return cc_fail(err, "out of memory");
    if (rc < 0) return cc_fail(err, "%s (request %d; last received: %s)", perr, req, X->last[0] ? X->last : "nothing");
    answer *a = calloc(1, sizeof *a);
    if (!a) return cc_fail(err, "out of memory");
    a->x = X, a->req = req, a->n = n;
    cc_jread_init(&a->r, from_program, a);
    int root;
    rc = read_members(a, want, out, &root) < 0 || cc_jread_end(&a->r) < 0 ? -1 : 0;
    if (rc < 0 && a->r.failed == 2) {
        rc = cc_fail(err, "%s (request %d; last received: %s)", a->r.err, req, X->last[0] ? X->last : "nothing");
    } else if (rc < 0 && a->oom) {
        rc = cc_fail(err, "out of memory for the answer to request %d", req);
    } else if (rc < 0) {
        const char *s;
        size_t k;   /* the answer's start, for the message, if it is still coming */
        while (a->nhead < 61 && from_program(a, 0, &s, &k, perr) == 1) {}
        rc = cc_fail(err, "answer to request %d is not JSON (%s): %.60s%s", req, a->r.err, a->head, a->nhead > 60 ? "..." : "");
    } else {
        snprintf(X->last, sizeof X->last, "%.60s%s", a->head, a->nhead > 60 ? "..." : "");
        X->received += (long long)(a->r.base + a->r.at);
        X->dec.count += a->r.dec.count, X->dec.nonfloat += a->r.dec.nonfloat;
        if (a->r.dec.max_digits > X->dec.max_digits) X->dec.max_digits = a->r.dec.max_digits;
        if (root != CC_JT_OBJECT) rc = cc_fail(err, "answer to request %d is a JSON %s, not an object", req, cc_jread_type_name(root));
        if (!rc && a->why[F_ERROR][0]) rc = cc_fail(err, "%s", a->why[F_ERROR]);
        for (int k = 0; !rc && k < F_ERROR; k++) {
            if (a->why[k][0]) rc = cc_fail(err, "%s", a->why[k]);
            else if ((want & member_bit[k]) && !a->seen[k])
                rc = k == F_ENERGY ? cc_fail(err, "answer to request %d: \"energy\" must be a number", req)
                                   : cc_fail(err, "answer to request %d has no \"%s\" though it was asked for", req, member[k]);
        }
        if (!rc) out->have = want;
    }
    cc_jread_free(&a->r);
    free(a);
    return rc;
}

int cc_exec_system_check(const char *cmd, const cc_mesh *m, const cc_sim_params *claims, double timeout,
                         cc_sys_opts o, cc_exec_system *x, cc_sys_report *r, char *err)
{
    char why[CC_ERRLEN];
    cc_sys_claims cl = {0};
    int rc = 0;
    memset(x, 0, sizeof *x);
    x->proc.in = x->proc.out = -1;   /* no pipes until it starts */
    x->timeout = timeout > 0 ? timeout : 30;
    if (cc_exec_system_start(x, cmd, m, why) < 0) {
        cc_exec_system_close(x);   /* (a program that started and then failed the mesh) */
        return cc_fail(err, "%s: %s", cmd, why);
    }
    if (claims && cc_sys_claims_build(&cl, m, claims, why) < 0) rc = cc_fail(err, "claims: %s", why);
    o.terms = cl.terms, o.term_names = cl.names, o.nterms = cl.n;
    cc_sys_target t = {m, x->provides, x, cc_exec_system_eval, cc_exec_system_precision};
    if (!rc && cc_sys_run(&t, &o, r, why) < 0) rc = cc_fail(err, "%s: %s", cmd, why);
    cc_sys_claims_free(&cl);
    cc_exec_system_close(x);
    return rc;
}
