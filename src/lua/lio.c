/* clothcheck Lua: output files and progress for scenarios.
 *
 *   clothcheck.mkdir(path)                          -> true | nil, message   (mkdir -p)
 *   clothcheck.write_csv(path, names, rows)         -> true | nil, message
 *       names: {"t", "energy", ...}; rows: {{0, 1.5}, {0.02, 1.4}, ...} (atomic write)
 *   clothcheck.progress(label, done, total)         progress line on stderr (terminals only,
 *                                                   or when CC_PROGRESS is set)
 *   clothcheck.wall_time()                          -> seconds (monotonic), for timings
 *   clothcheck.outdir()                             -> the script's output folder (clothcheck run
 *                                                   --out DIR; default out/<script name>),
 *                                                   made if missing
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "io/files.h"
#include "lua/lcc.h"

static int fail(lua_State *L, const char *msg)
{
    luaL_pushfail(L);
    lua_pushstring(L, msg);
    return 2;
}

static int l_mkdir(lua_State *L)
{
    char err[CC_ERRLEN];
    const char *path = luaL_checkstring(L, 1);
    cc_lua_checkpath(L, path, 1);
    if (cc_mkdir_p(path, err) < 0) return fail(L, err);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_write_csv(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    cc_lua_checkpath(L, path, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TTABLE);
    int ncol = (int)luaL_len(L, 2), nrow = (int)luaL_len(L, 3);
    luaL_argcheck(L, ncol > 0, 2, "no column names");
    const char **names = lua_newuserdatauv(L, sizeof(char *) * (size_t)ncol, 0);   /* freed by GC */
    for (int c = 0; c < ncol; c++) {
        lua_geti(L, 2, c + 1);
        names[c] = lua_tostring(L, -1);
        luaL_argcheck(L, names[c] != NULL, 2, "column names must be strings");
        lua_pop(L, 1);   /* still referenced by the names table */
    }
    double *v = lua_newuserdatauv(L, sizeof(double) * ((size_t)ncol * (size_t)nrow + 1), 0);
    for (int r = 0; r < nrow; r++) {
        lua_geti(L, 3, r + 1);
        luaL_argcheck(L, lua_istable(L, -1) && luaL_len(L, -1) == ncol, 3,
                      lua_pushfstring(L, "row %d must have %d numbers", r + 1, ncol));
        for (int c = 0; c < ncol; c++) {
            int ok;
            lua_geti(L, -1, c + 1);
            v[(size_t)r * ncol + c] = lua_tonumberx(L, -1, &ok);
            luaL_argcheck(L, ok, 3, lua_pushfstring(L, "row %d, column %d is not a number", r + 1, c + 1));
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    char err[CC_ERRLEN];
    if (cc_write_csv(path, names, ncol, v, nrow, err) < 0) return fail(L, err);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_progress(lua_State *L)
{
    cc_progress(luaL_checkstring(L, 1), (long)luaL_checkinteger(L, 2), (long)luaL_checkinteger(L, 3));
    return 0;
}

static int l_wall_time(lua_State *L)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    lua_pushnumber(L, (double)t.tv_sec + 1e-9 * (double)t.tv_nsec);
    return 1;
}

/* the output folder, made (mkdir -p) if missing so that every writer can use it at once */
static int l_outdir(lua_State *L)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, CC_LUA_OUTDIR) != LUA_TSTRING) {
        lua_pop(L, 1);
        lua_pushliteral(L, "out");
    }
    const char *dir = lua_tostring(L, -1);
    char err[CC_ERRLEN];
    cc_lua_checkpath(L, dir, 1);
    if (cc_mkdir_p(dir, err) < 0) return luaL_error(L, "cannot make the output folder: %s", err);
    return 1;
}

static const luaL_Reg io_funcs[] = {
    {"mkdir", l_mkdir}, {"write_csv", l_write_csv}, {"progress", l_progress},
    {"wall_time", l_wall_time}, {"outdir", l_outdir}, {NULL, NULL}};

void cc_lua_open_io(lua_State *L) { luaL_setfuncs(L, io_funcs, 0); }
