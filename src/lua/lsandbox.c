/* The script sandbox and its limits (docs/security.md).
 *
 * A script run by `clothcheck run` or `clothcheck lesson` without --unsafe is untrusted. It may
 *   - read files inside the folders and files the sandbox lists (the script's own folder, the
 *     toolkit's lessons/ and lua/, its output folder, files named on the command line);
 *   - write, rename and remove files only inside its output folder;
 *   - load Lua text but not bytecode; it has no debug library, cannot start programs, load C
 *     code or read the environment.
 * Every path is resolved (symbolic links, "..") before it is compared with the folders, and
 * every entry point that takes a path checks it: io.open, io.lines, io.input, io.output,
 * dofile, loadfile, require (its file searcher), os.remove, os.rename, and the toolkit's own
 * readers and writers (cc_lua_checkpath).
 *
 * The limits hold with or without --unsafe. CPU: a profiling timer (ITIMER_PROF) fires once
 * the script has used its seconds and sets an instruction-count hook that raises an error at
 * every instruction (no hook runs before, so scripts run at full speed); a computation that
 * does not come back to the main thread's Lua code (one long toolkit call, an endless loop in
 * a coroutine) is stopped by RLIMIT_CPU a few seconds later. Memory: a counting allocator
 * refuses Lua memory beyond the limit. */
#define _XOPEN_SOURCE 700   /* realpath */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <lualib.h>
#include "lua/lcc.h"

#define CC_LUA_SANDBOX "clothcheck.sandbox"   /* registry: light userdata, the cc_sandbox */
#define CPU_GRACE 2                            /* seconds RLIMIT_CPU allows beyond the limit */

/* ---- paths ---------------------------------------------------------------------------- */

/* append component c (len n) to the absolute path p; 0, or -1 if it does not fit */
static int append(char *p, const char *c, size_t n)
{
    size_t len = strlen(p);
    if (len + 1 + n >= PATH_MAX) return -1;
    if (len > 1) p[len++] = '/';
    memcpy(p + len, c, n);
    p[len + n] = '\0';
    return 0;
}

int cc_sandbox_resolve(const char *path, char *out)
{
    char whole[2 * PATH_MAX];
    if (path[0] == '/') {
        if (strlen(path) >= sizeof whole) return -1;
        strcpy(whole, path);
    } else {
        if (!getcwd(whole, PATH_MAX)) return -1;
        size_t len = strlen(whole);
        if (len + 1 + strlen(path) >= sizeof whole) return -1;
        whole[len] = '/';
        strcpy(whole + len + 1, path);
    }
    strcpy(out, "/");
    int missing = 0;
    for (const char *s = whole; *s;) {
        while (*s == '/') s++;
        size_t n = strcspn(s, "/");
        if (n == 0) break;
        const char *c = s;
        s += n;
        if (n == 1 && c[0] == '.') continue;
        if (n == 2 && c[0] == '.' && c[1] == '.') {
            if (missing) return -1;                 /* ".." below a folder that does not exist */
            char *slash = strrchr(out, '/');
            slash == out ? (void)(out[1] = '\0') : (void)(*slash = '\0');
            continue;
        }
        if (append(out, c, n) < 0) return -1;
        if (missing) continue;
        char real[PATH_MAX];
        struct stat st;
        if (realpath(out, real)) {
            strcpy(out, real);
        } else if (errno == ENOENT && lstat(out, &st) != 0) {
            missing = 1;                            /* the rest is written as it reads */
        } else {
            return -1;                              /* a dangling link, a loop, not a folder */
        }
    }
    return 0;
}

/* 1 if the resolved path lies in or is the resolved root */
static int inside(const char *path, const char *root)
{
    size_t n = strlen(root);
    if (n == 1) return 1;                           /* root is "/" */
    return !strncmp(path, root, n) && (path[n] == '\0' || path[n] == '/');
}

int cc_sandbox_allow(cc_sandbox *sb, const char *path, int write)
{
    if (write) {
        if (cc_sandbox_resolve(path, sb->out) < 0) return -1;
        snprintf(sb->out_given, sizeof sb->out_given, "%s", path);
        return 0;
    }
    if (sb->nread >= CC_SANDBOX_READS) return -1;
    if (cc_sandbox_resolve(path, sb->read[sb->nread]) < 0) return -1;
    sb->nread++;
    return 0;
}

int cc_sandbox_check(const cc_sandbox *sb, const char *path, int write)
{
    char r[PATH_MAX];
    if (cc_sandbox_resolve(path, r) < 0) return -1;
    if (sb->out[0] && inside(r, sb->out)) return 0;
    if (write) return -1;
    for (int i = 0; i < sb->nread; i++)
        if (inside(r, sb->read[i])) return 0;
    return -1;
}

/* the sandbox of L, or NULL (no sandbox: --unsafe, or the module loaded elsewhere) */
static cc_sandbox *get_sandbox(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, CC_LUA_SANDBOX);
    cc_sandbox *sb = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return sb;
}

void cc_lua_checkpath(lua_State *L, const char *path, int write)
{
    cc_sandbox *sb = get_sandbox(L);
    if (!sb || cc_sandbox_check(sb, path, write) == 0) return;
    luaL_where(L, 1);                                /* the script line that called the C function */
    if (write)
        lua_pushfstring(L, "sandbox: cannot write '%s': scripts write only inside their output folder '%s' "
                           "(clothcheck run --out DIR; docs/security.md)", path, sb->out_given);
    else
        lua_pushfstring(L, "sandbox: cannot read '%s': outside the folders this script may read "
                           "(docs/security.md)", path);
    lua_concat(L, 2);
    lua_error(L);
}

/* ---- wrapped library functions -------------------------------------------------------- */

/* call upvalue 1 (the library's own function) with the arguments as they are */
static int call_original(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/* io.open(path[, mode]) */
static int s_open(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1), *mode = luaL_optstring(L, 2, "r");
    cc_lua_checkpath(L, path, strpbrk(mode, "wa+") != NULL);
    return call_original(L);
}

/* io.lines([path, ...]), io.input([file | path]): paths are read */
static int s_read_arg1(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TSTRING) cc_lua_checkpath(L, lua_tostring(L, 1), 0);
    return call_original(L);
}

/* io.output([file | path]), os.remove(path): paths are written */
static int s_write_arg1(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TSTRING) cc_lua_checkpath(L, lua_tostring(L, 1), 1);
    return call_original(L);
}

/* os.rename(from, to): both inside the output folder */
static int s_rename(lua_State *L)
{
    cc_lua_checkpath(L, luaL_checkstring(L, 1), 1);
    cc_lua_checkpath(L, luaL_checkstring(L, 2), 1);
    return call_original(L);
}

/* load(chunk[, name[, mode[, env]]]): mode is always "t" */
static int s_load(lua_State *L)
{
    if (lua_gettop(L) < 3) lua_settop(L, 3);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    return call_original(L);
}

/* loadfile([path[, mode[, env]]]) -> chunk | nil, message; text only */
static int s_loadfile(lua_State *L)
{
    const char *path = luaL_optstring(L, 1, NULL);
    if (path) cc_lua_checkpath(L, path, 0);
    int env = !lua_isnone(L, 3) ? 3 : 0;
    if (luaL_loadfilex(L, path, "t") != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (env) {
        lua_pushvalue(L, env);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
}

/* dofile([path]): text only */
static int s_dofile(lua_State *L)
{
    const char *path = luaL_optstring(L, 1, NULL);
    if (path) cc_lua_checkpath(L, path, 0);
    lua_settop(L, 1);
    if (luaL_loadfilex(L, path, "t") != LUA_OK) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return lua_error(L);
    }
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L) - 1;
}

/* require's file searcher: each '?' of package.path (upvalue 1: package) replaced by the
 * module name; files outside the readable folders are passed over; text only */
static int s_searcher(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *file = luaL_gsub(L, name, ".", "/");               /* name file */
    lua_getfield(L, lua_upvalueindex(1), "path");
    const char *path = lua_tostring(L, -1);                        /* name file path */
    luaL_Buffer tried;
    luaL_buffinit(L, &tried);
    for (const char *s = path ? path : ""; *s;) {
        size_t n = strcspn(s, ";");
        if (n) {
            lua_pushlstring(L, s, n);
            const char *cand = luaL_gsub(L, lua_tostring(L, -1), "?", file);
            cc_sandbox *sb = get_sandbox(L);
            FILE *f = NULL;
            const char *sep = luaL_bufflen(&tried) ? "\n\t" : "";
            if (sb && cc_sandbox_check(sb, cand, 0) != 0) {
                lua_pushfstring(L, "%sno file '%s' (outside the sandbox)", sep, cand);
            } else if ((f = fopen(cand, "r")) != NULL) {
                fclose(f);
                if (luaL_loadfilex(L, cand, "t") != LUA_OK)
                    return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, cand,
                                      lua_tostring(L, -1));
                lua_pushstring(L, cand);
                return 2;                                          /* loader, file name */
            } else {
                lua_pushfstring(L, "%sno file '%s'", sep, cand);
            }
            lua_remove(L, -2), lua_remove(L, -2);
            luaL_addvalue(&tried);
        }
        s += n;
        if (*s == ';') s++;
    }
    luaL_pushresult(&tried);
    return 1;
}

/* t[k] = f with the current t[k] as its upvalue */
static void wrap(lua_State *L, int t, const char *k, lua_CFunction f)
{
    lua_getfield(L, t, k);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, t, k);
}

static void clear(lua_State *L, int t, const char *k)
{
    t = lua_absindex(L, t);
    lua_pushnil(L);
    lua_setfield(L, t, k);
}

void cc_lua_sandbox(lua_State *L, cc_sandbox *sb, const char *package_path)
{
    lua_pushlightuserdata(L, sb);
    lua_setfield(L, LUA_REGISTRYINDEX, CC_LUA_SANDBOX);

    lua_pushglobaltable(L);
    int g = lua_gettop(L);
    wrap(L, g, "load", s_load);
    lua_pushcfunction(L, s_loadfile), lua_setfield(L, g, "loadfile");
    lua_pushcfunction(L, s_dofile), lua_setfield(L, g, "dofile");
    clear(L, g, "debug");

    lua_getfield(L, g, "io");
    int io = lua_gettop(L);
    wrap(L, io, "open", s_open);
    wrap(L, io, "lines", s_read_arg1);
    wrap(L, io, "input", s_read_arg1);
    wrap(L, io, "output", s_write_arg1);
    clear(L, io, "popen");

    lua_getfield(L, g, "os");
    int os = lua_gettop(L);
    wrap(L, os, "remove", s_write_arg1);
    wrap(L, os, "rename", s_rename);
    clear(L, os, "execute");
    clear(L, os, "tmpname");
    clear(L, os, "getenv");

    lua_getfield(L, g, "package");
    int pkg = lua_gettop(L);
    clear(L, pkg, "loadlib");
    clear(L, pkg, "searchpath");
    lua_pushliteral(L, ""), lua_setfield(L, pkg, "cpath");
    lua_pushstring(L, package_path), lua_setfield(L, pkg, "path");
    lua_getfield(L, pkg, "loaded");
    clear(L, -1, "debug");
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);                                  /* searchers: preload, files */
    lua_getfield(L, pkg, "searchers");
    lua_rawgeti(L, -1, 1);
    lua_rawseti(L, -3, 1);
    lua_pop(L, 1);
    lua_pushvalue(L, pkg);
    lua_pushcclosure(L, s_searcher, 1);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, pkg, "searchers");
    lua_settop(L, g - 1);
}

/* ---- limits --------------------------------------------------------------------------- */

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static cc_sandbox *limit_sandbox;   /* the limits the timer, hook and allocator enforce */
static lua_State *limit_state;
static char limit_line[128];        /* what the RLIMIT_CPU handler prints */

/* once the CPU time is up: an error at every instruction, so pcall cannot go on */
static void cpu_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, cpu_hook, LUA_MASKCOUNT, 1);   /* threads made from now on inherit it */
    luaL_error(L, "CPU limit of %g s reached (--cpu-limit)", limit_sandbox->cpu_limit);
}

/* SIGPROF, the CPU time is up: set the hook (lua_sethook may be called from a signal) */
static void on_sigprof(int sig)
{
    (void)sig;
    limit_sandbox->cpu_hit = 1;
    lua_sethook(limit_state, cpu_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* after SIGINT: an error at every instruction, so pcall cannot go on; the C function running
 * when it came (a write, a step) finishes first, so no output is left half-written */
static void int_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, int_hook, LUA_MASKCOUNT, 1);
    luaL_error(L, "interrupted (SIGINT)");
}

/* SIGINT: stop the script at its next instruction; a second SIGINT ends the process at once */
static void on_sigint(int sig)
{
    limit_sandbox->interrupted = 1;
    signal(sig, SIG_DFL);
    lua_sethook(limit_state, int_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* SIGXCPU, well past the limit inside C code (or a coroutine that never returns) */
static void on_sigxcpu(int sig)
{
    (void)sig;
    if (write(2, limit_line, strlen(limit_line)) < 0) _exit(2);
    _exit(2);
}

/* the allocator: realloc and free, counting the bytes; refuses beyond the limit */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    cc_sandbox *sb = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        sb->mem_used -= old;
        return NULL;
    }
    if (nsize > old && sb->mem_limit && sb->mem_used - old + nsize > sb->mem_limit) {
        sb->mem_refused++;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p) sb->mem_used = sb->mem_used - old + nsize;
    return p;
}

void cc_lua_limits(lua_State *L, cc_sandbox *sb)
{
    limit_sandbox = sb;
    limit_state = L;
    sb->mem_used = (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB, 0);
    lua_setallocf(L, limited_alloc, sb);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    if (sb->cpu_limit <= 0) return;
    snprintf(limit_line, sizeof limit_line, "clothcheck run: CPU limit of %g s reached (--cpu-limit)\n",
             sb->cpu_limit);
    sa.sa_handler = on_sigprof;
    sigaction(SIGPROF, &sa, NULL);
    sa.sa_handler = on_sigxcpu;
    sigaction(SIGXCPU, &sa, NULL);
    struct itimerval it = {{0, 0}, {(time_t)sb->cpu_limit, (suseconds_t)(1e6 * (sb->cpu_limit - floor(sb->cpu_limit)))}};
    if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) it.it_value.tv_usec = 1;
    setitimer(ITIMER_PROF, &it, NULL);
    struct rlimit rl;
    rlim_t want = (rlim_t)(cpu_seconds() + sb->cpu_limit) + CPU_GRACE;
    if (getrlimit(RLIMIT_CPU, &rl) == 0 && (rl.rlim_max == RLIM_INFINITY || want < rl.rlim_max)) {
        rl.rlim_cur = want;
        setrlimit(RLIMIT_CPU, &rl);
    }
}

int cc_lua_stop_asked(void) { return limit_sandbox && (limit_sandbox->interrupted || limit_sandbox->cpu_hit); }

const char *cc_lua_limit_hit(const cc_sandbox *sb, char *buf, size_t n)
{
    if (sb->interrupted) return snprintf(buf, n, "interrupted (SIGINT)"), buf;
    if (sb->cpu_hit) return snprintf(buf, n, "CPU limit of %g s reached (--cpu-limit)", sb->cpu_limit), buf;
    if (sb->mem_refused)
        return snprintf(buf, n, "memory limit of %g MB reached (--memory-limit)",
                        (double)sb->mem_limit / (1024.0 * 1024.0)), buf;
    return NULL;
}
