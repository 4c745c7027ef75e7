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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/exec_system.h"
#include "io/jsonr.h"

static const char *const field[6] = {"energy", "force", "df_dx", "df_dv", "system", "external"};
static const int bit[6] = {CC_SYS_ENERGY, CC_SYS_FORCE, CC_SYS_DFDX, CC_SYS_DFDV, CC_SYS_SYSTEM, CC_SYS_EXTERNAL};

/* A growing line. */
typedef struct line {
    char *s;
    size_t len, cap;
    int oom;
} line;

#ifdef __GNUC__
static void put(line *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif

static void put(line *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? 2 * b->cap : 1u << 16;
        while (cap < b->len + (size_t)n + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s, b->cap = cap;
    }
}

static void put_list(line *b, const double *v, int n)
{
    put(b, "[");
    for (int i = 0; i < n; i++) put(b, i ? ", %.17g" : "%.17g", v[i]);
    put(b, "]");
}

#ifdef __GNUC__
static int say(char *err, int errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#endif

static int say(char *err, int errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, (size_t)errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* send b and parse the one-line answer into *doc; 0 or -1 */
static int exchange(cc_exec_system *x, line *b, cc_jdoc **doc, char *err, int errlen)
{
    char *ans, perr[200];
    if (b->oom) return say(err, errlen, "out of memory");
    x->requests++;
    if (cc_proc_exchange(&x->proc, b->s, b->len, x->timeout, &ans, perr, sizeof perr) < 0)
        return say(err, errlen, "%s (request %d; last received: %s)", perr, x->requests, x->last[0] ? x->last : "nothing");
    snprintf(x->last, sizeof x->last, "%.60s%s", ans, strlen(ans) > 60 ? "..." : "");
    *doc = cc_jdoc_parse(ans, strlen(ans), perr, sizeof perr);
    if (!*doc) return say(err, errlen, "answer to request %d is not JSON (%s): %s", x->requests, perr, x->last);
    const cc_jv *root = cc_jdoc_root(*doc), *msg = cc_jv_get(root, "error");
    int rc = 0;
    if (root->type != CC_JV_OBJECT)
        rc = say(err, errlen, "answer to request %d is a JSON %s, not an object", x->requests, cc_jv_type_name(root));
    else if (msg)
        rc = say(err, errlen, "the program says: %s", msg->type == CC_JV_STRING ? msg->str : "(an error that is not a string)");
    if (rc) cc_jdoc_free(*doc), *doc = NULL;
    return rc;
}

int cc_exec_system_start(cc_exec_system *x, const char *cmd, const cc_mesh *m, char *err, int errlen)
{
    char *argv[64], words[4096];
    x->cmd = cmd, x->mesh = m;
    if (cc_proc_split(cmd, argv, 64, words, sizeof words, err, errlen) < 0) return -1;
    if (cc_proc_start(&x->proc, argv, err, errlen) < 0) return -1;
    x->proc.max_line = (size_t)1 << 31;   /* a 132 x 132 cloth's matrices take 0.5 GB of text */
    line b = {0};
    put(&b, "{\"protocol\": 1, \"contract\": \"system\", \"mesh\": {\"vertices\": ");
    put_list(&b, m->x, 3 * m->nv);
    if (m->uv) put(&b, ", \"uv\": "), put_list(&b, m->uv, 2 * m->nv);
    put(&b, ", \"triangles\": [");
    for (int t = 0; t < m->nt; t++) put(&b, t ? ", [%d, %d, %d]" : "[%d, %d, %d]", m->tri[3 * t], m->tri[3 * t + 1], m->tri[3 * t + 2]);
    put(&b, "]}}\n");
    cc_jdoc *doc = NULL;
    int rc = exchange(x, &b, &doc, err, errlen);
    free(b.s);
    if (rc) return -1;
    const cc_jv *p = cc_jv_get(cc_jdoc_root(doc), "provides");
    if (!p || p->type != CC_JV_ARRAY) rc = say(err, errlen, "the answer to the mesh has no list \"provides\": %s", x->last);
    for (int i = 0; p && !rc && i < p->n; i++) {
        const cc_jv *w = &p->items[i];
        int k = 0;
        while (k < 6 && !(w->type == CC_JV_STRING && !strcmp(w->str, field[k]))) k++;
        if (k == 6)
            rc = say(err, errlen, "\"provides\" names %s%s%s, not one of energy, force, df_dx, df_dv, system, external",
                     w->type == CC_JV_STRING ? "'" : "a ", w->type == CC_JV_STRING ? w->str : cc_jv_type_name(w),
                     w->type == CC_JV_STRING ? "'" : "");
        else x->provides |= bit[k];
    }
    if (!rc && !x->provides) rc = say(err, errlen, "the program provides nothing (an empty \"provides\")");
    cc_jdoc_free(doc);
    return rc;
}

void cc_exec_system_close(cc_exec_system *x) { cc_proc_close(&x->proc, 2.0); }

/* out[0..n) = the list `name` of answer o; 0 or -1 */
static int vector(const cc_jv *o, const char *name, int n, double *out, char *err, int errlen, int req)
{
    const cc_jv *v = cc_jv_get(o, name);
    if (!v) return say(err, errlen, "answer to request %d has no \"%s\" though it was asked for", req, name);
    if (v->type != CC_JV_ARRAY || v->n != n)
        return say(err, errlen, "answer to request %d: \"%s\" must be a list of %d numbers (got %s of %d)", req, name, n,
                   cc_jv_type_name(v), v->type == CC_JV_ARRAY ? v->n : 0);
    for (int i = 0; i < n; i++) {
        if (!cc_jv_is_number(&v->items[i]))
            return say(err, errlen, "answer to request %d: \"%s\" entry %d is a %s", req, name, i, cc_jv_type_name(&v->items[i]));
        out[i] = cc_jv_number(&v->items[i]);
    }
    return 0;
}

/* A = the sparse matrix `name` of answer o (triplets "i", "j", "v"); 0 or -1 */
static int matrix(const cc_jv *o, const char *name, int n, cc_csr *A, char *err, int errlen, int req)
{
    const cc_jv *m = cc_jv_get(o, name), *I = m ? cc_jv_get(m, "i") : NULL, *J = m ? cc_jv_get(m, "j") : NULL,
                *V = m ? cc_jv_get(m, "v") : NULL;
    if (!m) return say(err, errlen, "answer to request %d has no \"%s\" though it was asked for", req, name);
    if (!I || !J || !V || I->type != CC_JV_ARRAY || J->type != CC_JV_ARRAY || V->type != CC_JV_ARRAY)
        return say(err, errlen, "answer to request %d: \"%s\" must be {\"i\": [...], \"j\": [...], \"v\": [...]}", req, name);
    if (I->n != J->n || I->n != V->n)
        return say(err, errlen, "answer to request %d: \"%s\" has %d i, %d j and %d v", req, name, I->n, J->n, V->n);
    int nnz = I->n, *ii = malloc(sizeof(int) * (size_t)(nnz + 1)), *jj = malloc(sizeof(int) * (size_t)(nnz + 1)), bad;
    double *vv = malloc(sizeof(double) * (size_t)(nnz + 1));
    int rc = !ii || !jj || !vv ? say(err, errlen, "out of memory") : 0;
    for (int k = 0; !rc && k < nnz; k++) {
        double a = cc_jv_number(&I->items[k]), b = cc_jv_number(&J->items[k]);
        if (I->items[k].type != CC_JV_NUMBER || J->items[k].type != CC_JV_NUMBER || a != (int)a || b != (int)b)
            rc = say(err, errlen, "answer to request %d: \"%s\" entry %d: i and j must be whole numbers", req, name, k);
        else if (!cc_jv_is_number(&V->items[k]))
            rc = say(err, errlen, "answer to request %d: \"%s\" entry %d: v is a %s", req, name, k, cc_jv_type_name(&V->items[k]));
        else ii[k] = (int)a, jj[k] = (int)b, vv[k] = cc_jv_number(&V->items[k]);
    }
    if (!rc && cc_csr_from_triplets(A, n, nnz, ii, jj, vv, &bad) < 0)
        rc = bad < 0 ? say(err, errlen, "out of memory")
                     : say(err, errlen, "answer to request %d: \"%s\" entry %d: (%d, %d) is outside the %d x %d matrix", req,
                           name, bad, ii[bad], jj[bad], n, n);
    free(ii), free(jj), free(vv);
    return rc;
}

int cc_exec_system_eval(void *ctx, const double *x, const double *v, double h, int want, cc_sys_eval *out, char *err,
                        int errlen)
{
    cc_exec_system *X = ctx;
    int n = 3 * X->mesh->nv, first = 1;
    want &= X->provides;
    line b = {0};
    put(&b, "{\"state\": {\"x\": ");
    put_list(&b, x, n);
    put(&b, ", \"v\": ");
    put_list(&b, v, n);
    put(&b, "}, \"h\": %.17g, \"want\": [", h);
    for (int k = 0; k < 6; k++)
        if (want & bit[k]) put(&b, first ? "\"%s\"" : ", \"%s\"", field[k]), first = 0;
    put(&b, "]}\n");
    cc_jdoc *doc = NULL;
    int rc = exchange(X, &b, &doc, err, errlen), req = X->requests;
    free(b.s);
    if (rc) return -1;
    const cc_jv *o = cc_jdoc_root(doc);
    if (!rc && (want & CC_SYS_ENERGY)) {
        const cc_jv *E = cc_jv_get(o, "energy");
        if (!E || !cc_jv_is_number(E)) rc = say(err, errlen, "answer to request %d: \"energy\" must be a number", req);
        else out->E = cc_jv_number(E);
    }
    if (!rc && (want & CC_SYS_FORCE)) rc = vector(o, "force", n, out->f, err, errlen, req);
    if (!rc && (want & CC_SYS_EXTERNAL)) rc = vector(o, "external", n, out->ext, err, errlen, req);
    if (!rc && (want & CC_SYS_DFDX)) rc = matrix(o, "df_dx", n, &out->dfdx, err, errlen, req);
    if (!rc && (want & CC_SYS_DFDV)) rc = matrix(o, "df_dv", n, &out->dfdv, err, errlen, req);
    if (!rc && (want & CC_SYS_SYSTEM)) rc = matrix(o, "A", n, &out->A, err, errlen, req);
    if (!rc && (want & CC_SYS_SYSTEM)) rc = vector(o, "b", n, out->b, err, errlen, req);
    if (!rc) out->have = want;
    cc_jdoc_free(doc);
    return rc;
}
