/* clothcheck Lua: conditions — registered C variants and ones defined in Lua.
 *
 *   clothcheck.conditions()                  -> { {condition=, variant=, source=, nv=, ncomp=, claim=}, ... }
 *   clothcheck.condition(name [, variant])   -> condition (registered C variant)
 *   clothcheck.define{condition=, variant=, nv=, ncomp=, claim=, value=f, gradient=f, hessian=f
 *                     [, value_frozen=f] [, steps=...]}
 *                                            -> condition (the functions take (x, rest), x flat 3*nv;
 *                                               value_frozen(x, xf, rest) is C with the magnitudes of
 *                                               normalised vectors frozen at xf, for the frozen references)
 *   cond:eval(x [, opts])                    -> {value={...}, gradient={{...}}, hessian={{{...}}}}
 *   cond:derive([x [, opts]]), clothcheck.derivation(cond), steps in define: see lderive.c
 *   cond.condition, .variant, .source, .nv, .ncomp, .claim
 *   clothcheck.bridson_force(x [, {rest=theta0, k=1}])
 *                                            -> {force={12}, jacobian={{12} x 12}}: Bridson's bending force
 *                                               on a hinge and dF/dx (conditions/bridson_force.h)
 * opts: uv (points), area_power, bu, bv (triangles); rest (bend angle or spring length),
 * x_rest (bends); want (eval only). A key the element does not take is an error.
 */
#include <math.h>
#include <string.h>
#include "conditions/bridson_force.h"
#include "lua/lcc.h"

static const char *const claim_names[] = {"exact", "frozen-magnitude", "none", NULL};


/* call definition field `fn`(x, rest), or fn(x, xf, rest) when xf is given, leaving its one
 * result on the stack; -1 with lc->err on error */
static int call_def(cc_lcondition *lc, const char *fn, const double *x, const double *xf, const cc_rest *r)
{
    lua_State *L = lc->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, lc->def);
    lua_getfield(L, -1, fn);
    lua_remove(L, -2);
    cc_lua_pushnumbers(L, x, 3 * lc->nv);
    if (xf) cc_lua_pushnumbers(L, xf, 3 * lc->nv);
    cc_lua_pushrest(L, r);
    return cc_lua_callback(lc, xf ? 3 : 2);
}


/* the numbers in the value at idx, nested lists counted through, and the flat place and type
 * of the first leaf that is not a number (*bad_at 0 if none) */
static int count_leaves(lua_State *L, int idx, int *bad_at, const char **bad_type, int depth)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TNUMBER) return 1;
    if (!lua_istable(L, idx) || depth > 8) {
        if (!*bad_at) *bad_at = 1, *bad_type = luaL_typename(L, idx);
        return 0;
    }
    int n = 0;
    lua_Integer len = luaL_len(L, idx);
    for (lua_Integer i = 1; i <= len; i++) {
        lua_geti(L, idx, i);
        int before = *bad_at;
        int k = count_leaves(L, -1, bad_at, bad_type, depth + 1);
        if (!before && *bad_at) *bad_at = n + 1;   /* the flat entry where it was met */
        n += k;
        lua_pop(L, 1);
    }
    return n;
}

/* what the value at idx is, in words ("nil", "12 numbers", "a string", "a list whose entry 3 is
 * a string") into buf */
static void describe_result(lua_State *L, int idx, char *buf, size_t len)
{
    int t = lua_type(L, idx), bad_at = 0;
    const char *bad_type = "";
    if (t == LUA_TNIL) {
        snprintf(buf, len, "nil");
        return;
    }
    if (t != LUA_TTABLE && t != LUA_TNUMBER) {
        snprintf(buf, len, "a %s", lua_typename(L, t));
        return;
    }
    int n = count_leaves(L, idx, &bad_at, &bad_type, 0);
    if (bad_at) snprintf(buf, len, "a list whose entry %d is a %s", bad_at, bad_type);
    else snprintf(buf, len, "%d number%s", n, n == 1 ? "" : "s");
}

/* the result of `fn` (xf as in call_def) as exactly n numbers (any nesting, row-major) into out */
static int result_numbers(cc_lcondition *lc, const char *fn, const double *x, const double *xf,
                          const cc_rest *r, double *out, int n)
{
    if (call_def(lc, fn, x, xf, r) < 0) return -1;
    int got = 0, bad = cc_lua_readnumbers(lc->L, -1, out, n, &got);
    if (bad || got != n) {
        char what[96];
        describe_result(lc->L, -1, what, sizeof what);
        lua_pop(lc->L, 1);
        snprintf(lc->err, sizeof lc->err, "%s/%s: %s must return %d numbers (got %s)", lc->name, lc->variant, fn, n, what);
        return -1;
    }
    lua_pop(lc->L, 1);
    for (int i = 0; i < n && !lc->nonfinite_ok; i++)
        if (!isfinite(out[i])) {
            snprintf(lc->err, sizeof lc->err, "%s/%s: %s returned %s as number %d (numbers must be finite)", lc->name,
                     lc->variant, fn, cc_lua_nonfinite_name(out[i]), i + 1);
            return -1;
        }
    return 0;
}

int cc_lua_condition_value(cc_lcondition *lc, const double *x, const cc_rest *r, double *C)
{
    return result_numbers(lc, "value", x, NULL, r, C, lc->ncomp);
}

int cc_lua_condition_value_frozen(cc_lcondition *lc, const double *x, const double *xf, const cc_rest *r,
                                  double *C)
{
    return result_numbers(lc, "value_frozen", x, xf, r, C, lc->ncomp);
}

int cc_lua_condition_eval(cc_lcondition *lc, const double *x, const cc_rest *r, int want, cc_eval *out)
{
    int n = 3 * lc->nv;
    double buf[CC_MAX_COMP * CC_MAX_DOF * CC_MAX_DOF];
    out->ncomp = lc->ncomp;
    out->ndof = n;
    if (cc_lua_condition_value(lc, x, r, out->C) < 0) return -1;
    if (want & CC_WANT_GRAD) {
        if (result_numbers(lc, "gradient", x, NULL, r, buf, lc->ncomp * n) < 0) return -1;
        for (int k = 0; k < lc->ncomp; k++) memcpy(out->dC[k], buf + k * n, sizeof(double) * n);
    }
    if (want & CC_WANT_HESS) {
        if (result_numbers(lc, "hessian", x, NULL, r, buf, lc->ncomp * n * n) < 0) return -1;
        for (int k = 0; k < lc->ncomp; k++)
            for (int i = 0; i < n; i++) memcpy(out->d2C[k][i], buf + (k * n + i) * n, sizeof(double) * n);
    }
    return want & CC_WANT_ALL;
}

static int l_conditions(lua_State *L)
{
    lua_createtable(L, cc_condition_count(), 0);
    for (int i = 0; i < cc_condition_count(); i++) {
        const cc_condition *c = cc_condition_at(i);
        lua_createtable(L, 0, 6);
        lua_pushstring(L, c->condition), lua_setfield(L, -2, "condition");
        lua_pushstring(L, c->variant), lua_setfield(L, -2, "variant");
        lua_pushstring(L, c->source), lua_setfield(L, -2, "source");
        lua_pushstring(L, c->summary), lua_setfield(L, -2, "summary");
        lua_pushinteger(L, c->nv), lua_setfield(L, -2, "nv");
        lua_pushinteger(L, c->ncomp), lua_setfield(L, -2, "ncomp");
        lua_pushstring(L, cc_claim_name(c->claim)), lua_setfield(L, -2, "claim");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static cc_lcondition *new_condition(lua_State *L)
{
    cc_lcondition *lc = lua_newuserdatauv(L, sizeof *lc, 0);
    memset(lc, 0, sizeof *lc);
    lc->def = LUA_NOREF;
    luaL_setmetatable(L, CC_LUA_CONDITION);
    return lc;
}

static int l_condition(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1), *variant = luaL_optstring(L, 2, NULL);
    luaL_argcheck(L, cc_condition_known(name), 1, lua_pushfstring(L, "unknown condition '%s'", name));
    const cc_condition *c = cc_condition_find(name, variant);
    luaL_argcheck(L, c != NULL, 2, lua_pushfstring(L, "unknown variant '%s' of %s", variant, name));
    new_condition(L)->c = c;
    return 1;
}

/* the string field `key` of table 1 into buf, or def */
static void strfield(lua_State *L, const char *key, const char *def, char *buf, size_t cap)
{
    lua_getfield(L, 1, key);
    const char *s = lua_isnil(L, -1) ? def : lua_tostring(L, -1);
    luaL_argcheck(L, s != NULL, 1, lua_pushfstring(L, "field '%s' must be a string", key));
    snprintf(buf, cap, "%s", s);
    lua_pop(L, 1);
}

/* 1 if s can name a condition: it names plot and data files and appears in gnuplot
 * scripts, so letters, digits, '_', '-' and '.' only, not starting with '.' */
static int valid_name(const char *s)
{
    if (!s[0] || s[0] == '.') return 0;
    for (; *s; s++)
        if (!(strchr("_-.", *s) || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static int l_define(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    static const char *const keys[] = {"condition", "variant", "nv", "ncomp", "claim", "value", "gradient",
                                       "hessian", "value_frozen", "steps", NULL};
    cc_lua_checkkeys(L, 1, 1, NULL, keys);
    static const char *const fns[] = {"value", "gradient", "hessian"};
    for (int i = 0; i < 3; i++) {
        lua_getfield(L, 1, fns[i]);
        luaL_argcheck(L, lua_isfunction(L, -1), 1, lua_pushfstring(L, "field '%s' must be a function", fns[i]));
        lua_pop(L, 1);
    }
    lua_getfield(L, 1, "nv");
    lua_Integer nv = luaL_optinteger(L, -1, 0);
    lua_getfield(L, 1, "ncomp");
    lua_Integer ncomp = luaL_optinteger(L, -1, 1);
    lua_pop(L, 2);
    luaL_argcheck(L, nv >= 2 && nv <= CC_MAX_NV, 1, "field 'nv' must be 2, 3 or 4 (vertices per element)");
    luaL_argcheck(L, ncomp >= 1 && ncomp <= CC_MAX_COMP, 1, "field 'ncomp' must be 1 or 2");
    lua_getfield(L, 1, "claim");
    int claim = luaL_checkoption(L, -1, "exact", claim_names);
    lua_pop(L, 1);
    cc_lua_checksteps(L, 1);
    int t = lua_getfield(L, 1, "value_frozen");
    luaL_argcheck(L, t == LUA_TNIL || t == LUA_TFUNCTION, 1, "field 'value_frozen' must be a function");
    lua_pop(L, 1);
    cc_lcondition *lc = new_condition(L);
    strfield(L, "condition", "lua", lc->name, sizeof lc->name);
    strfield(L, "variant", "student", lc->variant, sizeof lc->variant);
    luaL_argcheck(L, valid_name(lc->name) && valid_name(lc->variant), 1,
                  "fields 'condition' and 'variant' may hold only letters, digits, '_', '-' and '.'"
                  " (they name files), and may not start with '.'");
    lc->nv = (int)nv;
    lc->ncomp = (int)ncomp;
    lc->claim = (cc_claim)claim;
    lc->frozen = t == LUA_TFUNCTION;
    lc->L = L;
    lua_pushvalue(L, 1);
    lc->def = luaL_ref(L, LUA_REGISTRYINDEX);
    return 1;
}

/* the CC_WANT_* bits opts.want at index i asks for: "value", "gradient" (with the value),
 * "hessian" or nil (all three) */
static int eval_want(lua_State *L, int i)
{
    if (lua_isnoneornil(L, i) || lua_getfield(L, i, "want") == LUA_TNIL) {
        if (!lua_isnoneornil(L, i)) lua_pop(L, 1);
        return CC_WANT_ALL;
    }
    static const char *const names[] = {"value", "gradient", "hessian", NULL};
    static const int bits[] = {CC_WANT_VALUE, CC_WANT_VALUE | CC_WANT_GRAD, CC_WANT_ALL};
    const char *w = lua_tostring(L, -1);
    for (int k = 0; w && names[k]; k++)
        if (!strcmp(w, names[k])) {
            lua_pop(L, 1);
            return bits[k];
        }
    return luaL_argerror(L, i, lua_pushfstring(L, "want must be \"value\", \"gradient\" or \"hessian\", not '%s'",
                                               w ? w : luaL_typename(L, -1)));
}

static int l_eval(lua_State *L)
{
    cc_lcondition *lc = cc_lua_checkcondition(L, 1);
    int nv = lc->c ? lc->c->nv : lc->nv;
    double x[CC_MAX_DOF];
    cc_rest r;
    cc_eval e;
    cc_lua_checkpoints(L, 2, 3, nv, x);
    cc_lua_checkrest(L, 3, lc, &r, "want");
    char err[CC_ERRLEN];
    if (lc->c && cc_positions_in_range(x, nv, err) < 0) return luaL_error(L, "positions: %s", err);
    int want = eval_want(L, 3);
    memset(&e, 0, sizeof e);
    lc->L = L;   /* call back into the running thread */
    int got = lc->c ? lc->c->eval(x, &r, want, &e) : cc_lua_condition_eval(lc, x, &r, want, &e);
    if (got < 0 && !lc->c) return luaL_error(L, "%s", lc->err);
    if (got < 0) return luaL_error(L, "%s/%s is undefined at these positions", lc->c->condition, lc->c->variant);
    if (!cc_eval_finite(&e, want))
        return luaL_error(L, "%s/%s gives a number that is not finite at these positions", lc->c ? lc->c->condition : lc->name,
                          lc->c ? lc->c->variant : lc->variant);
    int n = e.ndof;
    lua_createtable(L, 0, 3);
    cc_lua_pushnumbers(L, e.C, e.ncomp);
    lua_setfield(L, -2, "value");
    if (!(want & CC_WANT_GRAD)) return 1;
    lua_createtable(L, e.ncomp, 0);
    for (int k = 0; k < e.ncomp; k++) cc_lua_pushnumbers(L, e.dC[k], n), lua_rawseti(L, -2, k + 1);
    lua_setfield(L, -2, "gradient");
    if (!(want & CC_WANT_HESS)) return 1;
    lua_createtable(L, e.ncomp, 0);
    for (int k = 0; k < e.ncomp; k++) {
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) cc_lua_pushnumbers(L, e.d2C[k][i], n), lua_rawseti(L, -2, i + 1);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "hessian");
    return 1;
}

/* F_i = k |e|^2/(|nA| + |nB|) (sin(theta/2) - sin(theta0/2)) u_i and dF/dx on one hinge */
static int l_bridson_force(lua_State *L)
{
    double x[12], F[12], J[12][12];
    cc_rest r;
    memset(&r, 0, sizeof r);
    cc_lua_checkpoints(L, 1, 3, 4, x);
    luaL_argcheck(L, lua_isnoneornil(L, 2) || lua_istable(L, 2), 2, "options must be a table {rest=, k=}");
    static const char *const keys[] = {"rest", "k", NULL};
    cc_lua_checkkeys(L, 2, 2, NULL, keys);
    r.rest_angle = cc_lua_optfield(L, 2, "rest", 0.0);
    double k = cc_lua_optfield(L, 2, "k", 1.0);
    luaL_argcheck(L, k > 0, 2, "k must be positive (a stiffness)");
    char err[CC_ERRLEN];
    if (cc_positions_in_range(x, 4, err) < 0) return luaL_error(L, "positions: %s", err);
    if (cc_bridson_force(x, &r, k, F, J) < 0) return luaL_error(L, "bridson_force: a triangle or the shared edge has zero size");
    int finite = 1;
    for (int i = 0; i < 12; i++) {
        finite &= isfinite(F[i]) != 0;
        for (int j = 0; j < 12; j++) finite &= isfinite(J[i][j]) != 0;
    }
    if (!finite) return luaL_error(L, "bridson_force: a number is not finite at these positions");
    lua_createtable(L, 0, 2);
    cc_lua_pushnumbers(L, F, 12);
    lua_setfield(L, -2, "force");
    lua_createtable(L, 12, 0);
    for (int i = 0; i < 12; i++) cc_lua_pushnumbers(L, J[i], 12), lua_rawseti(L, -2, i + 1);
    lua_setfield(L, -2, "jacobian");
    return 1;
}

static int l_index(lua_State *L)
{
    cc_lcondition *lc = cc_lua_checkcondition(L, 1);
    const char *k = luaL_checkstring(L, 2);
    const cc_condition *c = lc->c;
    if (!strcmp(k, "condition")) lua_pushstring(L, c ? c->condition : lc->name);
    else if (!strcmp(k, "variant")) lua_pushstring(L, c ? c->variant : lc->variant);
    else if (!strcmp(k, "source")) lua_pushstring(L, c ? c->source : "defined in Lua");
    else if (!strcmp(k, "nv")) lua_pushinteger(L, c ? c->nv : lc->nv);
    else if (!strcmp(k, "ncomp")) lua_pushinteger(L, c ? c->ncomp : lc->ncomp);
    else if (!strcmp(k, "claim")) lua_pushstring(L, cc_claim_name(c ? c->claim : lc->claim));
    else if (!strcmp(k, "lua")) lua_pushboolean(L, c == NULL);
    else {
        luaL_getmetatable(L, CC_LUA_CONDITION);
        lua_getfield(L, -1, "methods");
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int l_tostring(lua_State *L)
{
    cc_lcondition *lc = cc_lua_checkcondition(L, 1);
    if (lc->c) lua_pushfstring(L, "condition %s/%s (%s)", lc->c->condition, lc->c->variant, lc->c->source);
    else lua_pushfstring(L, "condition %s/%s (defined in Lua)", lc->name, lc->variant);
    return 1;
}

static int l_gc(lua_State *L)
{
    cc_lcondition *lc = cc_lua_checkcondition(L, 1);
    if (lc->def != LUA_NOREF) {
        luaL_unref(L, LUA_REGISTRYINDEX, lc->def);
        lc->def = LUA_NOREF;
    }
    return 0;
}

static const luaL_Reg condition_methods[] = {{"eval", l_eval}, {"derive", cc_lua_derive}, {NULL, NULL}};
static const luaL_Reg condition_meta[] = {
    {"__index", l_index}, {"__tostring", l_tostring}, {"__gc", l_gc}, {"__close", l_gc}, {NULL, NULL}};
static const luaL_Reg condition_funcs[] = {
    {"conditions", l_conditions}, {"condition", l_condition}, {"define", l_define},
    {"derivation", cc_lua_derivation}, {"bridson_force", l_bridson_force}, {NULL, NULL}};

void cc_lua_open_condition(lua_State *L)
{
    luaL_newmetatable(L, CC_LUA_CONDITION);
    luaL_setfuncs(L, condition_meta, 0);
    luaL_newlib(L, condition_methods);
    lua_setfield(L, -2, "methods");
    lua_pop(L, 1);
    luaL_setfuncs(L, condition_funcs, 0);
}
