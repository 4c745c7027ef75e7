/* libFuzzer target: the Lua API, through scripts.
 *
 * The input is run as a Lua chunk (text only) in a fresh state set up as `clothcheck run`
 * sets one up for an untrusted script: the standard libraries without debug, the clothcheck
 * module, the sandbox (reads and writes only inside a scratch folder) and a 64 MB memory
 * limit; an instruction-count hook ends it after 2e6 instructions. A script may fail in any
 * way a Lua error can; it must not crash the process, leak memory (AddressSanitizer) or
 * escape (the sandbox's own tests cover that).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lauxlib.h>
#include "lua/lcc.h"

static int budget;

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (--budget <= 0) luaL_error(L, "instruction budget spent");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[64];
    static cc_sandbox sb;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/cc_fuzz_lua_%d", (int)getpid());
        mkdir(dir, 0700);
    }
    memset(&sb, 0, sizeof sb);
    if (cc_sandbox_allow(&sb, dir, 1) < 0 || cc_sandbox_allow(&sb, dir, 0) < 0) return 0;
    sb.mem_limit = (size_t)64 << 20;
    lua_State *L = cc_lua_newstate(0);
    if (!L) return 0;
    char entry[96];
    snprintf(entry, sizeof entry, "%s/?.lua", dir);
    cc_lua_sandbox(L, &sb, entry);
    lua_pushstring(L, dir);
    lua_setfield(L, LUA_REGISTRYINDEX, CC_LUA_OUTDIR);
    cc_lua_limits(L, &sb);
    budget = 2000;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1000);
    if (luaL_loadbufferx(L, (const char *)data, size, "=fuzz", "t") == LUA_OK) lua_pcall(L, 0, 0, 0);
    lua_close(L);
    signal(SIGINT, SIG_DFL);   /* cc_lua_limits's handler refers to the state just closed */
    return 0;
}
