/* The gnuplot driver (see gnuplot.h). POSIX: fork, execvp. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "io/gnuplot.h"

/* buf = dir/name.ext */
int cc_path_join(char *buf, const char *dir, const char *name, const char *ext)
{
    int n = snprintf(buf, CC_PATH_MAX, "%s%s%s%s", dir && *dir ? dir : "", dir && *dir ? "/" : "",
                     name, ext ? ext : "");
    return n < 0 || n >= CC_PATH_MAX ? -1 : 0;
}

/* 1 if name matches [A-Za-z0-9._-]+ */
int cc_gp_name_ok(const char *name)
{
    if (!*name) return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_' || *p == '-'))
            return 0;
    return 1;
}

/* 1 if an executable named `prog` is on PATH */
static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[CC_PATH_MAX];
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if (len > 0 && len + strlen(prog) + 2 < sizeof buf) {
            memcpy(buf, path, len);
            snprintf(buf + len, sizeof buf - len, "/%s", prog);
            if (access(buf, X_OK) == 0) return 1;
        }
        path = colon ? colon + 1 : NULL;
    }
    return 0;
}

/* exit status of `gnuplot -e CMD` run quietly, or -1 */
static int gnuplot_status(const char *cmd)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1), dup2(null, 2);
        execlp("gnuplot", "gnuplot", "-e", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

/* pngcairo or png if `gnuplot -e "set terminal T"` succeeds; probed once */
const char *cc_gp_terminal(void)
{
    static int probed;
    static const char *term;
    if (probed) return term;
    probed = 1;
    if (!on_path("gnuplot")) return term = NULL;
    if (gnuplot_status("set terminal pngcairo") == 0) return term = "pngcairo";
    if (gnuplot_status("set terminal png") == 0) return term = "png";
    return term = NULL;
}

/* open dir/name.dat atomically */
int cc_gp_data_open(cc_outfile *o, const char *dir, const char *name, char *err)
{
    char path[CC_PATH_MAX];
    if (!cc_gp_name_ok(name) || cc_path_join(path, dir, name, ".dat") < 0)
        return snprintf(err, CC_ERRLEN, "bad plot name '%s'", name), -1;
    return cc_outfile_open(o, path, err);
}

/* open dir/name.gp atomically; 0, or -1 with err */
static int script_file(cc_outfile *o, const char *dir, const char *name, char *err)
{
    char path[CC_PATH_MAX];
    if (!cc_gp_name_ok(name) || cc_path_join(path, dir, name, ".gp") < 0)
        return snprintf(err, CC_ERRLEN, "bad plot name '%s'", name), -1;
    return cc_outfile_open(o, path, err);
}

/* open dir/name.gp atomically and write the terminal and output preamble */
int cc_gp_script_open(cc_outfile *o, const char *dir, const char *name, int w, int h,
                      char *err)
{
    if (script_file(o, dir, name, err) < 0) return -1;
    fprintf(o->f,
            "# %s.gp: plots %s.dat into %s.png. Re-make by hand: cd <this directory> && gnuplot %s.gp\n"
            "reset\n"
            "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
            "    set terminal pngcairo size %d,%d font \",9\"\n"
            "} else {\n"
            "    set terminal png size %d,%d\n"
            "}\n"
            "if (!exists(\"cc_output\")) cc_output = \"%s.png\"\n"
            "set output cc_output\n",
            name, name, name, name, w, h, w, h, name);
    return 0;
}

int cc_gp_anim_open(cc_outfile *o, const char *dir, const char *name, int w, int h, int delay,
                    char *err)
{
    if (script_file(o, dir, name, err) < 0) return -1;
    fprintf(o->f,
            "# %s.gp: plots %s.dat into the animation %s.gif, one plot a frame. Re-make by hand:\n"
            "# cd <this directory> && gnuplot %s.gp\n"
            "reset\n"
            "set terminal gif animate delay %d loop 0 optimize size %d,%d font \",9\"\n"
            "if (!exists(\"cc_output\")) cc_output = \"%s.gif\"\n"
            "set output cc_output\n",
            name, name, name, name, delay, w, h, name);
    return 0;
}

/* close the output in the script and commit it */
int cc_gp_script_close(cc_outfile *o, char *err)
{
    fputs("unset output\nundefine cc_output\n", o->f);
    return cc_outfile_commit(o, err);
}

/* the temporary image of script i */
static void part_name(char *buf, size_t n, const char *name, const char *ext, long pid)
{
    snprintf(buf, n, "%s%s.part%ld", name, ext, pid);
}

/* gnuplot in dir over names[i].gp; names[i].png renamed into place on success */
/* once per process, one line on stderr: how to draw the scripts written without gnuplot */
static void note_no_gnuplot(const char *dir, const char *name)
{
    static int said;
    if (said++) return;
    fprintf(stderr, "clothcheck: gnuplot not found: plots are written as NAME.dat and NAME.gp only; "
                    "draw one with `cd %s && gnuplot %s.gp` (Debian: apt-get install gnuplot-nox)\n",
            dir && *dir ? dir : ".", name);
}

int cc_gp_run(const char *dir, const char *const *names, int n) { return cc_gp_run_as(dir, names, n, ".png"); }

int cc_gp_run_as(const char *dir, const char *const *names, int n, const char *ext)
{
    if (n <= 0) return 0;
    if (!cc_gp_terminal()) {
        note_no_gnuplot(dir, names[0]);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (!cc_gp_name_ok(names[i]) || strlen(names[i]) > 180) return errno = EINVAL, -1;
    long me = (long)getpid();
    char **argv = calloc((size_t)(3 * n + 2), sizeof *argv);
    char *buf = malloc((size_t)n * 512);
    if (!argv || !buf) {
        free(argv), free(buf);
        return -1;
    }
    argv[0] = "gnuplot";
    for (int i = 0; i < n; i++) {
        char part[232], *e = buf + i * 512, *g = e + 256;
        part_name(part, sizeof part, names[i], ext, me);
        snprintf(e, 256, "cc_output='%s'", part);
        snprintf(g, 256, "%s.gp", names[i]);
        argv[1 + 3 * i] = "-e", argv[2 + 3 * i] = e, argv[3 + 3 * i] = g;
    }
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        if (null >= 0 && !strcmp(ext, ".gif")) dup2(null, 2);   /* "N frames in animation sequence" */
        if (dir && *dir && chdir(dir) != 0) _exit(127);
        execvp("gnuplot", argv);
        _exit(127);
    }
    int st = 0;
    if (pid > 0) waitpid(pid, &st, 0);
    free(argv), free(buf);
    int made = 0;
    for (int i = 0; i < n; i++) {
        char part[232], pp[CC_PATH_MAX], png[CC_PATH_MAX];
        struct stat sb;
        part_name(part, sizeof part, names[i], ext, me);
        if (cc_path_join(pp, dir, part, NULL) < 0 || cc_path_join(png, dir, names[i], ext) < 0) continue;
        if (pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && stat(pp, &sb) == 0 && sb.st_size > 0 &&
            rename(pp, png) == 0)
            made++;
        else
            remove(pp);
    }
    return made;
}
