/* clothcheck Lua: the derivation stepper (checks/derive.h), for registered variants and for
 * conditions written in Lua that give their own steps.
 *
 *   clothcheck.derivation(cond) -> {{name=, equations=, formula=, note=, order=}, ...}
 *   cond:derive([x [, opts]])   -> {condition=, variant=, x={{x,y,z}, ...}, sample=,
 *                                   steps={{name=, equations=, formula=, order=, value={...},
 *                                           derivative_error_exact=, derivative_error_frozen=,
 *                                           verdict=, reference=}, ...},
 *                                   first_departure=nil | {name=, equations=, verdict=, step=,
 *                                                          explanation=},
 *                                   first_frozen=, first_differs= (the first step of each verdict,
 *                                                          as first_departure, or nil)}
 *       x as for cond:eval; nil takes the variant's sample element (registered variants only);
 *       opts as for cond:eval. derivative_error_frozen is nil where there is no frozen
 *       reference (steps written in Lua). The same keys as `clothcheck derive --json`.
 *   clothcheck.define{..., steps = {{name=, equations=, formula=, note=, order=1|2,
 *                                    value=function(x, rest) end,
 *                                    derivative=function(x, rest) end}, ...}}
 *       value returns a number or a list of numbers q; derivative returns dq/dx (order 1: one
 *       row of 3*nv numbers per number of q) or d2q/dx dx (order 2: a 3*nv x 3*nv matrix per
 *       number of q), nested in any way, row-major. Steps written in Lua have no hyper-dual
 *       code: they are checked by central4 finite differences of value, with verdicts exact
 *       or differs. An error inside them stops cond:derive with that error (file:line).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "checks/derive.h"
#include "lua/lcc.h"

/* A step written in Lua: definition.steps[index] of condition lc. */
typedef struct lstep {
    cc_lcondition *lc;   /* the condition */
    int index;           /* 1-based index into its steps */
} lstep;

void cc_lua_checksteps(lua_State *L, int arg)
{
    if (lua_getfield(L, arg, "steps") == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    luaL_argcheck(L, lua_istable(L, -1), arg, "field 'steps' must be a list of steps");
    lua_Integer n = luaL_len(L, -1);
    luaL_argcheck(L, n <= CC_DERIVE_MAX_STEPS, arg,
                  lua_pushfstring(L, "at most %d steps", CC_DERIVE_MAX_STEPS));
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        luaL_argcheck(L, lua_istable(L, -1), arg, lua_pushfstring(L, "step %d must be a table", (int)i));
        static const char *const keys[] = {"name", "equations", "formula", "note", "order", "value", "derivative", NULL};
        int st = lua_gettop(L);
        cc_lua_checkkeys(L, arg, st, lua_pushfstring(L, "step %d", (int)i), keys);
        lua_pop(L, 1);
        static const char *const need[][2] = {{"name", "a string"}, {"value", "a function"},
                                              {"derivative", "a function"}};
        for (int k = 0; k < 3; k++) {
            int t = lua_getfield(L, -1, need[k][0]);
            luaL_argcheck(L, k == 0 ? t == LUA_TSTRING : t == LUA_TFUNCTION, arg,
                          lua_pushfstring(L, "step %d: field '%s' must be %s", (int)i, need[k][0], need[k][1]));
            lua_pop(L, 1);
        }
        lua_getfield(L, -1, "order");
        lua_Integer order = luaL_optinteger(L, -1, 1);
        luaL_argcheck(L, order == 1 || order == 2, arg, lua_pushfstring(L, "step %d: 'order' must be 1 or 2", (int)i));
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

/* push definition.steps[index][field] of the step's condition */
static int push_step_field(const lstep *ls, const char *field)
{
    lua_State *L = ls->lc->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ls->lc->def);
    lua_getfield(L, -1, "steps");
    lua_geti(L, -1, ls->index);
    int t = lua_getfield(L, -1, field);
    lua_replace(L, -4);
    lua_pop(L, 2);
    return t;
}

/* call the step's `field`(x, rest) and read exactly n numbers into out (n < 0: any number up
 * to CC_STEP_MAXD, count returned); the count, or -1 with lc->err set */
static int call_step(const cc_step *s, const char *field, const double *x, const cc_rest *r,
                     double *out, int n)
{
    const lstep *ls = s->ptr;
    cc_lcondition *lc = ls->lc;
    lua_State *L = lc->L;
    if (lc->err[0]) return -1;
    push_step_field(ls, field);
    cc_lua_pushnumbers(L, x, 3 * lc->nv);
    cc_lua_pushrest(L, r);
    if (cc_lua_callback(lc, 2) < 0) return -1;
    int got = 0, cap = n < 0 ? CC_STEP_MAXQ : n;
    int bad = cc_lua_readnumbers(L, -1, out, cap, &got);
    lua_pop(L, 1);
    if (bad || (n >= 0 && got != n) || got == 0) {
        snprintf(lc->err, sizeof lc->err, "step '%s': %s must return %s%d numbers (got %s%d)", s->name, field,
                 n < 0 ? "1 to " : "", cap, bad ? "a malformed value or more than " : "", bad ? cap : got);
        return -1;
    }
    for (int i = 0; i < got; i++)
        if (!isfinite(out[i])) {
            snprintf(lc->err, sizeof lc->err, "step '%s': %s returned %s as number %d (numbers must be finite)", s->name,
                     field, cc_lua_nonfinite_name(out[i]), i + 1);
            return -1;
        }
    return got;
}

/* q = the step's value at x */
static int lstep_value(const cc_step *s, const double *x, const cc_rest *r, double *q)
{
    return call_step(s, "value", x, r, q, s->n) < 0 ? -1 : 0;
}

/* q and the step's own derivative d */
static int lstep_derive(const cc_step *s, const double *x, const cc_rest *r, double *q, double *d)
{
    const lstep *ls = s->ptr;
    int ndof = 3 * ls->lc->nv, size = s->n * ndof * (s->order == 2 ? ndof : 1);
    if (call_step(s, "value", x, r, q, s->n) < 0) return -1;
    return call_step(s, "derivative", x, r, d, size) < 0 ? -1 : 0;
}

/* the string field `key` of the table on top, or def; valid while the definition lives */
static const char *strfield(lua_State *L, const char *key, const char *def)
{
    lua_getfield(L, -1, key);
    const char *v = lua_isstring(L, -1) ? lua_tostring(L, -1) : def;
    lua_pop(L, 1);
    return v;
}

/* steps[0..n) = the Lua steps of lc, n measured by calling each value at x; the count, or
 * -1 with lc->err set */
static int lua_steps(cc_lcondition *lc, const double *x, const cc_rest *r, lstep *ls, cc_step *steps)
{
    lua_State *L = lc->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, lc->def);
    lua_getfield(L, -1, "steps");
    int n = lua_istable(L, -1) ? (int)luaL_len(L, -1) : 0;
    for (int i = 0; i < n; i++) {
        lua_geti(L, -1, i + 1);
        ls[i] = (lstep){lc, i + 1};
        cc_step *s = &steps[i];
        memset(s, 0, sizeof *s);
        s->name = strfield(L, "name", "?");
        s->equations = strfield(L, "equations", "");
        s->formula = strfield(L, "formula", "");
        s->note = strfield(L, "note", "");
        lua_getfield(L, -1, "order");
        s->order = (int)luaL_optinteger(L, -1, 1);
        lua_pop(L, 2);
        s->ptr = &ls[i];
        s->value = lstep_value;
        s->derive = lstep_derive;
        double q[CC_STEP_MAXQ];
        int got = call_step(s, "value", x, r, q, -1);
        if (got < 0) {
            lua_pop(L, 2);
            return -1;
        }
        s->n = got;
        if (s->order == 2 && got * 9 * lc->nv * lc->nv > CC_STEP_MAXD) {
            snprintf(lc->err, sizeof lc->err, "step '%s': a second-order step may have at most %d numbers",
                     s->name, CC_STEP_MAXD / (9 * lc->nv * lc->nv));
            lua_pop(L, 2);
            return -1;
        }
    }
    lua_pop(L, 2);
    return n;
}

static void setstr(lua_State *L, const char *k, const char *v) { lua_pushstring(L, v), lua_setfield(L, -2, k); }

/* set field k to v, or leave it nil when v is NaN */
static void setnum(lua_State *L, const char *k, double v)
{
    if (isnan(v)) return;
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

/* push the result table of d (the keys of `clothcheck derive --json`) */
static void push_result(lua_State *L, const cc_derive *d, int sample)
{
    lua_createtable(L, 0, 6);
    setstr(L, "condition", d->condition);
    setstr(L, "variant", d->variant);
    lua_createtable(L, d->nv, 0);
    for (int m = 0; m < d->nv; m++) cc_lua_pushnumbers(L, d->x + 3 * m, 3), lua_rawseti(L, -2, m + 1);
    lua_setfield(L, -2, "x");
    lua_pushboolean(L, sample), lua_setfield(L, -2, "sample");
    lua_createtable(L, d->nsteps, 0);
    for (int i = 0; i < d->nsteps; i++) {
        const cc_step_check *k = &d->steps[i];
        lua_createtable(L, 0, 9);
        setstr(L, "name", k->step->name);
        setstr(L, "equations", k->step->equations);
        setstr(L, "formula", k->step->formula);
        lua_pushinteger(L, k->step->order), lua_setfield(L, -2, "order");
        cc_lua_pushnumbers(L, k->value, k->step->n), lua_setfield(L, -2, "value");
        setnum(L, "derivative_error_exact", k->err_exact);
        setnum(L, "derivative_error_frozen", k->err_frozen);
        setstr(L, "verdict", cc_step_verdict_name(k->verdict));
        setstr(L, "reference", k->reference);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "steps");
    static const char *const keys[] = {"first_departure", "first_frozen", "first_differs"};
    const int at[] = {d->first_departure, d->first_frozen, d->first_differs};
    for (int j = 0; j < 3; j++) {
        if (at[j] < 0) continue;
        const cc_step_check *k = &d->steps[at[j]];
        lua_createtable(L, 0, 5);
        setstr(L, "name", k->step->name);
        setstr(L, "equations", k->step->equations);
        setstr(L, "verdict", cc_step_verdict_name(k->verdict));
        setstr(L, "explanation", k->step->note);
        lua_pushinteger(L, at[j] + 1), lua_setfield(L, -2, "step");
        lua_setfield(L, -2, keys[j]);
    }
}

/* out = the n numbers of a sample string "a b c; d e f; ..." (derivation.h) */
static void parse_sample(const char *p, int n, double *out)
{
    for (int i = 0; i < n; i++) {
        char *end;
        out[i] = strtod(p, &end);
        p = end;
        while (*p == ';' || *p == ' ') p++;
    }
}

int cc_lua_derive(lua_State *L)
{
    cc_lcondition *lc = cc_lua_checkcondition(L, 1);
    const cc_condition *c = lc->c;
    int nv = c ? c->nv : lc->nv, sample = lua_isnoneornil(L, 2);
    double x[CC_MAX_DOF];
    cc_rest r;
    luaL_argcheck(L, !sample || (c && c->derivation), 2, "positions expected (only registered variants have a sample)");
    if (sample) parse_sample(c->derivation->sample, 3 * nv, x);
    else cc_lua_checkpoints(L, 2, 3, nv, x);
    if (sample && c->derivation->sample_uv && lua_isnoneornil(L, 3)) {   /* the sample's (u,v) */
        double uv[6];
        parse_sample(c->derivation->sample_uv, 6, uv);
        lua_settop(L, 2);
        lua_createtable(L, 0, 1);
        cc_lua_pushnumbers(L, uv, 6);
        lua_setfield(L, -2, "uv");
    }
    cc_lua_checkrest(L, 3, lc, &r, NULL);
    struct work {                      /* per call, so a step may call cond:derive again */
        cc_derive d;
        lstep ls[CC_DERIVE_MAX_STEPS];
        cc_step steps[CC_DERIVE_MAX_STEPS];
    } *w = lua_newuserdatauv(L, sizeof *w, 0);
    cc_derive *dd = &w->d;
    const cc_step *ptrs[CC_DERIVE_MAX_STEPS];
    if (c) {
        luaL_argcheck(L, c->derivation != NULL, 1, "this variant has no derivation");
        cc_derive_run(c->condition, c->variant, nv, c->derivation->steps, c->derivation->nsteps, x, &r, dd);
    } else {
        lc->L = L;
        lc->err[0] = '\0';
        int n = lua_steps(lc, x, &r, w->ls, w->steps);
        if (n < 0) return luaL_error(L, "%s", lc->err);
        if (n == 0) return luaL_error(L, "%s/%s has no steps (give define{..., steps = {...}})", lc->name, lc->variant);
        for (int i = 0; i < n; i++) ptrs[i] = &w->steps[i];
        cc_derive_run(lc->name, lc->variant, nv, ptrs, n, x, &r, dd);
        if (lc->err[0]) return luaL_error(L, "%s", lc->err);
    }
    int bad = cc_derive_nonfinite(dd);
    if (bad >= 0)
        return luaL_error(L, "%s/%s: step '%s' is not a finite number at these positions (an overflow or "
                          "underflow: scale the coordinates)", dd->condition, dd->variant, dd->steps[bad].step->name);
    push_result(L, dd, sample);
    return 1;
}

int cc_lua_derivation(lua_State *L)
{
    cc_lcondition *lc = cc_lua_checkcondition(L, 1);
    const cc_condition *c = lc->c;
    if (c) {
        const cc_derivation *dv = c->derivation;
        int n = dv ? dv->nsteps : 0;
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            const cc_step *s = dv->steps[i];
            lua_createtable(L, 0, 5);
            setstr(L, "name", s->name);
            setstr(L, "equations", s->equations);
            setstr(L, "formula", s->formula);
            setstr(L, "note", s->note);
            lua_pushinteger(L, s->order), lua_setfield(L, -2, "order");
            lua_rawseti(L, -2, i + 1);
        }
        return 1;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, lc->def);
    lua_getfield(L, -1, "steps");                          /* def steps */
    int n = lua_istable(L, -1) ? (int)luaL_len(L, -1) : 0;
    lua_createtable(L, n, 0);                              /* def steps result */
    for (int i = 0; i < n; i++) {
        lua_geti(L, -2, i + 1);                            /* def steps result step */
        const char *name = strfield(L, "name", "?"), *eq = strfield(L, "equations", "");
        const char *form = strfield(L, "formula", ""), *note = strfield(L, "note", "");
        lua_getfield(L, -1, "order");
        lua_Integer order = luaL_optinteger(L, -1, 1);
        lua_pop(L, 1);
        lua_createtable(L, 0, 5);                          /* def steps result step t */
        setstr(L, "name", name);
        setstr(L, "equations", eq);
        setstr(L, "formula", form);
        setstr(L, "note", note);
        lua_pushinteger(L, order), lua_setfield(L, -2, "order");
        lua_rawseti(L, -3, i + 1);
        lua_pop(L, 1);
    }
    return 1;
}
