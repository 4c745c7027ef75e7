/* clothcheck Lua: check-system's checks of a whole simulator (checks/system.h), on one written
 * in Lua.
 *
 *   clothcheck.check_system{mesh = m, provides = {"energy", "force", ...}, answer = f
 *                           [, h = 0.01] [, seed = 1] [, directions = 3] [, localize = 4]}
 *       -> report
 *     provides: what f gives, names of the system protocol: energy, force, df_dx, df_dv,
 *       system (A and b), external
 *     f(x, v, h, want) -> {energy = E, force = {3n}, external = {3n}, df_dx = M, df_dv = M,
 *       A = M, b = {3n}}: the fields `want` asks for (want.force == true, ...; want.system asks
 *       for A and b); x, v are {3n} (vertex i's x, y, z at 3i-2, 3i-1, 3i); a matrix M is
 *       3n x 3n, as rows {{...}, ...} or as triplets {i = {...}, j = {...}, v = {...}}
 *       (1-based, duplicates summed)
 *   report.failed       true when a check that gates failed
 *   report.checks       {{name=, applies=, gates=, pass=, tests=, max_rel=, note=,
 *                         findings={...}}, ...}, in check-system's order, and by name:
 *                         report.checks["df/dx"]
 *   report.states       the names of the states checked; report.evaluations: states asked for
 *   report.total_mass   the mass A implies (when f gives the system)
 * Findings number vertices, triangles and hinges from 1, as the mesh functions do. An error
 * raised by f, or an answer that is not what was asked for, stops the checks with one error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "checks/system.h"
#include "lua/lcc.h"

static const char *const field[6] = {"energy", "force", "df_dx", "df_dv", "system", "external"};
static const int bit[6] = {CC_SYS_ENERGY, CC_SYS_FORCE, CC_SYS_DFDX, CC_SYS_DFDV, CC_SYS_SYSTEM, CC_SYS_EXTERNAL};

/* One run: the state holding the answer function, and the request being answered. */
typedef struct sys_ctx {
    lua_State *L;
    int answer;            /* registry reference to f */
    int n;                 /* 3 nv */
    /* the request, for protected_answer */
    const double *x, *v;
    double h;
    int want;
    cc_sys_eval *out;
} sys_ctx;

/* out[0..n) = the list `name` of the answer at index t (numbers that are not finite are findings
 * of the checks, "finite", not errors) */
static void vector(lua_State *L, int t, const char *name, int n, double *out)
{
    int got = 0;
    lua_getfield(L, t, name);
    if (cc_lua_readnumbers(L, -1, out, n, &got) < 0 || got != n)
        luaL_error(L, "answer: %s must be a list of %d numbers", name, n);
    lua_pop(L, 1);
}

/* the whole number at the top of the stack, or an error naming the entry */
static int whole(lua_State *L, const char *name, const char *which, lua_Integer k)
{
    int isnum;
    lua_Integer i = lua_tointegerx(L, -1, &isnum);
    if (!isnum) luaL_error(L, "answer: %s.%s entry %d is not a whole number", name, which, (int)k);
    lua_pop(L, 1);
    return (int)i - 1;
}

/* A = the matrix `name` of the answer at index t: rows {{...}, ...} or triplets {i=, j=, v=} */
static void matrix(lua_State *L, int t, const char *name, int n, cc_csr *A)
{
    if (lua_getfield(L, t, name) != LUA_TTABLE) luaL_error(L, "answer: %s must be a table (rows, or i, j, v)", name);
    int m = lua_gettop(L), triplets = lua_getfield(L, m, "i") != LUA_TNIL;
    lua_pop(L, 1);
    lua_Integer nnz = triplets ? 0 : (lua_Integer)n * n;
    if (triplets) {
        static const char *const part[3] = {"i", "j", "v"};
        for (int p = 0; p < 3; p++) {
            if (lua_getfield(L, m, part[p]) != LUA_TTABLE) luaL_error(L, "answer: %s.%s must be a list", name, part[p]);
            lua_Integer len = luaL_len(L, -1);
            if (p && len != nnz) luaL_error(L, "answer: %s has %d i and %d %s", name, (int)nnz, (int)len, part[p]);
            nnz = len;
            lua_pop(L, 1);
        }
    }
    if (nnz >= (1 << 26)) luaL_error(L, "answer: %s has too many entries%s", name, triplets ? "" : " as rows: give triplets");
    int *I = lua_newuserdatauv(L, sizeof(int) * (size_t)(nnz + 1), 0);
    int *J = lua_newuserdatauv(L, sizeof(int) * (size_t)(nnz + 1), 0);
    double *V = lua_newuserdatauv(L, sizeof(double) * (size_t)(nnz + 1), 0);
    int k = 0, bad;
    if (triplets) {
        lua_getfield(L, m, "i"), lua_getfield(L, m, "j"), lua_getfield(L, m, "v");
        for (lua_Integer q = 1; q <= nnz; q++) {
            lua_geti(L, -3, q), I[k] = whole(L, name, "i", q);
            lua_geti(L, -2, q), J[k] = whole(L, name, "j", q);
            lua_geti(L, -1, q);
            int isnum;
            V[k] = lua_tonumberx(L, -1, &isnum);
            if (!isnum) luaL_error(L, "answer: %s.v entry %d is not a number", name, (int)q);
            lua_pop(L, 1);
            k++;
        }
        lua_pop(L, 3);
    } else {
        if (luaL_len(L, m) != n) luaL_error(L, "answer: %s must have %d rows (or be triplets i, j, v)", name, n);
        double *row = lua_newuserdatauv(L, sizeof(double) * (size_t)n, 0);
        for (int i = 0; i < n; i++) {
            int got = 0;
            lua_geti(L, m, i + 1);
            if (cc_lua_readnumbers(L, -1, row, n, &got) < 0 || got != n)
                luaL_error(L, "answer: %s row %d must be %d numbers", name, i + 1, n);
            lua_pop(L, 1);
            for (int j = 0; j < n; j++)
                if (row[j] != 0) I[k] = i, J[k] = j, V[k++] = row[j];   /* NaN too: the finite check names it */
        }
        lua_pop(L, 1);
    }
    if (cc_csr_from_triplets(A, n, k, I, J, V, &bad) < 0) {
        if (bad < 0) luaL_error(L, "answer: %s: out of memory", name);
        luaL_error(L, "answer: %s entry %d: (%d, %d) is outside the %d x %d matrix", name, bad + 1, I[bad] + 1, J[bad] + 1, n, n);
    }
    lua_pop(L, 4);   /* I, J, V and the matrix */
}

/* under pcall: f(x, v, h, want), its answer read into the request's out */
static int protected_answer(lua_State *L)
{
    sys_ctx *c = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->answer);
    cc_lua_pushnumbers(L, c->x, c->n);
    cc_lua_pushnumbers(L, c->v, c->n);
    lua_pushnumber(L, c->h);
    lua_createtable(L, 0, 6);
    for (int k = 0; k < 6; k++)
        if (c->want & bit[k]) lua_pushboolean(L, 1), lua_setfield(L, -2, field[k]);
    lua_call(L, 4, 1);
    if (!lua_istable(L, -1)) return luaL_error(L, "answer: f must return a table (got %s)", luaL_typename(L, -1));
    int t = lua_gettop(L);
    cc_sys_eval *o = c->out;
    if (c->want & CC_SYS_ENERGY) {
        int isnum;
        lua_getfield(L, t, "energy");
        o->E = lua_tonumberx(L, -1, &isnum);
        if (!isnum) return luaL_error(L, "answer: energy must be a number");
        lua_pop(L, 1);
    }
    if (c->want & CC_SYS_FORCE) vector(L, t, "force", c->n, o->f);
    if (c->want & CC_SYS_EXTERNAL) vector(L, t, "external", c->n, o->ext);
    if (c->want & CC_SYS_DFDX) matrix(L, t, "df_dx", c->n, &o->dfdx);
    if (c->want & CC_SYS_DFDV) matrix(L, t, "df_dv", c->n, &o->dfdv);
    if (c->want & CC_SYS_SYSTEM) matrix(L, t, "A", c->n, &o->A), vector(L, t, "b", c->n, o->b);
    o->have = c->want;
    return 0;
}

/* the system target's eval: the Lua function, protected; -1 with its error in err */
static int lua_system_eval(void *ctx, const double *x, const double *v, double h, int want, cc_sys_eval *out, char *err)
{
    sys_ctx *c = ctx;
    lua_State *L = c->L;
    c->x = x, c->v = v, c->h = h, c->want = want, c->out = out;
    lua_pushcfunction(L, protected_answer);
    lua_pushlightuserdata(L, c);
    if (lua_pcall(L, 1, 0, 0) == LUA_OK) return 0;
    snprintf(err, CC_ERRLEN, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "an error that is not a string");
    lua_pop(L, 1);
    return -1;
}

/* the CC_SYS_* bits of the list of names at index t */
static int provides_of(lua_State *L, int t)
{
    int bits = 0;
    lua_Integer len = luaL_len(L, t);
    for (lua_Integer i = 1; i <= len; i++) {
        lua_geti(L, t, i);
        const char *s = lua_tostring(L, -1);
        int k = 0;
        while (k < 6 && !(s && lua_type(L, -1) == LUA_TSTRING && !strcmp(s, field[k]))) k++;
        if (k == 6) luaL_argerror(L, 1, "provides: each must be one of energy, force, df_dx, df_dv, system, external");
        bits |= bit[k];
        lua_pop(L, 1);
    }
    return bits;
}

/* the integer field `key` of the table at 1 within [lo, hi], or def */
static int intfield(lua_State *L, const char *key, int lo, int hi, int def)
{
    lua_Integer k = def;
    if (lua_getfield(L, 1, key) != LUA_TNIL) k = luaL_checkinteger(L, -1);
    lua_pop(L, 1);
    if (k < lo || k > hi) luaL_argerror(L, 1, lua_pushfstring(L, "%s must be %d..%d", key, lo, hi));
    return (int)k;
}

static void push_report(lua_State *L, const cc_sys_report *r, const cc_mesh *m)
{
    lua_createtable(L, 0, 7);
    lua_pushboolean(L, cc_sys_failed(r));
    lua_setfield(L, -2, "failed");
    lua_pushinteger(L, r->evaluations);
    lua_setfield(L, -2, "evaluations");
    if (r->total_mass > 0) lua_pushnumber(L, r->total_mass), lua_setfield(L, -2, "total_mass");
    int et;
    lua_pushinteger(L, m->uv_from_xy), lua_setfield(L, -2, "uv_from_xy");
    lua_pushnumber(L, cc_mesh_uv_mismatch(m, &et)), lua_setfield(L, -2, "uv_mismatch");
    lua_createtable(L, r->nstates, 0);
    for (int s = 0; s < r->nstates; s++) lua_pushstring(L, r->state_name[s]), lua_rawseti(L, -2, s + 1);
    lua_setfield(L, -2, "states");
    lua_createtable(L, CC_SYS_CHECKS, CC_SYS_CHECKS);
    for (int c = 0; c < CC_SYS_CHECKS; c++) {
        const cc_sys_check *k = &r->c[c];
        lua_createtable(L, 0, 8);
        lua_pushstring(L, k->name), lua_setfield(L, -2, "name");
        lua_pushboolean(L, k->applies && k->tests), lua_setfield(L, -2, "applies");
        lua_pushboolean(L, k->gates), lua_setfield(L, -2, "gates");
        lua_pushboolean(L, k->pass), lua_setfield(L, -2, "pass");
        lua_pushinteger(L, k->tests), lua_setfield(L, -2, "tests");
        lua_pushnumber(L, k->max_rel), lua_setfield(L, -2, "max_rel");
        lua_pushstring(L, k->note ? k->note : ""), lua_setfield(L, -2, "note");
        lua_createtable(L, k->nfind, 0);
        for (int i = 0; i < k->nfind; i++) lua_pushstring(L, k->find[i]), lua_rawseti(L, -2, i + 1);
        lua_setfield(L, -2, "findings");
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, k->name);
        lua_rawseti(L, -2, c + 1);
    }
    lua_setfield(L, -2, "checks");
}

static int l_check_system(lua_State *L)
{
    static const char *const keys[] = {"mesh", "provides", "answer", "h", "seed", "directions", "localize", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    cc_lua_checkkeys(L, 1, 1, NULL, keys);
    lua_getfield(L, 1, "mesh");
    luaL_argcheck(L, luaL_testudata(L, 2, CC_LUA_MESH), 1, "mesh must be a mesh (clothcheck.grid, clothcheck.read_obj)");
    const cc_mesh *m = cc_lua_checkmesh(L, 2);
    char why[CC_ERRLEN];
    if (cc_mesh_check_rest(m, why) < 0) return luaL_error(L, "check_system: the mesh: %s", why);
    luaL_argcheck(L, lua_getfield(L, 1, "provides") == LUA_TTABLE, 1, "provides must be a list of names");
    int provides = provides_of(L, lua_gettop(L));
    luaL_argcheck(L, provides, 1, "provides names nothing");
    luaL_argcheck(L, lua_getfield(L, 1, "answer") == LUA_TFUNCTION, 1, "answer must be a function (x, v, h, want)");
    cc_sys_opts o = cc_sys_defaults();
    o.base = 1;
    o.h = cc_lua_optfield(L, 1, "h", o.h);
    luaL_argcheck(L, o.h > 0 && o.h <= 1, 1, "h must be in (0, 1]");
    o.seed = (unsigned long long)intfield(L, "seed", 0, 2147483647, 1);
    o.directions = intfield(L, "directions", 1, 100, o.directions);
    o.localize = intfield(L, "localize", 1, 16, o.localize);
    /* the report (large) and the answer function live on the stack until the end */
    cc_sys_report *r = lua_newuserdatauv(L, sizeof *r, 0);
    lua_pushvalue(L, -2);
    sys_ctx c = {.L = L, .answer = luaL_ref(L, LUA_REGISTRYINDEX), .n = 3 * m->nv};
    cc_sys_target t = {.mesh = m, .provides = provides, .ctx = &c, .eval = lua_system_eval};
    char err[CC_ERRLEN];
    int rc = cc_sys_run(&t, &o, r, err);
    luaL_unref(L, LUA_REGISTRYINDEX, c.answer);
    if (rc < 0) return luaL_error(L, "check_system: %s", err);
    push_report(L, r, m);
    return 1;
}

static const luaL_Reg system_funcs[] = {{"check_system", l_check_system}, {NULL, NULL}};

void cc_lua_open_system(lua_State *L) { luaL_setfuncs(L, system_funcs, 0); }
