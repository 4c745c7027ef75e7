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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/exec.h"
#include "checks/exec_system.h"
#include "checks/sys_claims.h"
#include "io/json.h"
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

void cc_exec_system_close(cc_exec_system *x) { cc_proc_close(&x->proc, 2.0); }

/* out[0..n) = the list `name` of answer o; 0 or -1 */
static int vector(const cc_jv *o, const char *name, int n, double *out, char *err, int req)
{
    const cc_jv *v = cc_jv_get(o, name);
    if (!v) return cc_fail(err, "answer to request %d has no \"%s\" though it was asked for", req, name);
    if (v->type != CC_JV_ARRAY || v->n != n)
        return cc_fail(err, "answer to request %d: \"%s\" must be a list of %d numbers (got %s of %d)", req, name, n,
                   cc_jv_type_name(v), v->type == CC_JV_ARRAY ? v->n : 0);
    for (int i = 0; i < n; i++) {
        if (!cc_jv_is_number(&v->items[i]))
            return cc_fail(err, "answer to request %d: \"%s\" entry %d is a %s", req, name, i, cc_jv_type_name(&v->items[i]));
        out[i] = cc_jv_number(&v->items[i]);
    }
    return 0;
}

/* A = the sparse matrix `name` of answer o (triplets "i", "j", "v"); 0 or -1 */
static int matrix(const cc_jv *o, const char *name, int n, cc_csr *A, char *err, int req)
{
    const cc_jv *m = cc_jv_get(o, name), *I = m ? cc_jv_get(m, "i") : NULL, *J = m ? cc_jv_get(m, "j") : NULL,
                *V = m ? cc_jv_get(m, "v") : NULL;
    if (!m) return cc_fail(err, "answer to request %d has no \"%s\" though it was asked for", req, name);
    if (!I || !J || !V || I->type != CC_JV_ARRAY || J->type != CC_JV_ARRAY || V->type != CC_JV_ARRAY)
        return cc_fail(err, "answer to request %d: \"%s\" must be {\"i\": [...], \"j\": [...], \"v\": [...]}", req, name);
    if (I->n != J->n || I->n != V->n)
        return cc_fail(err, "answer to request %d: \"%s\" has %d i, %d j and %d v", req, name, I->n, J->n, V->n);
    int nnz = I->n, *ii = malloc(sizeof(int) * (size_t)(nnz + 1)), *jj = malloc(sizeof(int) * (size_t)(nnz + 1)), bad;
    double *vv = malloc(sizeof(double) * (size_t)(nnz + 1));
    int rc = !ii || !jj || !vv ? cc_fail(err, "out of memory") : 0;
    for (int k = 0; !rc && k < nnz; k++) {
        double a = cc_jv_number(&I->items[k]), b = cc_jv_number(&J->items[k]);
        if (I->items[k].type != CC_JV_NUMBER || J->items[k].type != CC_JV_NUMBER || a != (int)a || b != (int)b)
            rc = cc_fail(err, "answer to request %d: \"%s\" entry %d: i and j must be whole numbers", req, name, k);
        else if (!cc_jv_is_number(&V->items[k]))
            rc = cc_fail(err, "answer to request %d: \"%s\" entry %d: v is a %s", req, name, k, cc_jv_type_name(&V->items[k]));
        else ii[k] = (int)a, jj[k] = (int)b, vv[k] = cc_jv_number(&V->items[k]);
    }
    if (!rc && cc_csr_from_triplets(A, n, nnz, ii, jj, vv, &bad) < 0)
        rc = bad < 0 ? cc_fail(err, "out of memory")
                     : cc_fail(err, "answer to request %d: \"%s\" entry %d: (%d, %d) is outside the %d x %d matrix", req,
                           name, bad, ii[bad], jj[bad], n, n);
    free(ii), free(jj), free(vv);
    return rc;
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
    cc_jdoc *doc = NULL;
    int rc = exchange(X, &q, &doc, err), req = X->requests;
    if (rc) return -1;
    const cc_jv *o = cc_jdoc_root(doc);
    if (!rc && (want & CC_SYS_ENERGY)) {
        const cc_jv *E = cc_jv_get(o, "energy");
        if (!E || !cc_jv_is_number(E)) rc = cc_fail(err, "answer to request %d: \"energy\" must be a number", req);
        else out->E = cc_jv_number(E);
    }
    if (!rc && (want & CC_SYS_FORCE)) rc = vector(o, "force", n, out->f, err, req);
    if (!rc && (want & CC_SYS_EXTERNAL)) rc = vector(o, "external", n, out->ext, err, req);
    if (!rc && (want & CC_SYS_DFDX)) rc = matrix(o, "df_dx", n, &out->dfdx, err, req);
    if (!rc && (want & CC_SYS_DFDV)) rc = matrix(o, "df_dv", n, &out->dfdv, err, req);
    if (!rc && (want & CC_SYS_SYSTEM)) rc = matrix(o, "A", n, &out->A, err, req);
    if (!rc && (want & CC_SYS_SYSTEM)) rc = vector(o, "b", n, out->b, err, req);
    if (!rc) out->have = want;
    cc_jdoc_free(doc);
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
