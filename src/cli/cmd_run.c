/* clothcheck run: run a Lua 5.4 script with the clothcheck module preloaded, in the sandbox
 * of lua/lsandbox.c unless --unsafe, under CPU and memory limits (docs/security.md). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lauxlib.h>
#include "cli/cli.h"
#include "io/files.h"
#include "lua/lcc.h"

#ifndef CC_SOURCE_DIR
#define CC_SOURCE_DIR "."
#endif

/* the lessons folder: $CLOTHCHECK_LESSONS, else the source tree's (cli.h) */
const char *cc_lessons_root(void)
{
    const char *env = getenv("CLOTHCHECK_LESSONS");
    return env && *env ? env : CC_SOURCE_DIR "/lessons";
}

static void run_usage(FILE *f)
{
    fprintf(f,
            "usage: clothcheck run [--out DIR] [--cpu-limit S] [--memory-limit MB] [--unsafe]\n"
            "                      SCRIPT.lua [ARGS...]\n"
            "\n"
            "Run a Lua 5.4 script; require \"clothcheck\" gives the toolkit. The script sees its\n"
            "arguments in the table arg (arg[0] is the script). Errors print file:line and a\n"
            "message and exit with status 2; a script that ends with `return false` (a check\n"
            "that failed) exits with status 1; Ctrl-C (SIGINT) ends it at its next instruction,\n"
            "leaving every file it wrote whole, with status 130.\n"
            "\n"
            "Scripts run in a sandbox (docs/security.md): they read only their own folder, the\n"
            "toolkit's lessons/ and lua/ folders, their output folder and files named among\n"
            "ARGS; they write, rename and remove files only inside their output folder; they\n"
            "load Lua text but not bytecode and cannot start programs, load C code, use the\n"
            "debug library or read the environment.\n"
            "\n"
            "  --out DIR          the output folder (default out/<script name>, and for a lesson's\n"
            "                     NNN_name/lesson.lua out/NNN_name, as clothcheck lesson N); the\n"
            "                     script finds it as clothcheck.outdir()\n"
            "  --cpu-limit S      end the script after S seconds of CPU (default %g; 0: none)\n"
            "  --memory-limit MB  refuse Lua memory beyond MB megabytes (default %g; 0: none)\n"
            "  --unsafe           trust the script: no sandbox (the limits still hold)\n",
            CC_RUN_CPU_LIMIT, CC_RUN_MEMORY_LIMIT);
}

/* the folder of path ("." when it has none), in buf of n bytes */
static const char *folder_of(const char *path, char *buf, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return snprintf(buf, n, "."), buf;
    if (slash == path) return snprintf(buf, n, "/"), buf;
    snprintf(buf, n, "%.*s", (int)(slash - path), path);
    return buf;
}

/* out/<script file name without .lua> in buf of n bytes; for a lesson, DIR/NNN_name/lesson.lua,
 * out/NNN_name (as clothcheck lesson N), so that lessons run by file do not share a folder */
static const char *default_out(const char *script, char *buf, size_t n)
{
    const char *base = strrchr(script, '/');
    base = base ? base + 1 : script;
    size_t len = strlen(base);
    if (!strcmp(base, "lesson.lua") && base > script) {
        const char *end = base - 1, *dir = end;   /* the folder holding it: [dir, end) */
        while (dir > script && dir[-1] != '/') dir--;
        if (end > dir && !(end - dir == 1 && *dir == '.') && !(end - dir == 2 && !strncmp(dir, "..", 2))) {
            snprintf(buf, n, "out/%.*s", (int)(end - dir), dir);
            return buf;
        }
    }
    if (len > 4 && !strcmp(base + len - 4, ".lua")) len -= 4;
    snprintf(buf, n, "out/%.*s", (int)len, base);
    return buf;
}

/* 0 if dir, or the nearest folder above it that exists, can be written */
/* make the output folder named with --out (mkdir -p) and prove it writable by creating and
 * removing a file in it; 0, or -1 with the reason in err */
static int prepare_out(const char *dir, char *err)
{
    if (cc_mkdir_p(dir, err) < 0) return -1;
    char probe[PATH_MAX];
    snprintf(probe, sizeof probe, "%s/.clothcheck-writeXXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0) return cc_fail(err, "%s", strerror(errno));
    close(fd);
    unlink(probe);
    return 0;
}

/* the rules of the sandbox for o; 0, or CC_EXIT_USAGE after a message */
static int sandbox_rules(cc_sandbox *sb, const cc_run_opts *o, const char *out)
{
    char dir[PATH_MAX];
    const char *reads[] = {folder_of(o->argv[0], dir, sizeof dir), cc_lessons_root(), CC_SOURCE_DIR "/lua",
                           o->read_extra};
    if (cc_sandbox_allow(sb, out, 1) < 0) return cc_cli_error("run", "cannot use '%s' as the output folder", out);
    for (size_t i = 0; i < sizeof reads / sizeof *reads; i++)
        if (reads[i] && cc_sandbox_allow(sb, reads[i], 0) < 0 && i == 0)
            return cc_cli_error("run", "cannot resolve the folder of '%s'", o->argv[0]);
    for (int a = 1; a < o->argc; a++) {                   /* files named on the command line */
        struct stat st;
        if (stat(o->argv[a], &st) == 0 && S_ISREG(st.st_mode) && cc_sandbox_allow(sb, o->argv[a], 0) < 0)
            return cc_cli_error("run", "too many files named on the command line");
    }
    return CC_EXIT_OK;
}

/* unsafe: package.path = "<script's folder>/?.lua;" .. package.path */
static void script_path_first(lua_State *L, const char *path_entry)
{
    lua_getglobal(L, "package");
    lua_pushstring(L, path_entry);
    lua_pushliteral(L, ";");
    lua_getfield(L, -3, "path");
    lua_concat(L, 3);
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
}

/* 1 if msg starts with a position "file:line:" */
static int has_position(const char *msg)
{
    size_t n = strcspn(msg, " ");
    return n >= 3 && msg[n - 1] == ':' && msg[n - 2] >= '0' && msg[n - 2] <= '9' && memchr(msg, ':', n - 1);
}

/* message handler: the error on one line, with the file:line of the innermost Lua function
 * running when the error came from C code called by C code (require, a toolkit callback) */
static int one_line_error(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) return 1;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_Debug ar;
    for (int level = 0; !has_position(msg) && lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            luaL_addvalue(&b);
            break;
        }
    }
    for (const char *s = msg; *s; s++) {
        if (*s == '\n') {
            luaL_addchar(&b, ' ');
            while (s[1] == '\t' || s[1] == '\n') s++;
        } else {
            luaL_addchar(&b, *s);
        }
    }
    luaL_pushresult(&b);
    return 1;
}

int cc_run_script(const cc_run_opts *o)
{
    char outbuf[1024], dir[PATH_MAX], entry[PATH_MAX + 8];
    const char *script = o->argv[0];
    const char *out = o->out ? o->out : default_out(script, outbuf, sizeof outbuf);
    cc_sandbox *sb = calloc(1, sizeof *sb);
    if (!sb) return cc_cli_error("run", "out of memory");
    sb->cpu_limit = o->cpu_limit;
    sb->mem_limit = (size_t)(o->memory_limit * 1024.0 * 1024.0);
    int rc = o->unsafe ? CC_EXIT_OK : sandbox_rules(sb, o, out);
    lua_State *L = rc == CC_EXIT_OK ? cc_lua_newstate(o->unsafe) : NULL;
    if (rc == CC_EXIT_OK && !L) rc = cc_cli_error("run", "cannot create a Lua state (out of memory)");
    if (rc != CC_EXIT_OK) return free(sb), rc;

    snprintf(entry, sizeof entry, "%s/?.lua", folder_of(script, dir, sizeof dir));
    if (o->unsafe) script_path_first(L, entry);
    else cc_lua_sandbox(L, sb, entry);
    lua_pushstring(L, out);
    lua_setfield(L, LUA_REGISTRYINDEX, CC_LUA_OUTDIR);
    lua_createtable(L, o->argc, 1);
    for (int a = 0; a < o->argc; a++) {
        lua_pushstring(L, o->argv[a]);
        lua_rawseti(L, -2, a);
    }
    lua_setglobal(L, "arg");
    cc_lua_limits(L, sb);

    int status = o->unsafe ? luaL_loadfile(L, script) : luaL_loadfilex(L, script, "t");
    if (status == LUA_OK) {
        lua_pushcfunction(L, one_line_error);
        lua_insert(L, -2);
        status = lua_pcall(L, 0, 1, -2);
    }
    if (status == LUA_OK && lua_isboolean(L, -1) && !lua_toboolean(L, -1)) rc = CC_EXIT_FAIL;   /* return false */
    if (status != LUA_OK) {
        char limit[128];
        const char *msg = lua_tostring(L, -1);
        int mem = status == LUA_ERRMEM || (msg && strstr(msg, "not enough memory"));
        const char *hit = cc_lua_limit_hit(sb, limit, sizeof limit);
        if (hit && (sb->cpu_hit || sb->interrupted || mem)) fprintf(stderr, "clothcheck run: %s: %s\n", script, hit);
        else fprintf(stderr, "clothcheck run: %s\n", msg ? msg : "(error object is not a string)");
        rc = sb->interrupted ? CC_EXIT_INTERRUPTED : CC_EXIT_USAGE;
    }
    lua_close(L);
    signal(SIGINT, SIG_DFL);
    free(sb);
    return rc;
}

/* S seconds or MB from an option value; 0, or -1 */
static int limit_value(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && *v >= 0 && *v < 1e9 ? 0 : -1;
}

int cc_cmd_run(int argc, char **argv)
{
    cc_run_opts o = {.cpu_limit = CC_RUN_CPU_LIMIT, .memory_limit = CC_RUN_MEMORY_LIMIT};
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) return run_usage(stdout), CC_EXIT_OK;
        if (!strcmp(a, "--unsafe")) {
            o.unsafe = 1;
            continue;
        }
        int known = !strcmp(a, "--out") || !strcmp(a, "--cpu-limit") || !strcmp(a, "--memory-limit");
        if (!known) return cc_cli_error("run", "unknown option '%s' (see --help)", a);
        if (i + 1 >= argc) return cc_cli_error("run", "%s needs a value (see --help)", a);
        const char *v = argv[++i];
        if (!strcmp(a, "--out")) {
            if (!*v) return cc_cli_error("run", "--out needs a folder");
            o.out = v;
        } else if (limit_value(v, !strcmp(a, "--cpu-limit") ? &o.cpu_limit : &o.memory_limit) < 0) {
            return cc_cli_error("run", "%s needs a number >= 0, not '%s'", a, v);
        }
    }
    if (i >= argc) return cc_cli_error("run", "no script given (see clothcheck run --help)");
    char why[CC_ERRLEN];
    if (o.out && prepare_out(o.out, why) < 0)
        return cc_cli_error("run", "cannot write into the output folder '%s': %s", o.out, why);
    o.argc = argc - i;
    o.argv = argv + i;
    return cc_run_script(&o);
}
