/* Identification of the formulation a target computes (see identify.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/identify.h"
#include "checks/reference.h"

#define ID_ELEMENTS 12   /* the batch's first random elements compared */
#define ID_KEEP 8        /* hypotheses of the first round tried again with other labels and powers */

static const char *const form_names[CC_FORM_COUNT] = {"own", "exact", "frozen-magnitude", "gauss-newton", "projected"};

const char *cc_form_name(cc_form f) { return f >= 0 && f < CC_FORM_COUNT ? form_names[f] : "?"; }

const char *cc_identity_hessian(const cc_identity *id)
{
    if (id->form != CC_FORM_OWN) return cc_form_name(id->form);
    if (id->cond && id->cond->claim == CC_CLAIM_FROZEN) return "frozen-magnitude";
    return id->cond && id->cond->claim == CC_CLAIM_NONE ? "as published" : "exact";
}

/* One hypothesis: a formulation, at unit stiffness. */
typedef struct hyp {
    const cc_condition *cond;   /* NULL: Bridson's force */
    cc_form form;
    double P;                   /* a triangle's area power */
    int perm[CC_MAX_NV];
    int as_given;               /* relabelled with the rest data as given (cc_case_relabel) */
} hyp;

/* The target's numbers at the compared elements. */
typedef struct seen {
    double x[CC_MAX_DOF];
    cc_rest r;
    cc_eval e;
    int got;                    /* CC_WANT_* bits it gave */
} seen;

/* r = r0 with the area power P (a triangle's rest data made again); 0 or -1 */
static int with_power(const cc_rest *r0, double P, cc_rest *r)
{
    char err[CC_ERRLEN];
    *r = *r0;
    if (r0->nv != 3 || P == r0->area_power) return 0;
    double uv[6] = {0, 0, r0->du1, r0->dv1, r0->du2, r0->dv2};
    return cc_rest_triangle(r, uv, P, r0->bu, r0->bv, err);
}

/* C, g, H of the force form of condition values c (E = 1/2 C.C at unit stiffness), its Hessian
 * Gauss-Newton (second term left out) or projected onto the PSD matrices as form says */
static void force_form(const double *c, const cc_deriv *dc, int nc, int n, cc_form form, double *C, cc_deriv *d)
{
    memset(d, 0, sizeof *d);
    C[0] = 0;
    for (int k = 0; k < nc; k++) {
        C[0] += 0.5 * c[k] * c[k];
        for (int i = 0; i < n; i++) {
            d->g[0][i] += c[k] * dc->g[k][i];
            for (int j = 0; j < n; j++)
                d->H[0][i][j] += dc->g[k][i] * dc->g[k][j] + (form == CC_FORM_GAUSS_NEWTON ? 0 : c[k] * dc->H[k][i][j]);
        }
    }
    if (form == CC_FORM_PROJECTED) {
        double P[CC_MAX_DOF * CC_MAX_DOF];
        cc_psd_projection(&d->H[0][0][0], n, P);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) d->H[0][i][j] = P[i * n + j];
    }
}

/* hypothesis h at element (x, r0) in the target's form (force: the energy form at unit k): its
 * value and derivatives in the target's slots; the CC_CLAIM_HAS_* bits, or -1 */
static int hyp_at(const hyp *h, int nv, int force, const double *x, const cc_rest *r0, double *C, cc_deriv *d)
{
    cc_rest rp, r;
    double y[CC_MAX_DOF];
    if (with_power(r0, h->P, &rp) < 0 || cc_case_relabel(nv, h->perm, h->as_given, x, &rp, y, &r) < 0) return -1;
    cc_deriv q;
    double c[CC_MAX_COMP];
    int got;
    if (!h->cond) {
        cc_claim_spec s = {NULL, 0, 1.0, 1};
        got = cc_claim_eval(&s, y, &r, c, &q);
    } else if (force && (h->form == CC_FORM_GAUSS_NEWTON || h->form == CC_FORM_PROJECTED)) {
        cc_claim_spec s = {h->cond, 0, 1.0, 0};
        double v[CC_MAX_COMP];
        cc_deriv dv;
        got = cc_claim_eval(&s, y, &r, v, &dv);
        if (got >= 0) force_form(v, &dv, h->cond->ncomp, 3 * nv, h->form, c, &q);
    } else {
        cc_claim_spec s = {h->cond, force, 1.0, 0};
        got = h->form == CC_FORM_EXACT ? cc_claim_eval_exact(&s, y, &r, c, &q)
            : h->form == CC_FORM_FROZEN ? cc_claim_eval_frozen(&s, y, &r, c, &q) : cc_claim_eval(&s, y, &r, c, &q);
    }
    if (got < 0) return -1;
    int nc = force || !h->cond ? 1 : h->cond->ncomp, n = 3 * nv;
    memcpy(C, c, sizeof(double) * (size_t)nc);
    memset(d, 0, sizeof *d);
    for (int k = 0; k < nc; k++)   /* block m of the relabelled element is the target's perm[m] */
        for (int i = 0; i < n; i++) {
            int pi = 3 * h->perm[i / 3] + i % 3;
            d->g[k][pi] = q.g[k][i];
            for (int j = 0; j < n; j++) d->H[k][pi][3 * h->perm[j / 3] + j % 3] = q.H[k][i][j];
        }
    return got;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* how far the target's numbers s[0..ns) are from hypothesis h (k fitted in the force form, the
 * energies up to one constant): the largest normwise relative error; *k the stiffness; NAN if
 * nothing could be compared */
static double distance(const hyp *h, const cc_target *t, const seen *s, int ns, int force, double *k)
{
    int n = 3 * t->nv, nc = t->ncomp, m = 0;
    double (*C)[CC_MAX_COMP] = malloc(sizeof *C * (size_t)ns);
    cc_deriv *d = malloc(sizeof *d * (size_t)ns);
    int *bits = malloc(sizeof *bits * (size_t)ns);
    double num = 0, den = 0, worst = NAN;
    if (!C || !d || !bits) goto done;
    for (int i = 0; i < ns; i++) {
        bits[i] = hyp_at(h, t->nv, force, s[i].x, &s[i].r, C[i], &d[i]);
        if (bits[i] < 0) continue;
        m++;
        for (int a = 0; a < n && force; a++) {   /* k: least squares over the gradients and Hessians */
            if (s[i].got & CC_WANT_GRAD) num += s[i].e.dC[0][a] * d[i].g[0][a], den += d[i].g[0][a] * d[i].g[0][a];
            for (int b = 0; b < n && (s[i].got & CC_WANT_HESS); b++)
                num += s[i].e.d2C[0][a][b] * d[i].H[0][a][b], den += d[i].H[0][a][b] * d[i].H[0][a][b];
        }
    }
    if (!m) goto done;
    *k = force && den > 0 ? num / den : 1.0;
    double off[ID_ELEMENTS], c = 0;   /* the energies' constant: their median excess */
    int no = 0;
    for (int i = 0; i < ns && no < ID_ELEMENTS; i++)
        if (bits[i] >= 0 && (bits[i] & CC_CLAIM_HAS_VALUE) && (s[i].got & CC_WANT_VALUE) && force)
            off[no++] = s[i].e.C[0] - *k * C[i][0];
    if (no) {
        qsort(off, (size_t)no, sizeof *off, by_value);
        c = off[no / 2];
    }
    worst = 0;
    for (int i = 0; i < ns; i++) {
        if (bits[i] < 0) continue;
        double kc = *k;
        cc_eval r;   /* the hypothesis as the target would give it */
        for (int q = 0; q < nc; q++) {
            r.C[q] = kc * C[i][q] + (q == 0 ? c : 0);
            for (int a = 0; a < n; a++) {
                r.dC[q][a] = kc * d[i].g[q][a];
                for (int b = 0; b < n; b++) r.d2C[q][a][b] = kc * d[i].H[q][a][b];
            }
        }
        r.ncomp = nc;
        if ((bits[i] & CC_CLAIM_HAS_VALUE) && (s[i].got & CC_WANT_VALUE))
            worst = fmax(worst, cc_compare_flat_floor(s[i].e.C, r.C, nc, cc_value_floor(r.dC, r.d2C, nc, s[i].x, t->nv)).rel);
        if (s[i].got & CC_WANT_GRAD)
            worst = fmax(worst, cc_compare_gradient_floor((double (*)[CC_MAX_DOF])s[i].e.dC, r.dC, nc, n,
                                                          cc_gradient_floor(r.d2C, nc, s[i].x, t->nv)).rel);
        if (s[i].got & CC_WANT_HESS)
            worst = fmax(worst, cc_compare_hessian_floor((double (*)[CC_MAX_DOF][CC_MAX_DOF])s[i].e.d2C, r.d2C, nc, n,
                                                         cc_hessian_floor(&r, s[i].x, t->nv)).rel);
        if (isnan(worst)) break;
    }
done:
    free(C), free(d), free(bits);
    return worst;
}

/* the forms worth trying for variant c (NULL: Bridson's force) in the target's form */
static int forms_of(const cc_condition *c, int force, cc_form *f)
{
    int n = 0;
    f[n++] = CC_FORM_OWN;
    if (!c) return n;
    cc_target t = cc_target_from_condition(c);
    if (c->claim != CC_CLAIM_EXACT && c->value_hd) f[n++] = CC_FORM_EXACT;
    if (c->claim == CC_CLAIM_EXACT && t.frozen) f[n++] = CC_FORM_FROZEN;
    if (force) f[n++] = CC_FORM_GAUSS_NEWTON, f[n++] = CC_FORM_PROJECTED;
    return n;
}

/* A hypothesis with its distance, for the rounds. */
typedef struct scored {
    hyp h;
    double d, k;
} scored;

/* 1 if p is the identity on nv vertices */
static int identity(const int *p, int nv);

/* 1 if a ranks before b: the closer, where they differ by more than tol; between two that agree
 * within tol, or that are as far (to a thousandth: a relabelling that is the same function, as
 * a triangle's turned with its rest data), a variant's own derivatives before other forms, and
 * its own labels before others */
static int before(const scored *a, const scored *b, int nv, double tol)
{
    if (isnan(b->d)) return 1;
    int am = a->d <= tol, bm = b->d <= tol;
    if (am != bm) return am;
    if (!am && !(fabs(a->d - b->d) <= fmax(tol, 1e-3 * fmax(a->d, b->d)))) return a->d < b->d;
    int ao = a->h.form == CC_FORM_OWN, bo = b->h.form == CC_FORM_OWN;
    if (ao != bo) return ao;
    int ai = identity(a->h.perm, nv), bi = identity(b->h.perm, nv);
    if (ai != bi) return ai;
    return a->d < b->d;
}

/* hypothesis h scored on the ns elements s, put in its place among best[0..nbest) */
static void consider(scored *best, int nbest, const hyp *h, const cc_target *t, const seen *s, int ns, int force,
                     double tol)
{
    scored c = {*h, NAN, 1};
    c.d = distance(h, t, s, ns, force, &c.k);
    if (isnan(c.d)) return;
    for (int i = 0; i < nbest; i++)
        if (before(&c, &best[i], t->nv, tol)) {
            memmove(&best[i + 1], &best[i], sizeof *best * (size_t)(nbest - 1 - i));
            best[i] = c;
            return;
        }
}

static int identity(const int *p, int nv)
{
    for (int m = 0; m < nv; m++)
        if (p[m] != m) return 0;
    return 1;
}

/* next permutation of p[0..n) in lexicographic order; 0 after the last */
static int next_perm(int *p, int n)
{
    int i = n - 2;
    while (i >= 0 && p[i] >= p[i + 1]) i--;
    if (i < 0) return 0;
    int k = n - 1;
    while (p[k] <= p[i]) k--;
    int tmp = p[i];
    p[i] = p[k], p[k] = tmp;
    for (int a = i + 1, b = n - 1; a < b; a++, b--) tmp = p[a], p[a] = p[b], p[b] = tmp;
    return 1;
}

int cc_identify(const cc_target *t, const cc_audit_opts *o, cc_identity *out)
{
    memset(out, 0, sizeof *out);
    int force = t->claims.as_energy || t->claims.bridson_force, nv = t->nv;
    seen *s = malloc(sizeof *s * ID_ELEMENTS);
    int ns = 0;
    if (!s) return -1;
    for (int id = 0; id < o->samples && ns < ID_ELEMENTS; id++) {
        cc_case c;
        if (cc_case_make(nv, o->seed, id, &o->sample, &c) < 0) continue;
        memcpy(s[ns].x, c.x, sizeof s[ns].x);
        s[ns].r = c.r;
        s[ns].got = t->eval(t->ctx, c.x, &c.r, CC_WANT_ALL, &s[ns].e);
        if (s[ns].got < 0 || !cc_eval_finite(&s[ns].e, s[ns].got)) continue;
        ns++;
    }
    double P0 = nv == 3 && ns ? s[0].r.area_power : 0;
    double tol = fmax(o->claim_tol > 0 ? o->claim_tol : CC_AUDIT_TOL_EXACT, CC_AUDIT_TOL_LIMITED * o->precision);
    scored best[ID_KEEP + 1];
    for (int i = 0; i <= ID_KEEP; i++) best[i].d = NAN;
    /* round one: every variant and form, the request's labels and power, on every element */
    hyp all[64];
    int nh = 0;
    for (int ci = -1; ci < cc_condition_count(); ci++) {
        const cc_condition *c = ci < 0 ? NULL : cc_condition_at(ci);
        if (ci < 0 ? !(force && nv == 4) : strcmp(c->condition, t->condition) || c->ncomp != (force ? c->ncomp : t->ncomp))
            continue;
        cc_form f[CC_FORM_COUNT];
        int nf = forms_of(c, force, f);
        for (int q = 0; q < nf && nh < 64; q++) {
            all[nh] = (hyp){c, f[q], P0, {0, 1, 2, 3}, 0};
            consider(best, ID_KEEP, &all[nh++], t, s, ns, force, tol);
        }
    }
    /* round two, where none matches: each of them with the vertices in another order, or another
     * area power, screened on the first few elements; the closest then on every element */
    if (!isnan(best[0].d) && best[0].d > tol) {
        scored screened[ID_KEEP + 1];
        int few = ns < 3 ? ns : 3;
        for (int i = 0; i <= ID_KEEP; i++) screened[i].d = NAN;
        for (int b = 0; b < nh; b++) {
            static const double powers[3] = {1.0, 0.75, 0.5};
            hyp h = all[b];
            for (int p = 0; p < 3 && nv == 3; p++)
                if (powers[p] != P0) h.P = powers[p], consider(screened, ID_KEEP, &h, t, s, few, force, tol);
            h.P = P0;
            for (h.as_given = 0; h.as_given < 2; h.as_given++) {   /* the rest relabelled too, or as given */
                for (int m = 0; m < CC_MAX_NV; m++) h.perm[m] = m;
                while (next_perm(h.perm, nv)) consider(screened, ID_KEEP, &h, t, s, few, force, tol);
            }
        }
        for (int i = 0; i < ID_KEEP && !isnan(screened[i].d); i++) consider(best, ID_KEEP, &screened[i].h, t, s, ns, force, tol);
    }
    free(s);
    if (isnan(best[0].d)) return -1;
    out->any = 1;
    out->cond = best[0].h.cond;
    out->bridson_force = !best[0].h.cond;
    out->form = best[0].h.form;
    out->area_power = nv == 3 ? best[0].h.P : 0;
    out->k = force ? best[0].k : 0;
    memcpy(out->perm, best[0].h.perm, sizeof out->perm);
    out->rest_as_given = best[0].h.as_given;
    for (int i = 1; i < ID_KEEP && !isnan(best[i].d); i++)   /* another variant that is the same function */
        if (best[i].d <= tol && best[i].h.form == CC_FORM_OWN && best[i].h.cond && best[i].h.cond != best[0].h.cond &&
            identity(best[i].h.perm, nv) && best[i].h.P == best[0].h.P) {
            out->same_as = best[i].h.cond;
            break;
        }
    out->max_rel = best[0].d;
    out->tol = tol;
    out->found = best[0].d <= tol;
    out->elements = ns;
    return 0;
}

/* 1 if the identified k is the request's */
static int same_k(const cc_identity *id, double k) { return fabs(id->k - k) <= 1e-6 * fabs(k); }

int cc_identity_is_claim(const cc_identity *id, const cc_claim_spec *claims, const cc_audit_opts *o)
{
    double P0 = o->sample.area_power > 0 ? o->sample.area_power : 1.0;
    int nv = claims->bridson_force ? 4 : claims->cond ? claims->cond->nv : 0;
    return cc_claim_given(claims) && id->bridson_force == claims->bridson_force && id->cond == claims->cond &&
           id->form == CC_FORM_OWN && (nv != 3 || id->area_power == P0) && identity(id->perm, nv) &&
           (!(claims->as_energy || claims->bridson_force) || same_k(id, claims->k));
}

void cc_identity_label(const cc_identity *id, const cc_audit_opts *o, double k_request, char *buf, int len)
{
    int at = 0, nv = id->bridson_force ? 4 : id->cond ? id->cond->nv : 0;
    double P0 = o->sample.area_power > 0 ? o->sample.area_power : 1.0;
    if (id->bridson_force) at = snprintf(buf, (size_t)len, "bridson-force");
    else at = snprintf(buf, (size_t)len, "%s/%s", id->cond->condition, id->cond->variant);
    const char *form = cc_identity_hessian(id);
    if (at < len) at += snprintf(buf + at, (size_t)(len - at), " (%s)", form);
    if (nv == 3 && id->area_power != P0 && at < len)
        at += snprintf(buf + at, (size_t)(len - at), ", alpha = a^%g", id->area_power);
    if (id->found && id->k > 0 && !same_k(id, k_request) && at < len)   /* a fitted k means something only in a match */
        at += snprintf(buf + at, (size_t)(len - at), ", k = %.6g", id->k);
    if (!identity(id->perm, nv) && at < len) {
        at += snprintf(buf + at, (size_t)(len - at), ", your");
        for (int m = 0; m < nv && at < len; m++) at += snprintf(buf + at, (size_t)(len - at), m ? ", x%d" : " x%d", m);
        if (at < len) at += snprintf(buf + at, (size_t)(len - at), " our");
        for (int m = 0; m < nv && at < len; m++) at += snprintf(buf + at, (size_t)(len - at), m ? ", x%d" : " x%d", id->perm[m]);
        if (id->rest_as_given && at < len)
            at += snprintf(buf + at, (size_t)(len - at), nv == 4 ? " (theta0 as the request gives it)" : " (the (u, v) as given)");
    }
    if (id->same_as && at < len)
        snprintf(buf + at, (size_t)(len - at), "; %s/%s gives the same numbers", id->same_as->condition, id->same_as->variant);
}

/* 1 if identity a is a better answer than b: a match over none, else the closer */
static int better(const cc_identity *a, const cc_identity *b)
{
    if (!b->any) return a->any;
    if (a->found != b->found) return a->found;
    return a->max_rel < b->max_rel;
}

void cc_identify_audit(const cc_audit *a, int force, double k, cc_identity *id)
{
    const cc_claim_spec *claims = &a->opts.claims;
    memset(id, 0, sizeof *id);
    if (cc_claim_given(claims) && !cc_audit_failed(a)) return;
    cc_target t = a->target;
    t.claims.as_energy = force && !claims->bridson_force, t.claims.k = k;
    cc_identity got;
    if (cc_condition_known(t.condition)) {
        if (cc_identify(&t, &a->opts, &got) == 0) *id = got;
    } else {   /* a target that names no condition (a model of the C API): each of its vertex count */
        for (int i = 0; i < cc_condition_count(); i++) {
            const cc_condition *c = cc_condition_at(i);
            if (c->nv != t.nv || cc_condition_find(c->condition, NULL) != c) continue;   /* (each condition once) */
            t.condition = c->condition;
            if (cc_identify(&t, &a->opts, &got) == 0 && better(&got, id)) *id = got;
        }
    }
    if (id->any && cc_identity_is_claim(id, claims, &a->opts) && !id->found) id->any = 0;   /* the claim rows say it */
}
