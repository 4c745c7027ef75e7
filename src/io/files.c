#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "io/files.h"

int cc_outfile_open(cc_outfile *o, const char *path, char *err)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(path);
    o->path = malloc(n + 1);
    o->tmp = malloc(n + 12);
    if (!o->path || !o->tmp) {
        snprintf(err, CC_ERRLEN, "out of memory");
        cc_outfile_abort(o);
        return -1;
    }
    memcpy(o->path, path, n + 1);
    snprintf(o->tmp, n + 12, "%s.tmpXXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd >= 0) {
        mode_t mask = umask(0);   /* mkstemp makes 0600; give the file the usual 0666 & ~umask */
        umask(mask);
        fchmod(fd, 0666 & ~mask);
        o->f = fdopen(fd, "w");
    }
    if (!o->f) {
        snprintf(err, CC_ERRLEN, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd), remove(o->tmp);
        free(o->tmp), o->tmp = NULL;
        cc_outfile_abort(o);
        return -1;
    }
    return 0;
}

int cc_outfile_commit(cc_outfile *o, char *err)
{
    int bad = ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (bad || rename(o->tmp, o->path) != 0) {
        snprintf(err, CC_ERRLEN, "cannot write %s: %s", o->path, strerror(errno ? errno : EIO));
        cc_outfile_abort(o);
        return -1;
    }
    free(o->tmp), o->tmp = NULL;
    cc_outfile_abort(o);
    return 0;
}

void cc_outfile_abort(cc_outfile *o)
{
    if (o->f) fclose(o->f);
    if (o->tmp) remove(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

int cc_mkdir_p(const char *path, char *err)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) return snprintf(err, CC_ERRLEN, "bad directory name"), -1;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        char c = buf[i];
        buf[i] = '\0';
        struct stat st;
        if (stat(buf, &st) != 0) {
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return snprintf(err, CC_ERRLEN, "cannot create directory %.400s: %s", buf, strerror(errno)), -1;
        } else if (!S_ISDIR(st.st_mode)) {
            return snprintf(err, CC_ERRLEN, "%.400s exists and is not a directory", buf), -1;
        }
        buf[i] = c;
    }
    return 0;
}

int cc_write_csv(const char *path, const char *const *names, int ncol, const double *v, int nrow,
                 char *err)
{
    cc_outfile o;
    if (cc_outfile_open(&o, path, err) < 0) return -1;
    for (int c = 0; c < ncol; c++) fprintf(o.f, "%s%s", c ? "," : "", names[c]);
    fputc('\n', o.f);
    for (int r = 0; r < nrow; r++) {
        for (int c = 0; c < ncol; c++) fprintf(o.f, "%s%.17g", c ? "," : "", v[(size_t)r * ncol + c]);
        fputc('\n', o.f);
    }
    return cc_outfile_commit(&o, err);
}

void cc_progress(const char *label, long done, long total)
{
    static struct timespec last;
    static int enabled = -1;
    if (enabled < 0) enabled = isatty(STDERR_FILENO) || getenv("CC_PROGRESS") != NULL;
    if (!enabled || total <= 0) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double dt = (double)(now.tv_sec - last.tv_sec) + 1e-9 * (double)(now.tv_nsec - last.tv_nsec);
    if (done < total && done > 0 && dt < 0.2) return;
    last = now;
    fprintf(stderr, "\r%s: %ld/%ld (%.0f%%)%s", label, done, total, 100.0 * (double)done / (double)total,
            done >= total ? "\n" : "");
    fflush(stderr);
}
