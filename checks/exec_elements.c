/* The element protocol, clothcheck's side (see exec.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/exec.h"
#include "io/json.h"
#include "io/jsonr.h"

/* the rest data a program needs for an element of r->nv vertices */
static void put_rest(FILE *f, const cc_rest *r)
{
    if (r->nv == 3) {
        double uv[6] = {0, 0, r->du1, r->dv1, r->du2, r->dv2};
        fputs("{\"uv\": ", f);
        cc_json_array(f, uv, 6);
        fprintf(f, ", \"bu\": %.17g, \"bv\": %.17g, \"area_power\": %.17g}", r->bu, r->bv, r->area_power);
    } else if (r->nv == 4) {
        fputs("{\"x_rest\": ", f);
        cc_json_array(f, r->rest_x, 12);
        fprintf(f, ", \"theta0\": %.17g}", r->rest_angle);
    } else {
        fprintf(f, "{\"length\": %.17g}", r->rest_length);
    }
}

/* the names of the want bits in the contract */
static void put_want(FILE *f, const cc_exec *x, int want)
{
    static const char *const cond[3] = {"value", "gradient", "hessian"};
    static const char *const force[3] = {"energy", "force", "jacobian"};
    static const int bit[3] = {CC_WANT_VALUE, CC_WANT_GRAD, CC_WANT_HESS};
    int first = 1;
    fputc('[', f);
    for (int i = 0; i < 3; i++)
        if (want & bit[i]) fprintf(f, first ? "\"%s\"" : ", \"%s\"", x->force ? force[i] : cond[i]), first = 0;
    fputc(']', f);
}

/* the request line for elements e[0..n) (same want) */
static void put_request(FILE *f, const cc_exec *x, const cc_memo *m, cc_memo_entry **e, int n, int want)
{
    fprintf(f, "{\"protocol\": 1, \"contract\": \"%s\", \"condition\": \"%s\", ", x->force ? "force" : "condition",
            x->condition);
    if (x->variant) fprintf(f, "\"variant\": \"%s\", ", x->variant);
    else fputs("\"variant\": null, ", f);
    fprintf(f, "\"k\": %.17g, \"want\": ", x->k);
    put_want(f, x, want);
    fputs(", \"elements\": [", f);
    for (int i = 0; i < n; i++) {
        fputs(i ? ", {\"x\": " : "{\"x\": ", f);
        cc_json_array(f, e[i]->x, 3 * m->nv);
        fputs(", \"rest\": ", f);
        put_rest(f, &e[i]->r);
        fputc('}', f);
    }
    fputs("]}\n", f);
}

int cc_exec_start(cc_exec *x, const char *cmd, char *err)
{
    char *argv[64], words[4096];
    x->cmd = cmd;
    if (cc_proc_split(cmd, argv, 64, words, sizeof words, err) < 0) return -1;
    return cc_proc_start(&x->proc, argv, err);
}

void cc_exec_close(cc_exec *x) { cc_proc_close(&x->proc, 2.0); }

/* Reading one element's answer. */
typedef struct reader {
    cc_exec *x;
    const cc_memo *m;
    char *err;
    int batch, elem;      /* for messages */
} reader;

#ifdef __GNUC__
static int bad(reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif

/* err = "the program's answer to batch B, element E: ..."; -1 */
static int bad(reader *rd, const char *fmt, ...)
{
    int at = snprintf(rd->err, CC_ERRLEN, "answer to request %d, element %d: ", rd->batch, rd->elem);
    if (at < 0 || at >= CC_ERRLEN) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->err + at, (size_t)(CC_ERRLEN - at), fmt, ap);
    va_end(ap);
    return -1;
}

/* a number received */
static double number(reader *rd, const cc_jv *v)
{
    (void)rd;
    return cc_jv_number(v);
}

/* out[0..n) = the list v of n numbers, named `what`; 0 or -1 */
static int numbers(reader *rd, const cc_jv *v, int n, const char *what, double *out)
{
    if (v->type != CC_JV_ARRAY) return bad(rd, "'%s' is a %s, not a list of %d numbers", what, cc_jv_type_name(v), n);
    if (v->n != n) return bad(rd, "'%s' has %d entries, expected %d", what, v->n, n);
    for (int i = 0; i < n; i++) {
        if (!cc_jv_is_number(&v->items[i]))
            return bad(rd, "'%s' entry %d is a %s, not a number", what, i, cc_jv_type_name(&v->items[i]));
        out[i] = number(rd, &v->items[i]);
    }
    return 0;
}

/* out = the rows x cols matrix v (a list of rows), named `what`; 0 or -1 */
static int matrix(reader *rd, const cc_jv *v, int rows, int cols, const char *what, double *out)
{
    char name[48];
    if (v->type != CC_JV_ARRAY) return bad(rd, "'%s' is a %s, not a list of %d lists", what, cc_jv_type_name(v), rows);
    if (v->n != rows) return bad(rd, "'%s' has %d rows, expected %d", what, v->n, rows);
    for (int i = 0; i < rows; i++) {
        snprintf(name, sizeof name, "%s[%d]", what, i);
        if (numbers(rd, &v->items[i], cols, name, out + (size_t)i * (size_t)cols) < 0) return -1;
    }
    return 0;
}

/* the condition contract's fields of element object o into C, g, H; the bits present, or -1 */
static int read_condition(reader *rd, const cc_jv *o, double *C, double *g, double *H)
{
    int nc = rd->m->ncomp, n = 3 * rd->m->nv, have = 0;
    const cc_jv *v = cc_jv_get(o, "value"), *gr = cc_jv_get(o, "gradient"), *h = cc_jv_get(o, "hessian");
    if (v) {
        if (nc == 1 && cc_jv_is_number(v)) C[0] = number(rd, v);
        else if (numbers(rd, v, nc, "value", C) < 0) return -1;
        have |= CC_WANT_VALUE;
    }
    if (gr) {
        if (matrix(rd, gr, nc, n, "gradient", g) < 0) return -1;
        have |= CC_WANT_GRAD;
    }
    if (h) {
        if (h->type != CC_JV_ARRAY || h->n != nc)
            return bad(rd, "'hessian' must be a list of %d matrices (one per component), %d x %d each", nc, n, n);
        for (int k = 0; k < nc; k++)
            if (matrix(rd, &h->items[k], n, n, "hessian", H + (size_t)k * (size_t)(n * n)) < 0) return -1;
        have |= CC_WANT_HESS;
    }
    return have;
}

/* the force contract's fields of o as the condition form: C = E, g = -F, H = -dF/dx */
static int read_force(reader *rd, const cc_jv *o, double *C, double *g, double *H)
{
    int n = 3 * rd->m->nv, have = 0;
    const cc_jv *e = cc_jv_get(o, "energy"), *f = cc_jv_get(o, "force"), *j = cc_jv_get(o, "jacobian");
    if (e) {
        if (!cc_jv_is_number(e)) return bad(rd, "'energy' is a %s, not a number", cc_jv_type_name(e));
        C[0] = number(rd, e);
        have |= CC_WANT_VALUE;
    }
    if (f) {
        if (numbers(rd, f, n, "force", g) < 0) return -1;
        for (int i = 0; i < n; i++) g[i] = -g[i];
        have |= CC_WANT_GRAD;
    }
    if (j) {
        if (matrix(rd, j, n, n, "jacobian", H) < 0) return -1;
        for (int i = 0; i < n * n; i++) H[i] = -H[i];
        have |= CC_WANT_HESS;
    }
    return have;
}

/* one answer line to the request for e[0..n): stored in m; 0 or -1 */
static int read_answer(reader *rd, cc_memo *m, const char *line, cc_memo_entry **e, int n)
{
    char perr[CC_ERRLEN];
    cc_jdoc *doc = cc_jdoc_parse(line, strlen(line), perr);
    if (!doc)
        return cc_fail(rd->err, "answer to request %d is not JSON (%s): %s", rd->batch, perr,
                        rd->x->last);
    cc_jdecimals dec = cc_jdoc_decimals(doc);
    rd->x->dec.count += dec.count, rd->x->dec.nonfloat += dec.nonfloat;
    if (dec.max_digits > rd->x->dec.max_digits) rd->x->dec.max_digits = dec.max_digits;
    const cc_jv *root = cc_jdoc_root(doc), *els = cc_jv_get(root, "elements"), *msg = cc_jv_get(root, "error");
    int rc = 0;
    double C[CC_MAX_COMP], g[CC_MAX_COMP * CC_MAX_DOF], H[CC_MAX_COMP * CC_MAX_DOF * CC_MAX_DOF];
    if (root->type != CC_JV_OBJECT)
        rc = cc_fail(rd->err, "answer to request %d is a JSON %s, not an object with "
                      "\"elements\"", rd->batch, cc_jv_type_name(root));
    else if (msg)
        rc = cc_fail(rd->err, "the program says: %s",
                      msg->type == CC_JV_STRING ? msg->str : "(an error that is not a string)");
    else if (!els || els->type != CC_JV_ARRAY)
        rc = cc_fail(rd->err, "answer to request %d has no list \"elements\" (nor \"error\"): %s",
                      rd->batch, rd->x->last);
    else if (els->n != n)
        rc = cc_fail(rd->err, "answer to request %d holds %d elements, the request %d",
                      rd->batch, els->n, n);
    if (rc == 0 && rd->x->free_ncomp && !rd->x->seen && n > 0) {   /* C's components, from its first answer */
        const cc_jv *o = &els->items[0], *v = cc_jv_get(o, "value"), *g = cc_jv_get(o, "gradient");
        int nc = v && v->type == CC_JV_ARRAY ? v->n : g && g->type == CC_JV_ARRAY ? g->n : 0;
        if (nc >= 1 && nc <= CC_MAX_COMP) m->ncomp = nc;
        rd->x->free_ncomp = 0;
    }
    for (int i = 0; i < n && rc == 0; i++) {
        rd->elem = i;
        const cc_jv *o = &els->items[i];
        if (o->type != CC_JV_OBJECT) {
            rc = bad(rd, "a %s, not an object", cc_jv_type_name(o));
            break;
        }
        int have = rd->x->force ? read_force(rd, o, C, g, H) : read_condition(rd, o, C, g, H);
        if (have < 0 || cc_memo_store(m, e[i], have, C, g, H) < 0) rc = -1;
        else rd->x->seen |= have;
    }
    cc_jdoc_free(doc);
    return rc;
}

/* send the request for e[0..n) with bits want and store the answer; 0 or -1 */
static int exchange(cc_exec *x, cc_memo *m, cc_memo_entry **e, int n, int want, char *err)
{
    char *req = NULL, *line, perr[400];
    size_t len = 0;
    FILE *f = open_memstream(&req, &len);
    if (!f) return cc_fail(err, "out of memory");
    put_request(f, x, m, e, n, want);
    if (fclose(f) != 0) return free(req), cc_fail(err, "out of memory");
    x->batches++;
    x->elements += n;
    int rc = cc_proc_exchange(&x->proc, req, len, x->timeout, &line, perr);
    free(req);
    if (rc < 0)
        return cc_fail(err, "%s (request %d, %d elements; last received: %s)", perr, x->batches, n,
                            x->last[0] ? x->last : "nothing");
    snprintf(x->last, sizeof x->last, "%.60s%s", line, strlen(line) > 60 ? "..." : "");
    reader rd = {x, m, err, x->batches, 0};
    return read_answer(&rd, m, line, e, n);
}

int cc_exec_fetch(cc_exec *x, cc_memo *m, char *err)
{
    int nm = cc_memo_missing_count(m), rc = 0;
    cc_memo_entry **e = malloc(sizeof *e * CC_EXEC_BATCH);
    char *done = calloc((size_t)(nm > 0 ? nm : 1), 1);
    if (!e || !done) rc = cc_fail(err, "out of memory");
    /* group by the bits asked, in the order asked */
    for (int i = 0; i < nm && rc == 0; i++) {
        if (done[i]) continue;
        int want = cc_memo_missing(m, i)->asked, n = 0;
        for (int k = i; k < nm && rc == 0; k++) {
            if (done[k] || cc_memo_missing(m, k)->asked != want) continue;
            done[k] = 1;
            e[n++] = cc_memo_missing(m, k);
            if (n == CC_EXEC_BATCH) rc = exchange(x, m, e, n, want, err), n = 0;
        }
        if (n && rc == 0) rc = exchange(x, m, e, n, want, err);
    }
    cc_memo_clear_missing(m);
    free(e), free(done);
    return rc;
}
