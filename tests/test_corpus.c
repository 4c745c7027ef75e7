/* The mutation corpus: programs with one planted mistake each, and right programs that differ
 * only in form, run through the element protocol, each with the verdict and the kind of mistake
 * it must get (docs/reliability.md, "The mutation corpus").
 *
 * The programs are tests/corpus/mutant.c serving one of clothcheck's own variants (or Bridson's
 * force) with one mutation. Every entry is audited against the variant it claims with
 * `clothcheck audit COND --exec ... --claims ...`; the verdict is the exit status, the kind the
 * first finding of the first failing row that gates and is diagnosed (the first `^` line of the
 * report). The suite prints a confusion table (per mutation: entries, verdict right, kind right)
 * and asks for no false PASS, no false FAIL and 95 % of the mistakes named right.
 *
 *   test_corpus          the quick subset (four variants, both contracts: in make test-quick; two
 *                        of them in the sanitizer build)
 *   test_corpus --all    every variant (make corpus)
 *   test_corpus --only TEXT   the entries whose "spec contract mutation format" holds TEXT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc_test.h"
#include "io/jsonr.h"

#ifndef CC_MUTANT
#define CC_MUTANT "mutant"
#endif
#ifndef CC_CORPUS_TINY
#define CC_CORPUS_TINY 0
#endif
#ifndef CC_SIM_ADAPTER
#define CC_SIM_ADAPTER "sim_adapter"
#endif

static int run_all;
static const char *only;   /* --only TEXT: the entries whose "spec contract mutation format" holds TEXT */

/* What a program serves and the condition it is audited as. */
typedef struct served {
    const char *spec;        /* mutant --serve */
    const char *condition;   /* clothcheck audit COND */
    int quick;               /* 1: in the quick subset, 2: also in the smallest (under the sanitizers) */
    int ncomp;               /* components of C */
    int has_hessian;         /* 0 where d2C = 0 (the quadratic model): Hessian mistakes are no mistakes */
    int has_theta0;          /* 1 if C reads the rest angle */
    int has_energy;          /* 0 for Bridson's force */
    int nv_hinge;            /* 1 for a hinge's variant */
    int consistent;          /* 1 if its derivatives are those of its value (not Pritchard's frozen
                                magnitudes, not Macri's published ones): a right one passes unclaimed */
} served;

static const served variants[] = {
    {"stretch/bw98", "stretch", 2, 2, 1, 0, 1, 0, 1},
    {"shear/bw98", "shear", 0, 1, 1, 0, 1, 0, 1},
    {"shear/normalized", "shear", 0, 1, 1, 0, 1, 0, 1},
    {"bend/pritchard", "bend", 0, 1, 1, 1, 1, 1, 0},
    {"bend/pritchard-exact", "bend", 2, 1, 1, 1, 1, 1, 1},
    {"bend/macri", "bend", 0, 1, 1, 1, 1, 1, 0},
    {"bend/bridson", "bend", 0, 1, 1, 1, 1, 1, 1},
    {"bend/discrete-shells", "bend", 0, 1, 1, 1, 1, 1, 1},
    {"bend/quadratic", "bend", 0, 3, 0, 0, 1, 1, 1},
    {"spring/linear", "spring", 1, 1, 1, 0, 1, 0, 1},
    {"bridson-force", "bend", 1, 1, 1, 1, 0, 1, 1},
};

/* A mutation, the kind it must be named (NULL: a right program, it must pass) and where it
 * applies. */
typedef struct mutation {
    const char *name;        /* mutant --mutation */
    const char *format;      /* mutant --format */
    const char *kind;        /* expected kind, or NULL for a right program */
    int contract;            /* 0 both, 1 condition only, 2 force only */
    int unclaimed;           /* 1: audited without --claims (only its own numbers to go by) */
} mutation;

static const mutation mutations[] = {
    {"none", "17g", NULL, 0, 0},
    {"none", "repr", NULL, 0, 0},
    {"none", "9g", NULL, 0, 0},
    {"ulps", "17g", NULL, 0, 0},
    {"float32", "9g", NULL, 0, 0},
    {"float32", "repr32", NULL, 0, 0},
    {"energy-offset", "17g", NULL, 2, 0},
    {"sign", "17g", "sign", 0, 0},
    {"sign-hessian", "17g", "sign", 0, 0},
    {"factor", "17g", "scale", 0, 0},
    {"hessian-factor", "17g", "scale", 0, 0},
    {"gauss-newton", "17g", "gauss-newton", 2, 0},
    {"swap", "17g", "component-swap", 1, 0},
    {"relabel", "17g", "relabelled", 0, 0},
    {"axis-major", "17g", "relabelled", 0, 0},
    {"transpose", "17g", "relabelled", 2, 0},
    {"asym", "17g", "asymmetric", 0, 0},
    {"nan-edge", "17g", "non-finite", 0, 0},
    {"theta0-ignored", "17g", "rest-angle", 0, 0},
    {"theta0-sign", "17g", "rest-angle", 0, 0},
    {"area-power", "17g", "proportional", 0, 0},
    {"frozen", "17g", "frozen-magnitude", 0, 0},
    {"no-projector", "17g", "projector", 0, 0},
    {"hessian-alpha", "17g", "proportional", 0, 0},
    {"psd", "17g", "projected", 2, 0},
    {"float32-derivative-sign", "9g", "sign", 0, 0},
    {"folded-skip", "17g", "scale", 0, 0},
    {"angle-range", "17g", "angle-range", 0, 0},
    /* without a claim: a program of limited precision has its gradient checked against its values */
    {"none", "9g", NULL, 0, 1},
    {"float32", "9g", NULL, 0, 1},
    {"float32", "repr32", NULL, 0, 1},
    {"float32-derivative-sign", "9g", "sign", 0, 1},
};

#define NMUT ((int)(sizeof mutations / sizeof mutations[0]))
#define NVAR ((int)(sizeof variants / sizeof variants[0]))

/* 1 if mutation m is a mistake (or a right form) of variant v in contract `force` at all */
static int applies(const served *v, const mutation *m, int force)
{
    const char *n = m->name;
    int bridson = !v->has_energy, spring = !strcmp(v->condition, "spring"), tri = !strcmp(v->condition, "stretch") ||
                  !strcmp(v->condition, "shear");
    if ((m->contract == 1 && force) || (m->contract == 2 && !force)) return 0;
    if (bridson && !force) return 0;   /* a force model: no condition contract */
    if (m->unclaimed && !v->consistent) return 0;   /* its own derivatives differ from its value's */
    if (bridson && m->unclaimed && m->kind) return 0;   /* no energy: a force's sign has nothing to differ from */
    if (!strcmp(n, "swap")) return v->ncomp >= 2;
    if (!strcmp(n, "energy-offset")) return v->has_energy;
    if (!strcmp(n, "gauss-newton")) return v->has_hessian && v->has_energy;
    if (!strcmp(n, "transpose")) return bridson;
    if (!strcmp(n, "asym"))   /* where the blocks are not symmetric already, and the claimed Hessian is (not Macri's) */
        return !spring && !bridson && strcmp(v->spec, "bend/macri") && strcmp(v->spec, "bend/quadratic") &&
               strcmp(v->spec, "stretch/bw98") && (force || strcmp(v->spec, "shear/bw98"));
    if (!strcmp(n, "relabel")) return !spring;
    if (!strcmp(n, "sign-hessian") || !strcmp(n, "hessian-factor")) return v->has_hessian || force;
    if (!strncmp(n, "theta0", 6)) return v->has_theta0;
    if (!strcmp(n, "area-power")) return tri;
    if (!strcmp(n, "frozen")) return !strcmp(v->spec, "bend/pritchard-exact") || !strcmp(v->spec, "bend/bridson");
    if (!strcmp(n, "no-projector")) return spring || !strcmp(v->spec, "stretch/bw98");
    if (!strcmp(n, "hessian-alpha")) return tri;
    if (!strcmp(n, "folded-skip")) return v->nv_hinge;
    if (!strcmp(n, "angle-range")) return v->has_theta0 && !bridson && strcmp(v->spec, "bend/macri");   /* C = theta - theta0 */
    if (!strcmp(n, "psd")) return v->has_energy && strcmp(v->condition, "spring") && strcmp(v->spec, "bend/quadratic");
    return 1;
}

/* 1 if mutation `name` is in the smallest subset (the sanitizer build's: its code paths, not its
 * statistics) */
static int tiny(const char *name)
{
    static const char *const some[] = {"none", "float32", "nan-edge", "theta0-ignored", "gauss-newton", "area-power",
                                       "swap"};
    for (size_t i = 0; i < sizeof some / sizeof some[0]; i++)
        if (!strcmp(name, some[i])) return 1;
    return 0;
}

/* The outcome of one entry. */
typedef struct outcome {
    int status;              /* exit status of the audit */
    char kind[32];           /* the first finding's kind, or "" */
} outcome;

/* kind = the first diagnosis kind of the first failing gating row of the JSON report */
static void first_kind(const char *path, char *kind, int len)
{
    kind[0] = 0;
    char *text = cc_test_read_file(path), err[160];
    if (!text) return;
    cc_jdoc *doc = cc_jdoc_parse(text, strlen(text), err);
    free(text);
    if (!doc) return;
    const cc_jv *root = cc_jdoc_root(doc), *rows = cc_jv_get(root, "rows");
    if (!rows) rows = root;
    for (int i = 0; rows->type == CC_JV_ARRAY && i < rows->n && !kind[0]; i++) {
        const cc_jv *r = &rows->items[i], *gates = cc_jv_get(r, "gates"), *pass = cc_jv_get(r, "pass");
        const cc_jv *dg = cc_jv_get(r, "diagnosis");
        if (!gates || !gates->num || !pass || pass->num || !dg || dg->type != CC_JV_ARRAY || !dg->n) continue;
        const cc_jv *k = cc_jv_get(&dg->items[0], "kind");
        if (k && k->type == CC_JV_STRING) snprintf(kind, (size_t)len, "%s", k->str);
    }
    cc_jdoc_free(doc);
}

/* the audit's command line for entry (v, m, force) into buf */
static void command(const served *v, const mutation *m, int force, const char *json, char *buf, int len)
{
    char claim[64] = "";
    if (!m->unclaimed) snprintf(claim, sizeof claim, " --claims %s", v->spec);
    snprintf(buf, (size_t)len, "audit %s --exec '%s --serve %s --mutation %s --format %s'%s%s --samples %d "
             "--json %s", v->condition, CC_MUTANT, v->spec, m->name, m->format, claim,
             force ? " --contract force --k 2" : "", CC_CORPUS_TINY && !run_all ? 30 : 100, json);
}

static outcome run_entry(const served *v, const mutation *m, int force)
{
    char json[] = "/tmp/cc_corpusXXXXXX", cmd[1024];
    static char out[1 << 16], err[1 << 14];
    outcome o = {-1, ""};
    int fd = mkstemp(json);
    if (fd < 0) return o;
    close(fd);
    command(v, m, force, json, cmd, sizeof cmd);
    o.status = cc_test_run_cli(cmd, out, sizeof out, err, sizeof err);
    first_kind(json, o.kind, sizeof o.kind);
    remove(json);
    return o;
}

/* Per mutation and contract: entries, verdicts right, kinds right. */
typedef struct tally {
    int entries, verdict, kind;
} tally;

static void test_corpus(void)
{
    tally t[NMUT][2];
    int false_pass = 0, false_fail = 0, mistakes = 0, named = 0, total = 0;
    memset(t, 0, sizeof t);
    for (int vi = 0; vi < NVAR; vi++) {
        const served *v = &variants[vi];
        if (!run_all && v->quick < (CC_CORPUS_TINY ? 2 : 1)) continue;
        for (int force = 0; force < 2; force++)
            for (int mi = 0; mi < NMUT; mi++) {
                const mutation *m = &mutations[mi];
                if (!applies(v, m, force)) continue;
                /* under the sanitizers: a few mutations, the stretch as a condition and the bends as forces */
                if (!run_all && CC_CORPUS_TINY && (!tiny(m->name) || force != (v->nv_hinge))) continue;
                char label[160];
                snprintf(label, sizeof label, "%s %s %s %s%s", v->spec, force ? "force" : "condition", m->name, m->format,
                         m->unclaimed ? " unclaimed" : "");
                if (only && !strstr(label, only)) continue;
                outcome o = run_entry(v, m, force);
                int want = m->kind ? 1 : 0, verdict_ok = o.status == want;
                int kind_ok = !m->kind || (verdict_ok && !strcmp(o.kind, m->kind));
                tally *c = &t[mi][force];
                c->entries++, c->verdict += verdict_ok, c->kind += kind_ok, total++;
                if (!m->kind && o.status != 0) false_fail++;
                if (m->kind && o.status == 0) false_pass++;
                if (m->kind) mistakes++, named += kind_ok;
                if (!verdict_ok || !kind_ok) {
                    char cmd[1024];
                    command(v, m, force, "F", cmd, sizeof cmd);
                    printf("\n  miss: %s %s %s %s: exit %d, kind '%s' (want exit %d%s%s)\n    clothcheck %s", v->spec,
                           force ? "force" : "condition", m->name, m->format, o.status, o.kind, want, m->kind ? ", kind " : "",
                           m->kind ? m->kind : "", cmd);
                }
            }
    }
    printf("\n\n  mutation                format  contract   claim     entries  verdict  kind\n");
    for (int mi = 0; mi < NMUT; mi++)
        for (int force = 0; force < 2; force++) {
            const tally *c = &t[mi][force];
            if (!c->entries) continue;
            printf("  %-23s %-7s %-10s %-9s %7d  %7d  %4d\n", mutations[mi].name, mutations[mi].format,
                   force ? "force" : "condition", mutations[mi].unclaimed ? "unclaimed" : "claimed", c->entries,
                   c->verdict, c->kind);
        }
    printf("  %d entries: %d false PASS, %d false FAIL; %d of %d mistakes named with the right kind (%.1f %%)\n", total,
           false_pass, false_fail, named, mistakes, mistakes ? 100.0 * named / mistakes : 100.0);
    CU_ASSERT_EQUAL(false_pass, 0);
    CU_ASSERT_EQUAL(false_fail, 0);
    CU_ASSERT(named >= 0.95 * mistakes);
}

/* ---- the system corpus: whole simulators through the system protocol ---- */

/* A simulator with one mistake, or a right one in another form, and the words the first finding
 * of the first failing check that gates must hold (NULL: it must pass). */
typedef struct system_entry {
    const char *program;     /* "sim" (tests/exec/sim_adapter.c) or "springs" (docs/examples/system/springs.py) */
    const char *mistake;     /* its --mistake, or "", or its flags as they are ("--...") */
    const char *words;       /* expected in the finding, or NULL for a right one */
} system_entry;

static const system_entry systems[] = {
    {"sim", "", NULL},
    {"sim", "single", NULL},
    {"sim", "digits9", NULL},
    {"sim", "energy-offset", NULL},
    {"sim", "energy-big-offset", NULL},
    {"sim", "wrong-vertex", "a term added at the wrong vertex"},
    {"sim", "transposed", "it is the transpose of the right block"},
    {"sim", "damping-sign", "it is the negative of the right block: a sign"},
    {"sim", "doubled", "a term counted twice in the force and its Jacobian and once in the energy"},
    {"sim", "b-sign", "the term h^2 df/dx v has the wrong sign"},
    {"sim", "b-h", "the term h^2 df/dx v has one h too few"},
    {"sim", "A-h", "the term -h^2 df/dx has one h too few"},
    {"sim", "nan-force", "the force entry 5 (vertex 1, axis z) is NaN"},
    {"sim", "nan-all", "the force entry 0 (vertex 0, axis x) is NaN"},
    {"sim", "nan-jacobian", "df/dx entry (4, 7) (row vertex 1 y, column vertex 2 y) is NaN"},
    {"sim", "damping-dx-sign", "times Baraff & Witkin's form (5.2: -kd Cdot d2C/dx2): its sign"},
    {"sim", "damping-dx-twice", "is 2 times Baraff & Witkin's form (5.2: -kd Cdot d2C/dx2): a factor in it"},
    {"sim", "jacobian-predicted", "damping part is odd in v: df/dx changes with v other than through the damping"},
    {"springs", "", NULL},
    {"springs", "wrong-vertex", "a term added at the wrong column vertex"},
    {"springs", "damping-sign", "it is the negative of the right block: a sign"},
    {"springs", "doubled", "a term counted twice in the force and its Jacobian and once in the energy"},
    {"springs", "missing-bend-jacobian", "a term missing; elements holding both: hinge"},
    {"springs", "damping-dx-sign", "is -1 times the exact one: its sign"},
    {"springs", "--damping-dx bw", NULL},
    {"springs", "--damping-dx none", NULL},
    {"springs", "--damping-dx bw --mistake damping-dx-sign", "times Baraff & Witkin's form (5.2: -kd Cdot d2C/dx2): its sign"},
};

#define NSYS ((int)(sizeof systems / sizeof systems[0]))

/* the first finding of the first failing check that gates in the JSON report at path, into out */
static void first_system_finding(const char *path, char *out, int len)
{
    out[0] = 0;
    char *text = cc_test_read_file(path), err[160];
    if (!text) return;
    cc_jdoc *doc = cc_jdoc_parse(text, strlen(text), err);
    free(text);
    const cc_jv *checks = doc ? cc_jv_get(cc_jdoc_root(doc), "checks") : NULL;
    for (int i = 0; checks && checks->type == CC_JV_ARRAY && i < checks->n && !out[0]; i++) {
        const cc_jv *c = &checks->items[i], *st = cc_jv_get(c, "status"), *g = cc_jv_get(c, "gates");
        const cc_jv *f = cc_jv_get(c, "findings");
        if (!g || !g->num || !st || st->type != CC_JV_STRING || strcmp(st->str, "fail") || !f || !f->n) continue;
        if (f->items[0].type == CC_JV_STRING) snprintf(out, (size_t)len, "%s", f->items[0].str);
    }
    cc_jdoc_free(doc);
}

static void test_system_corpus(void)
{
    int false_pass = 0, false_fail = 0, mistakes = 0, named = 0, ran = 0;
    printf("\n");
    for (int i = 0; i < NSYS; i++) {
        const system_entry *e = &systems[i];
        if (CC_CORPUS_TINY && !run_all && i % 10) continue;   /* every tenth under the sanitizers */
        int sim = !strcmp(e->program, "sim");
        char json[] = "/tmp/cc_corpus_sysXXXXXX", cmd[1024], finding[600];
        static char out[1 << 16], err[1 << 14];
        int fd = mkstemp(json);
        if (fd < 0) continue;
        close(fd);
        snprintf(cmd, sizeof cmd, "check-system --exec '%s%s%s%s' --grid 5 --json %s%s", sim ? CC_SIM_ADAPTER : "python3 ",
                 sim ? "" : CC_SOURCE_DIR "/docs/examples/system/springs.py", !e->mistake[0] ? "" : e->mistake[0] == '-' ? " " : " --mistake ",
                 e->mistake, json, sim ? " --claims 'standard, bend_variant=pritchard-exact, k_bend=1e-3, d_bend=2e-4'" : "");
        int rc = cc_test_run_cli(cmd, out, sizeof out, err, sizeof err);
        first_system_finding(json, finding, sizeof finding);
        remove(json);
        int ok = e->words ? rc == 1 && strstr(finding, e->words) != NULL : rc == 0;
        ran++;
        false_pass += e->words && rc == 0, false_fail += !e->words && rc != 0;
        mistakes += e->words != NULL, named += e->words && ok;
        printf("  %-8s %-18s exit %d  %s\n", e->program, e->mistake[0] ? e->mistake : "(right)", rc, ok ? "ok" : "MISS");
        if (!ok) printf("      clothcheck %s\n      first finding: %s\n", cmd, finding);
    }
    printf("  %d simulators: %d false PASS, %d false FAIL; %d of %d mistakes named\n", ran, false_pass, false_fail,
           named, mistakes);
    CU_ASSERT_EQUAL(false_pass, 0);
    CU_ASSERT_EQUAL(false_fail, 0);
    CU_ASSERT(named >= 0.95 * mistakes);
}

/* ---- identification: what a program computes, said without being told ---- */

/* A program, how it is audited (no --claims), and what it must be identified as: the claim (or
 * the variant that gives the same numbers), the form of its derivatives, and one more key of the
 * "identified" object that must hold a value (NULL: none). */
typedef struct id_entry {
    const char *serve, *mutation, *condition;
    int force;
    const char *claims, *same_as;   /* the identified claim, or the same function's other name */
    const char *hessian;
    const char *key, *value;        /* e.g. "area_power", "0.75" */
} id_entry;

static const id_entry identities[] = {
    {"stretch/bw98", "none", "stretch", 0, "stretch/bw98", NULL, "exact", NULL, NULL},
    {"stretch/bw98", "area-power", "stretch", 0, "stretch/bw98", NULL, "exact", "area_power", "0.75"},
    {"stretch/bw98", "none", "stretch", 1, "stretch/bw98", NULL, "exact", NULL, NULL},
    {"stretch/bw98", "factor", "stretch", 1, "stretch/bw98", NULL, "exact", "k", "4"},
    {"shear/bw98", "none", "shear", 0, "shear/bw98", NULL, "exact", NULL, NULL},
    {"shear/normalized", "none", "shear", 1, "shear/normalized", NULL, "exact", NULL, NULL},
    {"bend/pritchard", "none", "bend", 0, "bend/pritchard", NULL, "frozen-magnitude", NULL, NULL},
    {"bend/pritchard", "none", "bend", 1, "bend/pritchard", NULL, "frozen-magnitude", NULL, NULL},
    {"bend/pritchard-exact", "frozen", "bend", 1, "bend/pritchard", NULL, "frozen-magnitude", NULL, NULL},
    {"bend/pritchard-exact", "none", "bend", 0, "bend/pritchard-exact", "bend/bridson", "exact", NULL, NULL},
    {"bend/bridson", "none", "bend", 1, "bend/pritchard-exact", "bend/bridson", "exact", NULL, NULL},
    {"bend/macri", "none", "bend", 0, "bend/macri", NULL, "as published", NULL, NULL},
    {"bend/discrete-shells", "none", "bend", 1, "bend/discrete-shells", NULL, "exact", NULL, NULL},
    {"bend/quadratic", "none", "bend", 0, "bend/quadratic", NULL, "exact", NULL, NULL},
    {"bend/pritchard-exact", "gauss-newton", "bend", 1, "bend/pritchard-exact", NULL, "gauss-newton", NULL, NULL},
    {"bend/discrete-shells", "psd", "bend", 1, "bend/discrete-shells", NULL, "projected", NULL, NULL},
    {"bend/bridson", "relabel", "bend", 0, "bend/pritchard-exact", "bend/bridson", "exact", "vertex_map", "["},
    {"bridson-force", "none", "bend", 1, "bridson-force", NULL, "exact", NULL, NULL},
    {"spring/linear", "none", "spring", 1, "spring/linear", NULL, "exact", NULL, NULL},
    {"spring/linear", "float32", "spring", 0, "spring/linear", NULL, "exact", NULL, NULL},
};

#define NID ((int)(sizeof identities / sizeof identities[0]))

/* the member `key` of the "identified" object of the JSON report at path, as text, into out */
static void identified(const char *path, const char *key, char *out, int len)
{
    out[0] = 0;
    char *text = cc_test_read_file(path), err[160];
    if (!text) return;
    cc_jdoc *doc = cc_jdoc_parse(text, strlen(text), err);
    free(text);
    const cc_jv *id = doc ? cc_jv_get(cc_jdoc_root(doc), "identified") : NULL, *v = id ? cc_jv_get(id, key) : NULL;
    if (v && v->type == CC_JV_STRING) snprintf(out, (size_t)len, "%s", v->str);
    else if (v && v->type == CC_JV_NUMBER) snprintf(out, (size_t)len, "%.6g", v->num);
    else if (v && v->type == CC_JV_BOOL) snprintf(out, (size_t)len, "%s", v->num ? "true" : "false");
    else if (v && v->type == CC_JV_ARRAY) snprintf(out, (size_t)len, "[%d]", v->n);
    cc_jdoc_free(doc);
}

static void test_identification(void)
{
    int right = 0;
    printf("\n");
    int tried = 0;
    for (int i = 0; i < NID; i++) {
        const id_entry *e = &identities[i];
        if (CC_CORPUS_TINY && !run_all && i % 5) continue;
        tried++;
        char json[] = "/tmp/cc_corpus_idXXXXXX", cmd[1024], claims[64], form[64], matches[16], extra[64] = "";
        static char out[1 << 16], err[1 << 14];
        int fd = mkstemp(json);
        if (fd < 0) continue;
        close(fd);
        snprintf(cmd, sizeof cmd, "audit %s --exec '%s --serve %s --mutation %s' --samples 30 --json %s%s", e->condition,
                 CC_MUTANT, e->serve, e->mutation, json, e->force ? " --contract force --k 2" : "");
        cc_test_run_cli(cmd, out, sizeof out, err, sizeof err);
        identified(json, "claims", claims, sizeof claims);
        identified(json, "hessian", form, sizeof form);
        identified(json, "matches", matches, sizeof matches);
        if (e->key) identified(json, e->key, extra, sizeof extra);
        remove(json);
        int ok = (!strcmp(claims, e->claims) || (e->same_as && !strcmp(claims, e->same_as))) && !strcmp(form, e->hessian) &&
                 !strcmp(matches, "true") && (!e->key || !strncmp(extra, e->value, strlen(e->value)));
        right += ok;
        printf("  %-22s %-13s %-9s identified %s (%s)%s%s%s  %s\n", e->serve, e->mutation, e->force ? "force" : "condition",
               claims, form, e->key ? " " : "", e->key ? e->key : "", e->key ? extra : "", ok ? "ok" : "MISS");
        if (!ok) printf("      clothcheck %s\n", cmd);
    }
    printf("  %d of %d programs identified as what they compute\n", right, tried);
    CU_ASSERT_EQUAL(right, tried);
}

static const cc_test_case tests[] = {
    {"the element corpus: no false PASS, no false FAIL, 95 % of kinds right", test_corpus},
    {"the system corpus: no false PASS, no false FAIL, 95 % of mistakes named", test_system_corpus},
    {"identification: each program named as what it computes", test_identification},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all")) run_all = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i], run_all = 1;
    }
    return cc_test_main("corpus", tests);
}
