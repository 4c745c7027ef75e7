/* clothcheck Lua: the argument and value helpers the condition and derivation bindings share
 * (lcc.h): a condition argument, points, option keys, rest data, numbers in and out, a call
 * into a condition written in Lua.
 */
#include <math.h>
#include <string.h>
#include "lua/lcc.h"

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
double cc_lua_optfield(lua_State *L, int arg, const char *key, double def)
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
        ok = cc_rest_triangle(r, uv, cc_lua_optfield(L, arg, "area_power", 1.0), cc_lua_optfield(L, arg, "bu", 1.0),
                              cc_lua_optfield(L, arg, "bv", 1.0), err);
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
            ok = cc_rest_hinge(r, cc_lua_optfield(L, arg, "rest", 0.0), err);
        }
        if (has_table) lua_pop(L, 1);   /* x_rest */
    } else {
        ok = cc_rest_spring(r, cc_lua_optfield(L, arg, "rest", 1.0), err);
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
