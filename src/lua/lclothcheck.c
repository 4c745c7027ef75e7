/* clothcheck Lua: the module entry point. require "clothcheck" gives the whole toolkit. */
#include <lualib.h>
#include "api/clothcheck.h"
#include "lua/lcc.h"

int luaopen_clothcheck(lua_State *L)
{
    lua_newtable(L);
    lua_pushstring(L, clothcheck_version());
    lua_setfield(L, -2, "version");
    cc_lua_open_condition(L);
    cc_lua_open_mesh(L);
    cc_lua_open_sim(L);
    cc_lua_open_io(L);
    cc_lua_open_plot(L);
    cc_lua_open_audit(L);
    cc_lua_open_system(L);
    return 1;
}

/* the state of lcc.h: the standard libraries (no debug unless unsafe), clothcheck preloaded */
lua_State *cc_lua_newstate(int unsafe)
{
    lua_State *L = luaL_newstate();
    if (!L) return NULL;
    static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base}, {LUA_LOADLIBNAME, luaopen_package},
        {LUA_COLIBNAME, luaopen_coroutine}, {LUA_TABLIBNAME, luaopen_table}, {LUA_IOLIBNAME, luaopen_io},
        {LUA_OSLIBNAME, luaopen_os}, {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8}, {LUA_DBLIBNAME, luaopen_debug}, {NULL, NULL}};
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        if (!unsafe && lib->func == luaopen_debug) continue;
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_clothcheck);
    lua_setfield(L, -2, "clothcheck");
    lua_pop(L, 1);
    return L;
}
