/* check-system --claims SPEC: what a program says it simulates, assembled by clothcheck's own
 * simulator one term at a time (sys_claims.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checks/sys_claims.h"

static const char *const term_names[] = {"stretch", "shear", "bend", "gravity", "drag"};

/* p = no term at all (the preset's other settings) */
static void no_terms(cc_sim_params *p)
{
    p->k_stretch = p->k_shear = p->k_bend = 0;
    p->d_stretch = p->d_shear = p->d_bend = 0;
    p->gravity[0] = p->gravity[1] = p->gravity[2] = 0;
    p->air_drag = 0;
}

/* one item "TERM:VARIANT[:k=K][:d=D]" into p; 0, or -1 with err */
static int term_item(char *item, cc_sim_params *p, char *err)
{
    char *save = NULL, *term = strtok_r(item, ":", &save), *variant = strtok_r(NULL, ":", &save);
    int t = !strcmp(term, "stretch") ? 0 : !strcmp(term, "shear") ? 1 : !strcmp(term, "bend") ? 2 : -1;
    if (t < 0) return snprintf(err, CC_ERRLEN, "'%s': a term is stretch, shear or bend", term), -1;
    char name[40], value[64];
    static const char *const field[3] = {"stretch_variant", "shear_variant", "bend_variant"};
    if (variant && cc_sim_param_set(p, field[t], variant, err) < 0) return -1;
    for (char *kv = strtok_r(NULL, ":", &save); kv; kv = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq || (kv[0] != 'k' && kv[0] != 'd') || eq != kv + 1)
            return snprintf(err, CC_ERRLEN, "'%s' in %s: expected k=STIFFNESS or d=DAMPING", kv, term), -1;
        snprintf(name, sizeof name, "%c_%s", kv[0], term);
        snprintf(value, sizeof value, "%s", eq + 1);
        if (cc_sim_param_set(p, name, value, err) < 0) return -1;
    }
    return 0;
}

/* one item: a preset ("standard" is pritchard-table1), "gravity=G", "NAME=VALUE" or a term */
static int spec_item(char *item, cc_sim_params *p, char *err)
{
    while (*item == ' ') item++;
    for (char *e = item + strlen(item); e > item && e[-1] == ' ';) *--e = '\0';
    if (!*item) return 0;
    if (!strcmp(item, "standard") || !strcmp(item, "pritchard-table1") || !strcmp(item, "thesis-table3.1"))
        return cc_sim_preset(strcmp(item, "standard") ? item : "pritchard-table1", p, err);
    char *eq = strchr(item, '=');
    if (strchr(item, ':') && (!eq || strchr(item, ':') < eq)) return term_item(item, p, err);
    if (!eq) return snprintf(err, CC_ERRLEN, "'%s' is neither a term (stretch:bw98:k=5000) nor NAME=VALUE", item), -1;
    *eq = '\0';
    if (!strcmp(item, "gravity") && !strchr(eq + 1, ' ')) {   /* gravity=9.81: along -z */
        char g[80];
        snprintf(g, sizeof g, "0 0 -%s", eq + 1);
        return cc_sim_param_set(p, "gravity", g, err);
    }
    return cc_sim_param_set(p, item, eq + 1, err);
}

int cc_sys_claims_parse(const char *spec, cc_sim_params *p, char *err)
{
    if (cc_sim_preset("pritchard-table1", p, err) < 0) return -1;
    no_terms(p);
    p->area_power = 1.0;   /* alpha = a, as every request's default; 'standard' brings Table 1's a^0.75 */
    p->threads = 1;
    char *copy = strdup(spec), *save = NULL;
    if (!copy) return snprintf(err, CC_ERRLEN, "out of memory"), -1;
    int rc = 0;
    for (char *item = strtok_r(copy, ",", &save); item && rc == 0; item = strtok_r(NULL, ",", &save))
        rc = spec_item(item, p, err);
    free(copy);
    if (rc == 0) p->threads = 1;
    return rc;
}

/* p with every term but term t switched off */
static cc_sim_params only(const cc_sim_params *p, int t)
{
    cc_sim_params q = *p;
    no_terms(&q);
    if (t == 0) q.k_stretch = p->k_stretch, q.d_stretch = p->d_stretch;
    if (t == 1) q.k_shear = p->k_shear, q.d_shear = p->d_shear;
    if (t == 2) q.k_bend = p->k_bend, q.d_bend = p->d_bend;
    if (t == 3) memcpy(q.gravity, p->gravity, sizeof q.gravity);
    if (t == 4) q.air_drag = p->air_drag;
    return q;
}

/* 1 if term t is in p */
static int present(const cc_sim_params *p, int t)
{
    switch (t) {
    case 0: return p->k_stretch != 0 || p->d_stretch != 0;
    case 1: return p->k_shear != 0 || p->d_shear != 0;
    case 2: return p->k_bend != 0 || p->d_bend != 0;
    case 3: return p->gravity[0] != 0 || p->gravity[1] != 0 || p->gravity[2] != 0;
    default: return p->air_drag != 0;
    }
}

/* the energy (potential: the total without the kinetic) and force of one term's simulation */
static int term_eval(void *ctx, const double *x, const double *v, double h, int want, cc_sys_eval *out, char *err)
{
    cc_sim *s = ctx;
    (void)h;
    cc_sim_set_state(s, x, v);
    if (want & CC_SYS_ENERGY) {
        cc_sim_energy e;
        if (cc_sim_energies(s, &e) < 0) return snprintf(err, CC_ERRLEN, "claims: %s", cc_sim_error(s)), -1;
        out->E = e.total - e.kinetic;
    }
    if ((want & CC_SYS_FORCE) && cc_sim_force(s, out->f) < 0)
        return snprintf(err, CC_ERRLEN, "claims: %s", cc_sim_error(s)), -1;
    out->have = want & (CC_SYS_ENERGY | CC_SYS_FORCE);
    return 0;
}

int cc_sys_claims_build(cc_sys_claims *c, const cc_mesh *m, const cc_sim_params *p, char *err)
{
    memset(c, 0, sizeof *c);
    for (int t = 0; t < 5; t++) {
        if (!present(p, t)) continue;
        cc_sim_params q = only(p, t);
        cc_sim *s = cc_sim_new(m, &q, err);
        if (!s) {
            cc_sys_claims_free(c);
            return -1;
        }
        c->sim[c->n] = s;
        c->names[c->n] = term_names[t];
        c->terms[c->n] = (cc_sys_target){m, CC_SYS_ENERGY | CC_SYS_FORCE, s, term_eval, NULL};
        c->n++;
    }
    if (!c->n) return snprintf(err, CC_ERRLEN, "the claims name no term (a stiffness, gravity or drag)"), -1;
    return 0;
}

void cc_sys_claims_free(cc_sys_claims *c)
{
    for (int i = 0; i < c->n; i++) cc_sim_free(c->sim[i]);
    memset(c, 0, sizeof *c);
}
