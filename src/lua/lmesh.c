/* clothcheck Lua: meshes.
 *
 *   clothcheck.grid(nu, nv [, width [, height [, alternate]]]) -> mesh (flat in z = 0, (u,v) = (x,y))
 *   clothcheck.read_obj(path)          -> mesh | nil, message
 *   mesh:write_obj(path)               -> true | nil, message
 *   mesh.nv, mesh.nt, mesh.nh          counts of vertices, triangles, hinges
 *   mesh:position(i) -> x, y, z        mesh:set_position(i, x, y, z)      (i is 1-based)
 *   mesh:uv(i) -> u, v
 *   mesh:triangle(t) -> a, b, c        mesh:hinge(h) -> x0, x1, x2, x3   (1-based vertex numbers)
 *   mesh:positions() -> {x1, y1, z1, x2, ...}
 */
#include <string.h>
#include "lua/lcc.h"

#define tolmesh(L) ((cc_lmesh *)luaL_checkudata(L, 1, CC_LUA_MESH))

cc_mesh *cc_lua_checkmesh(lua_State *L, int arg)
{
    cc_lmesh *lm = luaL_checkudata(L, arg, CC_LUA_MESH);
    if (!lm->m) luaL_error(L, "attempt to use a closed mesh");
    return lm->m;
}

static void push_mesh(lua_State *L, cc_mesh *m)
{
    cc_lmesh *lm = lua_newuserdatauv(L, sizeof *lm, 0);
    lm->m = m;
    luaL_setmetatable(L, CC_LUA_MESH);
}

static int l_grid(lua_State *L)
{
    lua_Integer nu = luaL_checkinteger(L, 1), nv = luaL_checkinteger(L, 2);
    double w = luaL_optnumber(L, 3, 1.0), h = luaL_optnumber(L, 4, w);
    int alt = lua_toboolean(L, 5);
    char err[CC_ERRLEN];
    luaL_argcheck(L, nu >= 2 && nu <= 100000, 1, "need 2..100000 vertices per side");
    luaL_argcheck(L, nv >= 2 && nv <= 100000, 2, "need 2..100000 vertices per side");
    luaL_argcheck(L, w > 0, 3, "size must be positive");
    luaL_argcheck(L, h > 0, 4, "size must be positive");
    cc_mesh *m = cc_mesh_grid((int)nu, (int)nv, w, h, alt, err);
    if (!m) return luaL_error(L, "%s", err);
    push_mesh(L, m);
    return 1;
}

static int l_read_obj(lua_State *L)
{
    char err[CC_ERRLEN];
    const char *path = luaL_checkstring(L, 1);
    cc_lua_checkpath(L, path, 0);
    cc_mesh *m = cc_mesh_read_obj(path, err);
    if (!m) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    push_mesh(L, m);
    return 1;
}

static int l_write_obj(lua_State *L)
{
    char err[CC_ERRLEN];
    cc_mesh *m = cc_lua_checkmesh(L, 1);
    const char *path = luaL_checkstring(L, 2);
    cc_lua_checkpath(L, path, 1);
    if (cc_mesh_write_obj(m, path, err) < 0) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* the 1-based index at arg, checked against n, as 0-based */
static int checkindex(lua_State *L, int arg, int n, const char *what)
{
    lua_Integer i = luaL_checkinteger(L, arg);
    luaL_argcheck(L, i >= 1 && i <= n, arg, lua_pushfstring(L, "%s index out of range 1..%d", what, n));
    return (int)i - 1;
}

static int l_position(lua_State *L)
{
    cc_mesh *m = cc_lua_checkmesh(L, 1);
    int i = checkindex(L, 2, m->nv, "vertex");
    for (int s = 0; s < 3; s++) lua_pushnumber(L, m->x[3 * i + s]);
    return 3;
}

static int l_set_position(lua_State *L)
{
    cc_mesh *m = cc_lua_checkmesh(L, 1);
    int i = checkindex(L, 2, m->nv, "vertex");
    for (int s = 0; s < 3; s++) m->x[3 * i + s] = luaL_checknumber(L, 3 + s);
    return 0;
}

static int l_uv(lua_State *L)
{
    cc_mesh *m = cc_lua_checkmesh(L, 1);
    int i = checkindex(L, 2, m->nv, "vertex");
    lua_pushnumber(L, m->uv[2 * i]);
    lua_pushnumber(L, m->uv[2 * i + 1]);
    return 2;
}

static int l_triangle(lua_State *L)
{
    cc_mesh *m = cc_lua_checkmesh(L, 1);
    int t = checkindex(L, 2, m->nt, "triangle");
    for (int c = 0; c < 3; c++) lua_pushinteger(L, m->tri[3 * t + c] + 1);
    return 3;
}

static int l_hinge(lua_State *L)
{
    cc_mesh *m = cc_lua_checkmesh(L, 1);
    int h = checkindex(L, 2, m->nh, "hinge");
    for (int c = 0; c < 4; c++) lua_pushinteger(L, m->hinge[4 * h + c] + 1);
    return 4;
}

static int l_positions(lua_State *L)
{
    cc_mesh *m = cc_lua_checkmesh(L, 1);
    cc_lua_pushnumbers(L, m->x, 3 * m->nv);
    return 1;
}

static int l_index(lua_State *L)
{
    const char *k = luaL_checkstring(L, 2);
    if (!strcmp(k, "nv")) lua_pushinteger(L, cc_lua_checkmesh(L, 1)->nv);
    else if (!strcmp(k, "nt")) lua_pushinteger(L, cc_lua_checkmesh(L, 1)->nt);
    else if (!strcmp(k, "nh")) lua_pushinteger(L, cc_lua_checkmesh(L, 1)->nh);
    else {
        luaL_getmetatable(L, CC_LUA_MESH);
        lua_getfield(L, -1, "methods");
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int l_tostring(lua_State *L)
{
    cc_lmesh *lm = tolmesh(L);
    if (!lm->m) lua_pushliteral(L, "mesh (closed)");
    else lua_pushfstring(L, "mesh (%d vertices, %d triangles, %d hinges)", lm->m->nv, lm->m->nt, lm->m->nh);
    return 1;
}

static int l_gc(lua_State *L)
{
    cc_lmesh *lm = tolmesh(L);
    cc_mesh_free(lm->m);
    lm->m = NULL;
    return 0;
}

static const luaL_Reg mesh_methods[] = {
    {"write_obj", l_write_obj}, {"position", l_position}, {"set_position", l_set_position},
    {"uv", l_uv}, {"triangle", l_triangle}, {"hinge", l_hinge}, {"positions", l_positions},
    {NULL, NULL}};
static const luaL_Reg mesh_meta[] = {
    {"__index", l_index}, {"__tostring", l_tostring}, {"__gc", l_gc}, {"__close", l_gc}, {NULL, NULL}};
static const luaL_Reg mesh_funcs[] = {{"grid", l_grid}, {"read_obj", l_read_obj}, {NULL, NULL}};

void cc_lua_open_mesh(lua_State *L)
{
    luaL_newmetatable(L, CC_LUA_MESH);
    luaL_setfuncs(L, mesh_meta, 0);
    luaL_newlib(L, mesh_methods);
    lua_setfield(L, -2, "methods");
    lua_pop(L, 1);
    luaL_setfuncs(L, mesh_funcs, 0);
}
