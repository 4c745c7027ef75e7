/* clothcheck Lua: the module entry point. require "clothcheck" gives the whole toolkit. */
#include "lua/lcc.h"

int luaopen_clothcheck(lua_State *L)
{
    lua_newtable(L);
    lua_pushliteral(L, "0.1.0");
    lua_setfield(L, -2, "version");
    cc_lua_open_condition(L);
    cc_lua_open_mesh(L);
    cc_lua_open_sim(L);
    cc_lua_open_io(L);
    cc_lua_open_plot(L);
    cc_lua_open_audit(L);
    return 1;
}
