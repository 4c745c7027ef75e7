#define _DEFAULT_SOURCE
/* Suite: the script sandbox and its limits (docs/security.md).
 *
 * Each escape attempt is a small script run by `clothcheck run --out OUT` from a scratch
 * folder laid out as
 *     scratch/secret.txt            a file the script must neither read nor change
 *     scratch/scripts/s.lua         the script (its own folder is readable)
 *     scratch/scripts/peek          a link to ../secret.txt
 *     scratch/out/                  the output folder, holding
 *         link -> ../secret.txt, dirlink -> .., dangle -> ../planted (missing)
 * Every attempt must end with exit status 2, a message naming what was refused, secret.txt
 * unchanged and no new file beside it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cc_test.h"

#define SECRET_TEXT "the secret\n"

static char out[1 << 14], err[1 << 13];
static char scratch[64];

typedef struct attempt {
    const char *name;     /* what the script tries */
    const char *body;     /* Lua, after a prelude defining cc, SCRATCH, OUT, SECRET */
    const char *expect;   /* a part of the one-line message on stderr */
} attempt;

static const attempt attempts[] = {
    /* reads outside */
    {"io.open an outside file", "io.open(SECRET)", "cannot read"},
    {"io.open /etc/passwd", "io.open('/etc/passwd')", "cannot read '/etc/passwd'"},
    {"io.lines", "for l in io.lines(SECRET) do print(l) end", "cannot read"},
    {"io.input", "io.input(SECRET)", "cannot read"},
    {"dofile", "dofile(SECRET)", "cannot read"},
    {"loadfile", "loadfile(SECRET)", "cannot read"},
    {"require through package.path", "package.path = SCRATCH .. '/?.txt'; require 'secret'",
     "outside the sandbox"},
    {"relative '..' read", "io.open(OUT .. '/../secret.txt')", "cannot read"},
    {"read through a link in the script's folder", "io.open(SCRATCH .. '/scripts/peek')", "cannot read"},
    {"read through a link in the output folder", "io.open(OUT .. '/link')", "cannot read"},
    {"clothcheck.read_obj outside", "cc.read_obj(SECRET)", "cannot read"},
    {"a table posing as a path", "io.open(setmetatable({}, {__tostring = function() return SECRET end}))",
     "bad argument"},
    /* writes outside */
    {"io.open for writing", "io.open(SCRATCH .. '/planted', 'w')", "cannot write"},
    {"io.open for appending", "io.open(SECRET, 'a')", "cannot write"},
    {"io.open r+", "io.open(SECRET, 'r+')", "cannot write"},
    {"io.output", "io.output(SCRATCH .. '/planted')", "cannot write"},
    {"os.remove", "os.remove(SECRET)", "cannot write"},
    {"os.rename out of the sandbox", "os.rename(SECRET, OUT .. '/stolen')", "cannot write"},
    {"os.rename into the outside", "io.open(OUT .. '/f', 'w'):close(); os.rename(OUT .. '/f', SCRATCH .. '/planted')",
     "cannot write"},
    {"write through a link to a file", "io.open(OUT .. '/link', 'w')", "cannot write"},
    {"write through a link to a folder", "io.open(OUT .. '/dirlink/planted', 'w')", "cannot write"},
    {"write through a dangling link", "io.open(OUT .. '/dangle', 'w')", "cannot write"},
    {"'..' out of the output folder", "io.open(OUT .. '/a/../../planted', 'w')", "cannot write"},
    {"'..' below a missing folder", "io.open(OUT .. '/nope/../../planted', 'w')", "cannot write"},
    {"package.loaded.os.remove", "package.loaded.os.remove(SECRET)", "cannot write"},
    {"clothcheck.mkdir", "cc.mkdir(SCRATCH .. '/planted')", "cannot write"},
    {"clothcheck.write_csv", "cc.write_csv(SCRATCH .. '/planted', {'t'}, {{1}})", "cannot write"},
    {"clothcheck.plot dir", "cc.plot{dir = SCRATCH, name = 'planted', series = {{x = {0, 1}, y = {0, 1}}}}",
     "cannot write"},
    {"clothcheck.plot name with '/'", "cc.plot{dir = OUT, name = '../planted', series = {{x = {0, 1}, y = {0, 1}}}}",
     "plot needs a name"},
    {"a plot key carrying a gnuplot command",
     "cc.plot{dir = OUT, name = 'k', key = 'top\\nsystem(\"touch ' .. SCRATCH .. '/planted\")', "
     "series = {{x = {0, 1}, y = {0, 1}}}}", "plot field 'key' may hold only"},
    {"a plot line style carrying a gnuplot command",
     "cc.plot{dir = OUT, name = 'w', series = {{x = {0, 1}, y = {0, 1}, with = 'lines; system(\"touch ' .. SCRATCH .. '/planted\")'}}}",
     "may hold only"},
    {"mesh:write_obj", "cc.grid(2, 2):write_obj(SCRATCH .. '/planted')", "cannot write"},
    {"sim:write_obj", "local m = cc.grid(2, 2); cc.sim(m):write_obj(SCRATCH .. '/planted')",
     "cannot write"},
    {"audit:plots", "cc.audit(cc.condition('spring', 'linear'), {samples = 2}):plots(SCRATCH .. '/planted')",
     "cannot write"},
    {"a write from a coroutine", "coroutine.wrap(function() io.open(SCRATCH .. '/planted', 'w') end)()",
     "cannot write"},
    /* code */
    {"load bytecode", "assert(load(string.dump(function() end)))", "binary chunk"},
    {"load bytecode, mode 'b'", "assert(load(string.dump(function() end), 'x', 'b'))", "binary chunk"},
    {"loadfile bytecode",
     "local f = io.open(OUT .. '/b.luac', 'wb'); f:write(string.dump(function() end)); f:close(); "
     "assert(loadfile(OUT .. '/b.luac'))", "binary chunk"},
    {"dofile bytecode",
     "local f = io.open(OUT .. '/b.luac', 'wb'); f:write(string.dump(function() end)); f:close(); "
     "dofile(OUT .. '/b.luac')", "binary chunk"},
    {"require bytecode",
     "local f = io.open(OUT .. '/m.lua', 'wb'); f:write(string.dump(function() end)); f:close(); "
     "package.path = OUT .. '/?.lua'; require 'm'", "binary chunk"},
    /* libraries */
    {"debug library", "debug.getregistry()", "global 'debug'"},
    {"require 'debug'", "require 'debug'", "module 'debug' not found"},
    {"os.execute", "os.execute('touch ' .. SCRATCH .. '/planted')", "field 'execute'"},
    {"io.popen", "io.popen('cat ' .. SECRET)", "field 'popen'"},
    {"package.loadlib", "package.loadlib('libc.so.6', '*')", "field 'loadlib'"},
    {"C modules through package.cpath",
     "package.cpath = '/usr/lib/x86_64-linux-gnu/lua/5.4/?.so;/usr/local/lib/lua/5.4/?.so'; require 'lfs'",
     "module 'lfs' not found"},
    {"os.getenv", "print(os.getenv('HOME'))", "field 'getenv'"},
    {"os.tmpname", "os.tmpname()", "field 'tmpname'"},
    {"package.searchpath", "package.searchpath('secret', SCRATCH .. '/?.txt')", "field 'searchpath'"},
    {NULL, NULL, NULL}};

/* the script at path: a prelude naming the scratch paths, then body */
static void write_script(const char *path, const char *body)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "local cc = require 'clothcheck'\nlocal SCRATCH, OUT, SECRET = '%s', '%s/out', '%s/secret.txt'\n%s\n",
            scratch, scratch, scratch, body);
    fclose(f);
}

static void layout(void)
{
    char cmd[512];
    strcpy(scratch, "/tmp/cc_sandboxXXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(scratch));
    snprintf(cmd, sizeof cmd,
             "cd %s && mkdir scripts out && printf '" SECRET_TEXT "' > secret.txt && ln -s ../secret.txt scripts/peek"
             " && ln -s ../secret.txt out/link && ln -s .. out/dirlink && ln -s ../planted out/dangle",
             scratch);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
}

/* 1 if the scratch folder holds exactly scripts, out and secret.txt, the secret unchanged */
static int untouched(void)
{
    char path[128];
    int n = 0, other = 0;
    DIR *d = opendir(scratch);
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        n++;
        other += strcmp(e->d_name, "scripts") && strcmp(e->d_name, "out") && strcmp(e->d_name, "secret.txt");
    }
    closedir(d);
    snprintf(path, sizeof path, "%s/secret.txt", scratch);
    char *s = cc_test_read_file(path);
    int same = s && !strcmp(s, SECRET_TEXT);
    free(s);
    return n == 3 && !other && same;
}

static int run_script(const char *options, const char *body)
{
    char path[128], args[512];
    snprintf(path, sizeof path, "%s/scripts/s.lua", scratch);
    write_script(path, body);
    snprintf(args, sizeof args, "run --out %s/out %s %s", scratch, options, path);
    return cc_test_run_cli(args, out, sizeof out, err, sizeof err);
}

/* every escape attempt is refused with its message, and nothing outside changes */
static void test_escapes(void)
{
    layout();
    int n = 0;
    for (const attempt *a = attempts; a->name; a++, n++) {
        int rc = run_script("", a->body);
        int ok = rc == 2 && strstr(err, a->expect) && cc_test_count_lines(err) == 1 && strstr(err, "s.lua:") &&
                 untouched();
        if (!ok) fprintf(stderr, "\nescape '%s': exit %d, stderr: %s", a->name, rc, err);
        CU_ASSERT(ok);
    }
    CU_ASSERT(n >= 40);
}

/* titles and labels are text: quotes, new lines and gnuplot commands in them are drawn, never
 * run (the .gp script quotes them), and nothing outside changes */
static void test_plot_text(void)
{
    layout();
    const char *evil = "'x\\\"\\n system(\\\"touch ' .. SCRATCH .. '/planted\\\") #\\'; system(\\'touch ' .. SCRATCH .. '/planted\\')'";
    char body[1024];
    snprintf(body, sizeof body,
             "local t = %s\n"
             "local ok = cc.plot{dir = OUT, name = 't', title = t, xlabel = t, ylabel = t,\n"
             "                   series = {{title = t, x = {0, 1}, y = {0, 1}}}}\n"
             "assert(ok ~= nil)\n", evil);
    CU_ASSERT_EQUAL(run_script("", body), 0);
    if (strlen(err)) fprintf(stderr, "%s", err);
    char gp[128];
    snprintf(gp, sizeof gp, "%s/out/t.gp", scratch);
    char *text = cc_test_read_file(gp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "system("));   /* the text is there, as a quoted string */
    free(text);
    CU_ASSERT(untouched());
}

/* the same reads and writes inside the sandbox work, and --unsafe trusts the script */
static void test_allowed(void)
{
    layout();
    CU_ASSERT_EQUAL(run_script("", "assert(cc.outdir() == OUT)\n"
                                   "assert(cc.mkdir(OUT .. '/a')); local f = assert(io.open(OUT .. '/a/../x.txt', 'w')); f:write('x'); f:close()\n"
                                   "assert(io.open(OUT .. '/x.txt'):read('a') == 'x')\n"
                                   "assert(os.rename(OUT .. '/x.txt', OUT .. '/y.txt')); assert(os.remove(OUT .. '/y.txt'))\n"
                                   "assert(cc.write_csv(OUT .. '/d/e.csv', {'t'}, {{1}}) == nil)   -- no folder d\n"
                                   "assert(cc.mkdir(OUT .. '/d')); assert(cc.write_csv(OUT .. '/d/e.csv', {'t'}, {{1}}))\n"
                                   "assert(load('return 1 + 1')() == 2)\n"),
                    0);
    if (strlen(err)) fprintf(stderr, "%s", err);
    CU_ASSERT(untouched());
    CU_ASSERT_EQUAL(run_script("--unsafe", "assert(io.open(SECRET):read('a') == 'the secret\\n')\n"
                                           "assert(debug.getinfo(1).currentline == 4)"),
                    0);
    /* a file named on the command line may be read */
    char path[128], args[512];
    snprintf(path, sizeof path, "%s/scripts/s.lua", scratch);
    write_script(path, "assert(io.open(arg[1]):read('a') == 'the secret\\n')");
    snprintf(args, sizeof args, "run --out %s/out %s %s/secret.txt", scratch, path, scratch);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
}

/* the CPU and memory limits end a script with one line naming the limit, exit 2, and what
 * it wrote before is complete */
static void test_limits(void)
{
    layout();
    CU_ASSERT_EQUAL(run_script("--cpu-limit 1", "assert(cc.write_csv(OUT .. '/before.csv', {'t'}, {{1}, {2}}))\n"
                                                "while true do end"),
                    2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "CPU limit of 1 s reached (--cpu-limit)"));
    CU_ASSERT_EQUAL(cc_test_count_lines(err), 1);
    char path[128];
    snprintf(path, sizeof path, "%s/out/before.csv", scratch);
    char *csv = cc_test_read_file(path);
    CU_ASSERT(csv && !strcmp(csv, "t\n1\n2\n"));
    free(csv);
    CU_ASSERT_EQUAL(run_script("--cpu-limit 1", "while true do pcall(function() while true do end end) end"), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "CPU limit of 1 s reached"));
    CU_ASSERT_EQUAL(run_script("--cpu-limit 1", "coroutine.wrap(function() while true do end end)()"), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "CPU limit of 1 s reached"));
    CU_ASSERT_EQUAL(run_script("--memory-limit 50", "local t = {}\nfor i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end"), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "memory limit of 50 MB reached (--memory-limit)"));
    CU_ASSERT_EQUAL(run_script("--memory-limit 50", "local s = ('x'):rep(1e9)"), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "memory limit of 50 MB reached"));
    CU_ASSERT(untouched());
    /* bad limits and an output folder that cannot be written are refused before the script runs */
    CU_ASSERT_EQUAL(run_script("--cpu-limit -1", "print('ran')"), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "--cpu-limit needs a number"));
    char args[512];
    snprintf(args, sizeof args, "run --out %s/secret.txt/out %s/scripts/s.lua", scratch, scratch);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot write into the output folder"));
    CU_ASSERT_PTR_NULL(strstr(out, "ran"));
    /* a folder that cannot be made even by root (/proc takes no new entries): refused first */
    snprintf(args, sizeof args, "run --out /proc/clothcheck-out %s/scripts/s.lua", scratch);
    CU_ASSERT_EQUAL(cc_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot write into the output folder '/proc/clothcheck-out'"));
    CU_ASSERT_PTR_NULL(strstr(out, "ran"));
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"escape attempts are refused", test_escapes},
        {"plot titles are text, never commands", test_plot_text},
        {"what the sandbox allows", test_allowed},
        {"CPU and memory limits", test_limits},
        {NULL, NULL}};
    return cc_test_main("sandbox", tests);
}
