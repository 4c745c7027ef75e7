/* Simulator parameters: the named presets (001 Table 1, 003 Table 3.1) and setting a field
 * by name, so the command line and scripts share one parser. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/algebra/mpcg.h"
#include "sim/sim.h"

/* settings shared by every preset that the tables do not fix */
static void common(cc_sim_params *p)
{
    memset(p, 0, sizeof *p);
    p->gravity[2] = -9.81;
    p->bu = p->bv = 1.0;
    p->integrator = CC_BACKWARD_EULER;
    p->damping = 0;
    p->cg_tol = 1e-2;
    p->cg_max_iter = 1000;
    p->precond = CC_PRECOND_AB;
    p->cg_warm_start = 2;
    p->kernels = 1;
    p->stretch_limit = 5e-5;
    p->h_min = 1e-6;
    p->grow_after = 4;
    p->strain_mode = CC_STRAIN_NONE;
    p->strain_max = 0.1;    /* 10 % (002 "Strain Limiting") */
    p->strain_iters = 10;
    p->max_speed = 1e3;
    p->soft_step = 0.5;
    p->contact_margin = 0.0;
    p->threads = 0;
    snprintf(p->stretch_variant, CC_SIM_NAMELEN, "bw98");
    snprintf(p->shear_variant, CC_SIM_NAMELEN, "bw98");
    snprintf(p->bend_condition, CC_SIM_NAMELEN, "bend");
    snprintf(p->bend_variant, CC_SIM_NAMELEN, "pritchard");
}

/* 001 Table 1: k_stretch 5e3, k_shear 0.5e3, k_bend 0.01e-3, damping 0.2 x each stiffness,
 * b_u = b_v = 1, h = 0.02, density 0.1, g = 9.81; alpha = a^(3/4) (001 5.2). */
static void table1(cc_sim_params *p)
{
    common(p);
    p->k_stretch = 5e3;
    p->k_shear = 0.5e3;
    p->k_bend = 0.01e-3;
    p->d_stretch = 0.2 * p->k_stretch;
    p->d_shear = 0.2 * p->k_shear;
    p->d_bend = 0.2 * p->k_bend;
    p->density = 0.1;
    p->area_power = 0.75;
    p->h = 0.02;
}

/* 003 Table 3.1: k_st 100, k_sh 10, k_b 1e-5, d_st 20, d_sh 2, d_b 2e-6, air drag 0.1, MPCG
 * tolerance 0.01, stretch limit 5e-5; alpha = sqrt(a) (003 3.1); h = 5 ms (003 3.2.2).
 * The table gives no density; 001's 0.1 is used. */
static void table31(cc_sim_params *p)
{
    common(p);
    p->k_stretch = 100;
    p->k_shear = 10;
    p->k_bend = 1e-5;
    p->d_stretch = 20;
    p->d_shear = 2;
    p->d_bend = 2e-6;
    p->air_drag = 0.1;
    p->cg_tol = 0.01;
    p->stretch_limit = 5e-5;
    p->density = 0.1;
    p->area_power = 0.5;
    p->h = 0.005;
}

static const char *const preset_names[] = {"pritchard-table1", "thesis-table3.1", NULL};

/* the preset names, NULL-terminated */
const char *const *cc_sim_preset_names(void) { return preset_names; }

/* p = the named preset */
int cc_sim_preset(const char *name, cc_sim_params *p, char *err)
{
    if (!name || !p) return snprintf(err, CC_ERRLEN, "no preset name"), -1;
    if (!strcmp(name, preset_names[0])) table1(p);
    else if (!strcmp(name, preset_names[1])) table31(p);
    else return snprintf(err, CC_ERRLEN, "unknown preset '%s' (pritchard-table1, thesis-table3.1)", name), -1;
    return 0;
}

/* a whole string as a finite double; 0 or -1 */
static int parse_num(const char *s, double *v)
{
    char *end;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) return -1;
    errno = 0;
    double d = strtod(s, &end);
    while (isspace((unsigned char)*end)) end++;
    if (*end || errno == ERANGE || !isfinite(d)) return -1;
    *v = d;
    return 0;
}

typedef struct field {
    const char *name;   /* field name */
    size_t off;         /* offset in cc_sim_params */
    char kind;          /* 'd' double, 'i' int, 's' name, 'g' three doubles, 'e' enum */
    const char *const *words;  /* enum words, index = value */
} field;

static const char *const integrators[] = {"backward-euler", "explicit-euler", "symplectic-euler", NULL};
static const char *const dampings[] = {"summed", "per-particle", NULL};
static const char *const preconds[] = {"jacobi", "block-jacobi", "ascher-boxerman", "block-ic0", "multigrid", "auto", NULL};
static const char *const strains[] = {"none", "provot", "bridson", NULL};
static const char *const hessians[] = {"full", "clamp", "gauss-newton", "project", NULL};

#define F(n, k, w) {#n, offsetof(cc_sim_params, n), k, w}
static const field fields[] = {
    F(k_stretch, 'd', NULL), F(k_shear, 'd', NULL), F(k_bend, 'd', NULL),
    F(d_stretch, 'd', NULL), F(d_shear, 'd', NULL), F(d_bend, 'd', NULL),
    F(density, 'd', NULL), F(gravity, 'g', NULL), F(air_drag, 'd', NULL),
    F(area_power, 'd', NULL), F(bu, 'd', NULL), F(bv, 'd', NULL), F(h, 'd', NULL),
    F(integrator, 'e', integrators), F(damping, 'e', dampings), F(psd_project, 'i', NULL),
    F(stretch_hessian, 'e', hessians), F(shear_hessian, 'e', hessians), F(bend_hessian, 'e', hessians),
    F(cg_tol, 'd', NULL), F(cg_max_iter, 'i', NULL), F(precond, 'e', preconds),
    F(cg_warm_start, 'i', NULL), F(kernels, 'i', NULL), F(stretch_limit, 'd', NULL), F(h_min, 'd', NULL),
    F(grow_after, 'i', NULL), F(strain_mode, 'e', strains), F(strain_max, 'd', NULL),
    F(strain_iters, 'i', NULL), F(max_speed, 'd', NULL), F(soft_step, 'd', NULL), F(contact_margin, 'd', NULL),
    F(threads, 'i', NULL),
    F(stretch_variant, 's', NULL), F(shear_variant, 's', NULL), F(bend_condition, 's', NULL),
    F(bend_variant, 's', NULL),
};
#undef F

/* *out = index of value in words (or the number itself); -1 if neither */
static int parse_enum(const char *value, const char *const *words, int *out)
{
    for (int i = 0; words[i]; i++)
        if (!strcmp(value, words[i])) return *out = i, 0;
    double d;
    int n = 0;
    while (words[n]) n++;
    if (parse_num(value, &d) == 0 && d == floor(d) && d >= 0 && d < n) return *out = (int)d, 0;
    return -1;
}

/* the edit distance (insertions, deletions, substitutions, swaps of neighbours) of a and b,
 * counted up to 3: 3 means 3 or more */
static int distance(const char *a, const char *b)
{
    enum { W = 48 };
    size_t n = strlen(a), m = strlen(b);
    if (n >= W || m >= W || (n > m ? n - m : m - n) >= 3) return 3;
    int d[W][W];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m] < 3 ? d[n][m] : 3;
}

/* the parameter whose name is closest to `name` (at most two edits away), or NULL */
static const char *nearest_field(const char *name)
{
    const char *best = NULL;
    int bd = 3;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        int d = distance(name, fields[i].name);
        if (d < bd) bd = d, best = fields[i].name;
    }
    return best;
}

/* p.name = value parsed by the field's kind */
int cc_sim_param_set(cc_sim_params *p, const char *name, const char *value, char *err)
{
    if (!p || !name || !value) return snprintf(err, CC_ERRLEN, "missing parameter name or value"), -1;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const field *f = &fields[i];
        if (strcmp(f->name, name)) continue;
        char *base = (char *)p + f->off;
        double d;
        switch (f->kind) {
        case 'd':
            if (parse_num(value, &d) < 0) break;
            *(double *)base = d;
            return 0;
        case 'i':
            if (parse_num(value, &d) < 0 || d != floor(d) || fabs(d) > 1e9) break;
            *(int *)base = (int)d;
            return 0;
        case 'e':
            if (parse_enum(value, f->words, (int *)base) < 0) break;
            return 0;
        case 'g': {
            double g[3];
            char buf[160];
            snprintf(buf, sizeof buf, "%s", value);
            int k = 0;
            char *save = NULL;
            for (char *t = strtok_r(buf, " ,;\t", &save); t; t = strtok_r(NULL, " ,;\t", &save)) {
                if (k == 3 || parse_num(t, &g[k]) < 0) { k = -1; break; }
                k++;
            }
            if (k != 3) break;
            memcpy(base, g, sizeof g);
            return 0;
        }
        default:
            if (strlen(value) == 0 || strlen(value) >= CC_SIM_NAMELEN) break;
            snprintf(base, CC_SIM_NAMELEN, "%s", value);
            return 0;
        }
        if (f->kind == 'e') {   /* name the words it takes */
            int n = snprintf(err, CC_ERRLEN, "bad value '%s' for parameter %s (", value, name);
            for (int w = 0; f->words[w] && n > 0 && n < CC_ERRLEN; w++)
                n += snprintf(err + n, (size_t)(CC_ERRLEN - n), "%s%s", w ? ", " : "", f->words[w]);
            if (n > 0 && n < CC_ERRLEN) snprintf(err + n, (size_t)(CC_ERRLEN - n), ")");
            return -1;
        }
        snprintf(err, CC_ERRLEN, "bad value '%s' for parameter %s", value, name);
        return -1;
    }
    const char *near = nearest_field(name);
    if (near)
        snprintf(err, CC_ERRLEN, "unknown parameter '%.40s' (did you mean '%s'? all of them: docs/lua.md, \"Simulator "
                 "parameters\")", name, near);
    else
        snprintf(err, CC_ERRLEN, "unknown parameter '%.40s' (all of them: docs/lua.md, \"Simulator parameters\")", name);
    return -1;
}

/* the name of the i-th parameter whose value is a word, NULL past the last */
const char *cc_sim_param_enum_name(int i)
{
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
        if (fields[k].kind == 'e' && i-- == 0) return fields[k].name;
    return NULL;
}

/* the word of the enum parameter name's value in p */
const char *cc_sim_param_word(const cc_sim_params *p, const char *name)
{
    for (size_t i = 0; p && name && i < sizeof fields / sizeof fields[0]; i++) {
        const field *f = &fields[i];
        if (strcmp(f->name, name) || f->kind != 'e') continue;
        int v = *(const int *)((const char *)p + f->off), n = 0;
        while (f->words[n]) n++;
        return v >= 0 && v < n ? f->words[v] : NULL;
    }
    return NULL;
}

/* 0 if every parameter is in range */
int cc_sim_params_check(const cc_sim_params *p, char *err)
{
    const char *bad = NULL;
    if (!(p->k_stretch >= 0 && p->k_shear >= 0 && p->k_bend >= 0)) bad = "stiffnesses must be >= 0";
    else if (!(p->d_stretch >= 0 && p->d_shear >= 0 && p->d_bend >= 0)) bad = "damping constants must be >= 0";
    else if (!(p->density > 0)) bad = "density must be > 0";
    else if (!(p->air_drag >= 0)) bad = "air drag must be >= 0";
    else if (!(p->area_power > 0)) bad = "area power must be > 0";
    else if (!(p->h > 0)) bad = "time step h must be > 0";
    else if (!(p->cg_tol > 0 && p->cg_tol < 1)) bad = "MPCG tolerance must be in (0, 1)";
    else if (p->cg_max_iter < 1) bad = "MPCG iteration cap must be >= 1";
    else if (p->integrator < 0 || p->integrator > CC_SYMPLECTIC_EULER) bad = "unknown integrator";
    else if (p->damping < 0 || p->damping > 1) bad = "damping must be 0 (summed) or 1 (per particle)";
    else if (p->precond < 0 || p->precond > CC_PRECOND_AUTO) bad = "unknown preconditioner";
    else if (p->strain_mode < 0 || p->strain_mode > CC_STRAIN_BRIDSON) bad = "unknown strain limiting mode";
    else if (p->stretch_hessian < 0 || p->stretch_hessian > CC_HESSIAN_PROJECT || p->shear_hessian < 0 ||
             p->shear_hessian > CC_HESSIAN_PROJECT || p->bend_hessian < 0 || p->bend_hessian > CC_HESSIAN_PROJECT)
        bad = "unknown hessian mode (full, clamp, gauss-newton, project)";
    else if (!(p->strain_max > 0) || p->strain_iters < 0) bad = "strain limit must be > 0 with >= 0 sweeps";
    else if (!(p->stretch_limit > 0) || !(p->h_min > 0) || p->grow_after < 1) bad = "bad adaptive step settings";
    else if (!(p->max_speed > 0)) bad = "max speed must be > 0";
    else if (!(p->soft_step >= 0 && p->soft_step <= 1)) bad = "soft_step must be in [0, 1]";
    else if (!(p->contact_margin >= 0)) bad = "contact margin must be >= 0";
    else if (p->kernels < 0 || p->kernels > 1) bad = "kernels must be 0 or 1";
    else if (p->cg_warm_start < 0 || p->cg_warm_start > 2) bad = "cg_warm_start must be 0, 1 or 2";
    else if (p->threads < 0 || p->threads > CC_SIM_MAX_THREADS)
        return snprintf(err, CC_ERRLEN, "threads must be in 0 .. %d", CC_SIM_MAX_THREADS), -1;
    for (int k = 0; k < 3 && !bad; k++)
        if (!isfinite(p->gravity[k])) bad = "gravity must be finite";
    if (bad) return snprintf(err, CC_ERRLEN, "%s", bad), -1;
    return 0;
}
