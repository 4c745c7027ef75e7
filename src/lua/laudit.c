/* clothcheck Lua: the audit engine, for registered conditions and ones written in Lua.
 *
 *   clothcheck.audit(cond [, opts]) -> audit
 *       opts: samples (default 1000; 200 for Lua-defined conditions), seed (1),
 *             reference ("all", "fd-true", "fd-frozen", "exact", "exact-frozen"),
 *             edges (true: add the edge cases), case (replay one case id), area_power,
 *             sweeps (elements per step sweep, 3; 0: none), quantities (the rows kept, by
 *             name: {"gradient", "hessian-vs-gradient", ...}; default every row),
 *             claims (what cond says it implements: a registered condition, e.g.
 *             cc.condition("bend", "bridson"), or its name "bend/bridson", or "bridson-force";
 *             adds the rows of the reference "claim": value, gradient and Hessian compared
 *             entry by entry), as_energy (true: cond is the energy k/2 C.C of the claim),
 *             k (stiffness of as_energy and bridson-force, 1)
 *   audit:failed()      -> true when a row that the condition's claim gates failed
 *   audit:rows()        -> {{reference=, quantity=, available=, note=, scheme=, step=,
 *                            max_rel_error=, pass=, gates=, tol=, samples=, undefined=, rough=,
 *                            worst={k=, m=, s=, n=, t=, analytic=, reference=, case=}}, ...}
 *                          (k, m, s, n, t count from 0, as Pritchard labels x0..x3;
 *                          rigid-modes rows give the mode number instead of n, t)
 *   audit:diagnosis()   -> {{kind=, text=, factor=, vertices={...}, along=, share=, of=,
 *                            reference=, quantity=}, ...}: what kind of mistake each failing
 *                          row shows (checks/diagnose.h); {} for a condition whose rows pass
 *   audit:table()       -> the readable table, as `clothcheck audit` prints it
 *   audit:json()        -> the JSON report, as `clothcheck audit --json` writes it
 *   audit:plots(dir)    -> number of PNGs | false, message (no gnuplot) | nil, message
 *   tostring(audit)     -> the table
 * A condition written in Lua has no hyper-dual value code, so its exact references are reported
 * unavailable, and its frozen ones too unless it gives value_frozen; the finite-difference references, the
 * structure checks and the Taylor test apply as to any other. An error raised inside its
 * functions stops the audit with that error (file:line of the student's code).
 */
#include <stdlib.h>
#include <string.h>
#include "checks/audit.h"
#include "checks/diagnose.h"
#include "checks/report.h"
#include "io/files.h"
#include "lua/lcc.h"

#define CC_LUA_AUDIT "clothcheck.audit"

static int lua_target_eval(void *ctx, const double *x, const cc_rest *r, int want, cc_eval *out)
{
    cc_lcondition *lc = ctx;
    return lc->err[0] ? -1 : cc_lua_condition_eval(lc, x, r, want, out);
}

/* C of a Lua condition, or its value_frozen when xf is given */
static int lua_target_value(void *ctx, const double *x, const double *xf, const cc_rest *r, double *C)
{
    cc_lcondition *lc = ctx;
    if ((xf && !lc->frozen) || lc->err[0]) return -1;
    return xf ? cc_lua_condition_value_frozen(lc, x, xf, r, C) : cc_lua_condition_value(lc, x, r, C);
}

/* the audit target for a condition userdata */
static cc_target target_of(cc_lcondition *lc)
{
    if (lc->c) return cc_target_from_condition(lc->c);
    cc_target t = {0};
    t.condition = lc->name;
    t.variant = lc->variant;
    t.source = "defined in Lua";
    t.nv = lc->nv;
    t.ncomp = lc->ncomp;
    t.claim = lc->claim;
    t.frozen = lc->frozen;
    t.ctx = lc;
    t.eval = lua_target_eval;
    t.value = lua_target_value;
    return t;
}

/* the bit set of the quantities named in the list at index i (opts.quantities) */
static unsigned check_quantities(lua_State *L, int i)
{
    luaL_argcheck(L, lua_istable(L, i), 2, "quantities must be a list of names (gradient, hessian, ...)");
    unsigned set = 0;
    for (lua_Integer k = 1; lua_geti(L, i, k) != LUA_TNIL; k++) {
        const char *name = lua_tostring(L, -1);
        int q = name ? cc_quantity_parse(name) : -1;
        if (q < 0)
            luaL_argerror(L, 2, lua_pushfstring(L, "unknown quantity '%s' (gradient, hessian, hessian-vs-gradient, "
                                                   "symmetry, translation, rotation, rigid-modes, taylor)",
                                                name ? name : luaL_typename(L, -1)));
        set |= 1u << q;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    luaL_argcheck(L, set != 0, 2, "quantities names none");
    return set;
}

/* opts.claims, opts.as_energy and opts.k of the options table at index 2 into o */
static void check_claims(lua_State *L, cc_audit_opts *o)
{
    int t = lua_getfield(L, 2, "claims");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    lua_getfield(L, 2, "k");
    double k = luaL_optnumber(L, -1, 1.0);
    lua_getfield(L, 2, "as_energy");
    int as_energy = lua_toboolean(L, -1);
    lua_pop(L, 2);
    luaL_argcheck(L, k > 0, 2, "k must be positive");
    char err[CC_ERRLEN];
    if (t == LUA_TSTRING) {
        if (cc_claim_parse(lua_tostring(L, -1), k, as_energy, &o->claims, err) < 0) luaL_argerror(L, 2, err);
    } else {
        cc_lcondition *c = luaL_testudata(L, -1, CC_LUA_CONDITION);
        luaL_argcheck(L, c && c->c, 2, "claims must be a registered condition (cc.condition) or its name");
        o->claims = (cc_claim_spec){c->c, as_energy, k, 0};
    }
    lua_pop(L, 1);
}

static int l_audit(lua_State *L)
{
    cc_lcondition *lc = cc_lua_checkcondition(L, 1);
    cc_audit_opts o = cc_audit_defaults();
    if (!lc->c) o.samples = 200;
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        static const char *const keys[] = {"samples", "seed", "reference", "edges", "case", "area_power", "sweeps",
                                           "quantities", "claims", "as_energy", "k", NULL};
        cc_lua_checkkeys(L, 2, 2, NULL, keys);
        if (lua_getfield(L, 2, "samples") != LUA_TNIL) o.samples = (int)luaL_checkinteger(L, -1);
        if (lua_getfield(L, 2, "seed") != LUA_TNIL) o.seed = (uint64_t)luaL_checkinteger(L, -1);
        if (lua_getfield(L, 2, "edges") != LUA_TNIL) o.edges = lua_toboolean(L, -1);
        if (lua_getfield(L, 2, "area_power") != LUA_TNIL) o.sample.area_power = luaL_checknumber(L, -1);
        if (lua_getfield(L, 2, "case") != LUA_TNIL) o.only_case = 1, o.case_id = (int)luaL_checkinteger(L, -1);
        if (lua_getfield(L, 2, "reference") != LUA_TNIL) {
            const char *ref = luaL_checkstring(L, -1);
            int r = cc_ref_parse(ref);
            luaL_argcheck(L, r >= 0 || !strcmp(ref, "all"), 2,
                          lua_pushfstring(L, "unknown reference '%s' (fd-true, fd-frozen, exact, exact-frozen, all)", ref));
            o.refs = r >= 0 ? 1u << r : CC_REFS_ALL;
        }
        lua_pop(L, 6);
        if (lua_getfield(L, 2, "sweeps") != LUA_TNIL) o.sweep_cases = (int)luaL_checkinteger(L, -1);
        lua_pop(L, 1);
        luaL_argcheck(L, o.sweep_cases >= 0 && o.sweep_cases <= 1000, 2, "sweeps must be 0..1000 elements");
        if (lua_getfield(L, 2, "quantities") != LUA_TNIL) o.quantities = check_quantities(L, lua_gettop(L));
        lua_pop(L, 1);
        check_claims(L, &o);
    }
    luaL_argcheck(L, o.samples >= 0 && o.samples <= 1000000, 2, "samples must be 0..1000000");
    luaL_argcheck(L, o.sample.area_power >= 0, 2, "area_power must be positive");
    cc_audit *a = lua_newuserdatauv(L, sizeof *a, 1);
    memset(a, 0, sizeof *a);
    luaL_setmetatable(L, CC_LUA_AUDIT);
    lua_pushvalue(L, 1);                /* keep the condition alive with the audit */
    lua_setiuservalue(L, -2, 1);
    cc_target t = target_of(lc);
    lc->L = L;
    lc->err[0] = '\0';
    if (cc_claim_given(&o.claims) && (cc_claim_nv(&o.claims) != t.nv || cc_claim_ncomp(&o.claims) != t.ncomp))
        return luaL_error(L, "claims: %s/%s has %d vertices and %d components, the claim %d and %d", t.condition,
                          t.variant, t.nv, t.ncomp, cc_claim_nv(&o.claims), cc_claim_ncomp(&o.claims));
    lc->nonfinite_ok = 1;   /* the audit's row "finite" says where, by element and entry */
    int rc = cc_audit_run(&t, &o, a);
    lc->nonfinite_ok = 0;
    if (lc->err[0]) return luaL_error(L, "%s", lc->err);
    if (rc < 0) return luaL_error(L, "audit of %s/%s: no element could be built", t.condition, t.variant);
    return 1;
}

static cc_audit *checkaudit(lua_State *L) { return luaL_checkudata(L, 1, CC_LUA_AUDIT); }

static int l_failed(lua_State *L)
{
    lua_pushboolean(L, cc_audit_failed(checkaudit(L)));
    return 1;
}

static void setnum(lua_State *L, const char *k, double v) { lua_pushnumber(L, v), lua_setfield(L, -2, k); }
static void setint(lua_State *L, const char *k, int v) { lua_pushinteger(L, v), lua_setfield(L, -2, k); }

static void push_findings(lua_State *L, const cc_audit_row *w);

static int l_rows(lua_State *L)
{
    const cc_audit *a = checkaudit(L);
    lua_createtable(L, a->nrows, 0);
    for (int i = 0; i < a->nrows; i++) {
        const cc_audit_row *w = &a->rows[i];
        lua_createtable(L, 0, 14);
        lua_pushstring(L, cc_row_reference(w)), lua_setfield(L, -2, "reference");
        lua_pushstring(L, cc_quantity_name(w->q)), lua_setfield(L, -2, "quantity");
        lua_pushboolean(L, w->available), lua_setfield(L, -2, "available");
        lua_pushstring(L, w->note), lua_setfield(L, -2, "note");
        lua_pushstring(L, w->scheme), lua_setfield(L, -2, "scheme");
        setnum(L, "step", w->step), setnum(L, "max_rel_error", w->max_rel), setnum(L, "tol", w->tol);
        lua_pushboolean(L, w->pass), lua_setfield(L, -2, "pass");
        lua_pushboolean(L, w->gates), lua_setfield(L, -2, "gates");
        setint(L, "samples", w->samples), setint(L, "undefined", w->undefined), setint(L, "rough", w->rough);
        lua_createtable(L, 0, 8);
        if (w->worst.k >= 0) {
            setint(L, "k", w->worst.k), setint(L, "m", w->worst.i / 3), setint(L, "s", w->worst.i % 3);
            if (w->q == CC_Q_RIGID) setint(L, "mode", w->worst.j);   /* which rigid mode */
            else if (w->worst.j >= 0) setint(L, "n", w->worst.j / 3), setint(L, "t", w->worst.j % 3);
            setnum(L, "analytic", w->worst.analytic), setnum(L, "reference", w->worst.reference);
            setint(L, "case", w->worst_case);
        }
        lua_setfield(L, -2, "worst");
        lua_newtable(L);
        push_findings(L, w);
        lua_setfield(L, -2, "diagnosis");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* push what fn prints about the audit, captured in memory */
static int capture(lua_State *L, void (*fn)(FILE *, const cc_audit *, int))
{
    const cc_audit *a = checkaudit(L);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return luaL_error(L, "out of memory");
    fn(f, a, 1);
    fclose(f);
    lua_pushlstring(L, buf, len);
    free(buf);
    return 1;
}

/* push the findings of row w (kind, text, factor, vertices, along, share, of) into the list on top */
static void push_findings(lua_State *L, const cc_audit_row *w)
{
    for (int i = 0; i < w->diag.n; i++) {
        const cc_finding *f = &w->diag.f[i];
        lua_createtable(L, 0, 9);
        lua_pushstring(L, cc_finding_name(f->kind)), lua_setfield(L, -2, "kind");
        lua_pushstring(L, f->text), lua_setfield(L, -2, "text");
        if (f->kind == CC_FIND_SCALE || f->kind == CC_FIND_SIGN) setnum(L, "factor", f->factor);
        if (f->vertices) {
            lua_newtable(L);
            for (int m = 0, k = 1; m < CC_MAX_NV; m++)
                if (f->vertices & (1u << m)) lua_pushinteger(L, m), lua_rawseti(L, -2, k++);
            lua_setfield(L, -2, "vertices");
        }
        if (f->along) lua_pushstring(L, f->along), lua_setfield(L, -2, "along");
        setint(L, "share", f->share), setint(L, "of", f->of);
        lua_pushstring(L, cc_row_reference(w)), lua_setfield(L, -2, "reference");
        lua_pushstring(L, cc_quantity_name(w->q)), lua_setfield(L, -2, "quantity");
        lua_rawseti(L, -2, (lua_Integer)luaL_len(L, -2) + 1);
    }
}

static int l_diagnosis(lua_State *L)
{
    const cc_audit *a = checkaudit(L);
    lua_newtable(L);
    for (int i = 0; i < a->nrows; i++) push_findings(L, &a->rows[i]);
    return 1;
}

static int l_table(lua_State *L) { return capture(L, cc_report_table); }
static int l_json(lua_State *L) { return capture(L, cc_report_json); }

static int l_plots(lua_State *L)
{
    const cc_audit *a = checkaudit(L);
    const char *dir = luaL_checkstring(L, 2);
    cc_lua_checkpath(L, dir, 1);
    char err[CC_ERRLEN];
    if (cc_mkdir_p(dir, err) < 0) {
        luaL_pushfail(L), lua_pushstring(L, err);
        return 2;
    }
    int n = cc_report_plots(dir, a, 1, err);
    if (n == -2) {
        luaL_pushfail(L), lua_pushstring(L, err);
        return 2;
    }
    if (n < 0) {
        lua_pushboolean(L, 0), lua_pushfstring(L, "gnuplot not found: wrote data and scripts to %s", dir);
        return 2;
    }
    lua_pushinteger(L, n);
    return 1;
}

static const luaL_Reg audit_methods[] = {
    {"failed", l_failed}, {"rows", l_rows}, {"diagnosis", l_diagnosis}, {"table", l_table}, {"json", l_json},
    {"plots", l_plots}, {NULL, NULL}};
static const luaL_Reg audit_funcs[] = {{"audit", l_audit}, {NULL, NULL}};

void cc_lua_open_audit(lua_State *L)
{
    luaL_newmetatable(L, CC_LUA_AUDIT);
    luaL_newlib(L, audit_methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_table);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    luaL_setfuncs(L, audit_funcs, 0);
}
