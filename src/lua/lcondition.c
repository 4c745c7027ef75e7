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

cc_lcondition *cc_lua_checkcondition(lua_State *L, int arg)
{
    return luaL_checkudata(L, arg, CC_LUA_CONDITION);
}

void cc_lua_pushnumbers(lua_State *L, const double *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, v[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

void cc_lua_checkpoints(lua_State *L, int arg, int dim, int npoints, double *out)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_Integer len = luaL_len(L, arg);
    int nested = len > 0 && (lua_geti(L, arg, 1), lua_istable(L, -1));
    lua_pop(L, 1);
    if (nested) {
        luaL_argcheck(L, len == npoints, arg, lua_pushfstring(L, "expected %d points, got %d", npoints, (int)len));
        for (int p = 0; p < npoints; p++) {
            lua_geti(L, arg, p + 1);
            luaL_argcheck(L, lua_istable(L, -1) && luaL_len(L, -1) == dim, arg,
                          lua_pushfstring(L, "point %d must have %d numbers", p + 1, dim));
            for (int s = 0; s < dim; s++) {
                lua_geti(L, -1, s + 1);
                int ok;
                out[p * dim + s] = lua_tonumberx(L, -1, &ok);
                luaL_argcheck(L, ok, arg, lua_pushfstring(L, "point %d, coordinate %d is not a number", p + 1, s + 1));
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
        return;
    }
    luaL_argcheck(L, len == (lua_Integer)npoints * dim, arg,
                  lua_pushfstring(L, "expected %d numbers (%d points), got %d", npoints * dim, npoints, (int)len));
    for (int i = 0; i < npoints * dim; i++) {
        lua_geti(L, arg, i + 1);
        int ok;
        out[i] = lua_tonumberx(L, -1, &ok);
        luaL_argcheck(L, ok, arg, lua_pushfstring(L, "entry %d is not a number", i + 1));
        lua_pop(L, 1);
    }
}

/* the number field `key` of the table at arg, or def when absent */
static double optfield(lua_State *L, int arg, const char *key, double def)
{
    if (lua_isnoneornil(L, arg)) return def;
    double v = def;
    if (lua_getfield(L, arg, key) != LUA_TNIL) {
        int ok;
        v = lua_tonumberx(L, -1, &ok);
        luaL_argcheck(L, ok, arg, lua_pushfstring(L, "field '%s' must be a number", key));
    }
    lua_pop(L, 1);
    return v;
}

void cc_lua_checkkeys(lua_State *L, int arg, int t, const char *where, const char *const *valid)
{
    if (lua_isnoneornil(L, t)) return;
    t = lua_absindex(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);   /* the value */
        int known = 0;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (const char *const *v = valid; *v && !known; v++) known = !strcmp(lua_tostring(L, -1), *v);
        if (known) continue;
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        if (where) luaL_addstring(&b, where), luaL_addstring(&b, ": ");
        if (lua_type(L, -2) == LUA_TSTRING) lua_pushfstring(L, "unknown parameter '%s'; valid: ", lua_tostring(L, -2));
        else lua_pushfstring(L, "parameters are named, not given by position (got a %s key); valid: ",
                             luaL_typename(L, -2));
        luaL_addvalue(&b);
        for (const char *const *v = valid; *v; v++) {
            if (v != valid) luaL_addstring(&b, ", ");
            luaL_addstring(&b, *v);
        }
        luaL_pushresult(&b);
        luaL_argerror(L, arg, lua_tostring(L, -1));
    }
}

void cc_lua_checkrest(lua_State *L, int arg, const cc_lcondition *lc, cc_rest *r, const char *extra)
{
    char err[CC_ERRLEN];
    int nv = lc->c ? lc->c->nv : lc->nv, ok;
    if (!lua_isnoneornil(L, arg)) {
        luaL_checktype(L, arg, LUA_TTABLE);
        const char *keys[6] = {"rest", NULL};   /* a spring's */
        if (nv == 3) keys[0] = "uv", keys[1] = "area_power", keys[2] = "bu", keys[3] = "bv";
        else if (nv == 4) keys[1] = "x_rest";
        int n = 0;
        while (keys[n]) n++;
        keys[n] = extra;
        const char *where = lc->c ? lua_pushfstring(L, "%s/%s", lc->c->condition, lc->c->variant)
                                  : lua_pushfstring(L, "%s/%s", lc->name, lc->variant);
        cc_lua_checkkeys(L, arg, arg, where, keys);
        lua_pop(L, 1);
    }
    if (nv == 3) {
        double uv[6];
        luaL_argcheck(L, !lua_isnoneornil(L, arg) && lua_getfield(L, arg, "uv") == LUA_TTABLE, arg,
                      "a triangle condition needs opts.uv (3 points u, v)");
        cc_lua_checkpoints(L, lua_gettop(L), 2, 3, uv);
        lua_pop(L, 1);
        ok = cc_rest_triangle(r, uv, optfield(L, arg, "area_power", 1.0), optfield(L, arg, "bu", 1.0),
                              optfield(L, arg, "bv", 1.0), err);
    } else if (nv == 4) {
        int has_table = !lua_isnoneornil(L, arg);
        int shape = has_table && lua_getfield(L, arg, "x_rest") != LUA_TNIL;
        int angle = has_table && lua_getfield(L, arg, "rest") != LUA_TNIL;
        if (has_table) lua_pop(L, 1);   /* rest; x_rest stays on top */
        luaL_argcheck(L, !(shape && angle), arg, "give opts.rest (an angle) or opts.x_rest (the rest hinge), not both");
        if (shape) {   /* the rest hinge: 4 points, flat list or nested */
            double xr[12];
            cc_lua_checkpoints(L, lua_gettop(L), 3, 4, xr);
            ok = cc_positions_in_range(xr, 4, err);
            if (ok == 0) ok = cc_rest_hinge_shape(r, xr, err);
        } else {
            luaL_argcheck(L, !(lc->c && lc->c->rest_shape), arg,
                          lua_pushfstring(L, "%s/%s needs opts.x_rest (the rest hinge, 4 points)", lc->c ? lc->c->condition : "",
                                          lc->c ? lc->c->variant : ""));
            ok = cc_rest_hinge(r, optfield(L, arg, "rest", 0.0), err);
        }
        if (has_table) lua_pop(L, 1);   /* x_rest */
    } else {
        ok = cc_rest_spring(r, optfield(L, arg, "rest", 1.0), err);
    }
    luaL_argcheck(L, ok == 0, arg, err);
}

/* push the rest data as a table for Lua-defined conditions */
void cc_lua_pushrest(lua_State *L, const cc_rest *r)
{
    lua_createtable(L, 0, r->nv == 4 ? 17 : 14);
    const struct { const char *k; double v; } f[] = {
        {"du1", r->du1}, {"dv1", r->dv1}, {"du2", r->du2}, {"dv2", r->dv2}, {"det", r->det},
        {"area", r->area}, {"area_power", r->area_power}, {"alpha", r->alpha}, {"bu", r->bu},
        {"bv", r->bv}, {"rest_length", r->rest_length}, {"rest_angle", r->rest_angle}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        lua_pushnumber(L, f[i].v);
        lua_setfield(L, -2, f[i].k);
    }
    cc_lua_pushnumbers(L, r->dwu, 3);
    lua_setfield(L, -2, "dwu");
    cc_lua_pushnumbers(L, r->dwv, 3);
    lua_setfield(L, -2, "dwv");
    if (r->nv == 4) {   /* the rest hinge (cc_rest_hinge_shape) */
        lua_pushnumber(L, r->rest_weight);
        lua_setfield(L, -2, "rest_weight");
        cc_lua_pushnumbers(L, r->rest_K, 4);
        lua_setfield(L, -2, "rest_K");
        cc_lua_pushnumbers(L, r->rest_x, 12);
        lua_setfield(L, -2, "x_rest");
    }
}

int cc_lua_callback(cc_lcondition *lc, int nargs)
{
    lua_State *L = lc->L;
    if (lua_pcall(L, nargs, 1, 0) == LUA_OK) return 0;
    snprintf(lc->err, sizeof lc->err, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "error");
    lua_pop(L, 1);
    return -1;
}

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

const char *cc_lua_nonfinite_name(double v)
{
    return isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";   /* %g would print a NaN's sign: "-nan" */
}

int cc_lua_readnumbers(lua_State *L, int idx, double *out, int n, int *got)
{
    idx = lua_absindex(L, idx);
    if (lua_isnumber(L, idx)) {
        if (*got >= n) return -1;
        out[(*got)++] = lua_tonumber(L, idx);
        return 0;
    }
    if (!lua_istable(L, idx)) return -1;
    lua_Integer len = luaL_len(L, idx);
    for (lua_Integer i = 1; i <= len; i++) {
        lua_geti(L, idx, i);
        int bad = cc_lua_readnumbers(L, -1, out, n, got);
        lua_pop(L, 1);
        if (bad) return -1;
    }
    return 0;
}

/* the result of `fn` (xf as in call_def) as exactly n numbers (any nesting, row-major) into out */
static int result_numbers(cc_lcondition *lc, const char *fn, const double *x, const double *xf,
                          const cc_rest *r, double *out, int n)
{
    if (call_def(lc, fn, x, xf, r) < 0) return -1;
    int got = 0, bad = cc_lua_readnumbers(lc->L, -1, out, n, &got);
    lua_pop(lc->L, 1);
    if (bad || got != n) {
        snprintf(lc->err, sizeof lc->err, "%s/%s: %s must return %d numbers (got %s%d)", lc->name,
                 lc->variant, fn, n, bad ? "a malformed value or more than " : "", bad ? n : got);
        return -1;
    }
    for (int i = 0; i < n; i++)
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
    r.rest_angle = optfield(L, 2, "rest", 0.0);
    double k = optfield(L, 2, "k", 1.0);
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
