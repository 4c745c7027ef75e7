/* clothcheck run: run a Lua 5.4 script with the clothcheck module preloaded.
 * Scripts cannot start other programs (os.execute, io.popen) or load C code unless --unsafe. */
#include <stdio.h>
#include <string.h>
#include <lauxlib.h>
#include <lualib.h>
#include "cli/cli.h"
#include "lua/lcc.h"

static void run_usage(FILE *f)
{
    fputs("usage: clothcheck run [--unsafe] SCRIPT.lua [ARGS...]\n"
          "\n"
          "Run a Lua 5.4 script; require \"clothcheck\" gives the toolkit. The script sees its\n"
          "arguments in the table arg (arg[0] is the script). Errors print file:line and a\n"
          "message and exit with status 2; a script that ends with `return false` (a check\n"
          "that failed) exits with status 1.\n"
          "\n"
          "  --unsafe   allow os.execute, io.popen and loading C modules (off by default)\n", f);
}

/* remove what lets a script start programs or load native code */
static void sandbox(lua_State *L)
{
    lua_getglobal(L, "os");
    lua_pushnil(L), lua_setfield(L, -2, "execute");
    lua_pop(L, 1);
    lua_getglobal(L, "io");
    lua_pushnil(L), lua_setfield(L, -2, "popen");
    lua_pop(L, 1);
    lua_getglobal(L, "package");
    lua_pushnil(L), lua_setfield(L, -2, "loadlib");
    lua_pushliteral(L, ""), lua_setfield(L, -2, "cpath");
    lua_pop(L, 1);
}

/* package.path = "<script's directory>/?.lua;" .. package.path, so scripts require siblings */
static void script_path_first(lua_State *L, const char *script)
{
    const char *slash = strrchr(script, '/');
    lua_getglobal(L, "package");                              /* package */
    if (slash) {
        lua_pushlstring(L, script, (size_t)(slash - script));
        lua_pushliteral(L, "/?.lua;");
        lua_concat(L, 2);                                     /* package "dir/?.lua;" */
    } else {
        lua_pushliteral(L, "./?.lua;");
    }
    lua_getfield(L, -2, "path");                              /* package prefix path */
    lua_concat(L, 2);                                         /* package newpath */
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
}

int cc_cmd_run(int argc, char **argv)
{
    int i = 1, unsafe = 0;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        if (!strcmp(argv[i], "--help")) return run_usage(stdout), CC_EXIT_OK;
        if (!strcmp(argv[i], "--unsafe")) unsafe = 1;
        else return cc_cli_error("run", "unknown option '%s' (see --help)", argv[i]);
    }
    if (i >= argc) return cc_cli_error("run", "no script given (see clothcheck run --help)");
    const char *script = argv[i];
    lua_State *L = luaL_newstate();
    if (!L) return cc_cli_error("run", "cannot create a Lua state (out of memory)");
    luaL_openlibs(L);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_clothcheck);
    lua_setfield(L, -2, "clothcheck");
    lua_pop(L, 1);
    if (!unsafe) sandbox(L);
    script_path_first(L, script);
    lua_createtable(L, argc - i, 1);
    for (int a = i; a < argc; a++) {
        lua_pushstring(L, argv[a]);
        lua_rawseti(L, -2, a - i);
    }
    lua_setglobal(L, "arg");
    int status = luaL_loadfile(L, script);
    if (status == LUA_OK) status = lua_pcall(L, 0, 1, 0);
    int rc = CC_EXIT_OK;
    if (status == LUA_OK && lua_isboolean(L, -1) && !lua_toboolean(L, -1)) rc = CC_EXIT_FAIL;   /* return false */
    if (status != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        fprintf(stderr, "clothcheck run: %s\n", msg ? msg : "(error object is not a string)");
        rc = CC_EXIT_USAGE;
    }
    lua_close(L);
    return rc;
}
