/* A program spoken to in lines (see proc.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "io/proc.h"

#define DEFAULT_MAX_LINE (256u << 20)   /* 256 MB: a batch of 256 hinges with Hessians is ~1 MB */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int cc_proc_split(const char *cmd, char **argv, int max, char *buf, size_t n, char *err)
{
    int argc = 0;
    size_t o = 0;
    const char *s = cmd;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n') s++;
        if (!*s) break;
        if (argc >= max - 1) return snprintf(err, CC_ERRLEN, "more than %d words", max - 1), -1;
        argv[argc++] = buf + o;
        char quote = 0;
        for (; *s && (quote || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
            if (!quote && (*s == '\'' || *s == '"')) {
                quote = *s;
                continue;
            }
            if (quote && *s == quote) {
                quote = 0;
                continue;
            }
            if (*s == '\\' && quote != '\'' && s[1]) s++;
            if (o + 1 >= n) return snprintf(err, CC_ERRLEN, "the command is too long"), -1;
            buf[o++] = *s;
        }
        if (quote) return snprintf(err, CC_ERRLEN, "a %c quote is not closed", quote), -1;
        if (o + 1 >= n) return snprintf(err, CC_ERRLEN, "the command is too long"), -1;
        buf[o++] = '\0';
    }
    argv[argc] = NULL;
    if (!argc) return snprintf(err, CC_ERRLEN, "the command is empty"), -1;
    return argc;
}

int cc_proc_start(cc_proc *p, char *const argv[], char *err)
{
    int in[2], out[2], st[2];
    memset(p, 0, sizeof *p);
    p->in = p->out = -1;
    p->max_line = DEFAULT_MAX_LINE;
    if (pipe2(in, O_CLOEXEC) < 0) return snprintf(err, CC_ERRLEN, "pipe: %s", strerror(errno)), -1;
    if (pipe2(out, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0) {
        close(in[0]), close(in[1]);
        return snprintf(err, CC_ERRLEN, "pipe: %s", strerror(errno)), -1;
    }
#ifdef F_SETPIPE_SZ
    /* a megabyte in flight each way (what Linux allows anyone), not 64 KB: a long answer then
     * crosses in a sixteenth of the reads and wake-ups; where refused, the pipes stay as they are */
    (void)fcntl(out[1], F_SETPIPE_SZ, 1 << 20), (void)fcntl(in[1], F_SETPIPE_SZ, 1 << 20);
#endif
    signal(SIGPIPE, SIG_IGN);   /* a program that stops reading is an error to report, not a death */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(st[0]), close(st[1]);
        return snprintf(err, CC_ERRLEN, "fork: %s", strerror(errno)), -1;
    }
    if (pid == 0) {   /* the child: stdin and stdout on the pipes, stderr as it was */
        signal(SIGPIPE, SIG_DFL);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0) _exit(127);
        execvp(argv[0], argv);
        int e = errno;
        if (write(st[1], &e, sizeof e) < 0) _exit(127);
        _exit(127);
    }
    close(in[0]), close(out[1]), close(st[1]);
    int e = 0;
    ssize_t got;
    while ((got = read(st[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(st[0]);
    if (got == (ssize_t)sizeof e) {   /* exec failed */
        close(in[1]), close(out[0]);
        waitpid(pid, NULL, 0);
        return snprintf(err, CC_ERRLEN, "cannot start '%s': %s", argv[0], strerror(e)), -1;
    }
    p->pid = pid;
    p->in = in[1];
    p->out = out[0];
    fcntl(p->in, F_SETFL, fcntl(p->in, F_GETFL) | O_NONBLOCK);
    fcntl(p->out, F_SETFL, fcntl(p->out, F_GETFL) | O_NONBLOCK);
    return 0;
}

int cc_proc_ended(cc_proc *p)
{
    if (!p->pid) return 1;
    int st;
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == p->pid) {
        p->status = st;
        p->pid = 0;
        return 1;
    }
    return 0;
}

void cc_proc_describe_end(const cc_proc *p, char *buf, int n)
{
    if (WIFSIGNALED(p->status)) {
        int sig = WTERMSIG(p->status);
        const char *name = sigabbrev_np(sig);
        snprintf(buf, (size_t)n, "was killed by signal %d (SIG%s)", sig, name ? name : "?");
    } else {
        snprintf(buf, (size_t)n, "exited with status %d", WEXITSTATUS(p->status));
    }
}

/* wait up to `secs` for the program to end; 1 if it did */
static int wait_end(cc_proc *p, double secs)
{
    double until = now() + secs;
    while (!cc_proc_ended(p)) {
        if (now() >= until) return 0;
        struct timespec t = {0, 2000000};
        nanosleep(&t, NULL);
    }
    return 1;
}

/* the output ended (or the program stopped reading) before a whole answer: why, into err */
static int ended_early(cc_proc *p, const char *what, char *err)
{
    char how[96];
    if (wait_end(p, 1.0)) {
        cc_proc_describe_end(p, how, sizeof how);
        snprintf(err, CC_ERRLEN, "%s %s", what, how);
    } else {
        snprintf(err, CC_ERRLEN, "%s closed its output", what);
    }
    return -1;
}

/* Read what is there into buf, up to `upto` bytes not yet consumed, noting the answer's
 * newline: 1 data or nothing now, -1 end of output, -2 a line too long (or no memory for it). */
static int take(cc_proc *p, size_t upto)
{
    if (p->used && p->used == p->len) p->used = p->len = 0;
    while (p->len - p->used < upto) {
        if (p->cap - p->len < 65536 && p->used) {   /* room first from what was consumed */
            memmove(p->buf, p->buf + p->used, p->len - p->used);
            p->len -= p->used, p->nl -= p->ended ? p->used : 0, p->used = 0;
        }
        if (p->cap - p->len < 65536) {
            size_t cap = p->cap ? 2 * p->cap : 1u << 20;
            char *b = realloc(p->buf, cap + 1);
            if (!b) return -2;
            p->buf = b, p->cap = cap;
        }
        ssize_t r = read(p->out, p->buf + p->len, p->cap - p->len);
        if (r > 0) {
            char *nl = p->ended ? NULL : memchr(p->buf + p->len, '\n', (size_t)r);
            if (nl) p->ended = 1, p->nl = (size_t)(nl - p->buf);
            p->len += (size_t)r;
            if (!p->ended && p->line + (p->len - p->used) > p->max_line) return -2;
            continue;
        }
        if (r == 0) return -1;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK ? 1 : -1;
    }
    return 1;
}

/* the exchange's time is up: what it got, into err */
static int timed_out(const cc_proc *p, char *err)
{
    const char *what = "the program";
    size_t got = p->line + (p->len - p->used);
    if (!got)
        return snprintf(err, CC_ERRLEN, "%s sent no answer within %g s, not one byte of it: if it wrote one, it "
                        "is still in its output buffer; flush stdout after every line (Python: print(..., flush=True) "
                        "or sys.stdout.flush(); C: fflush(stdout); C++: std::endl or std::flush)", what, p->timeout), -1;
    return snprintf(err, CC_ERRLEN, "%s sent %zu bytes within %g s but no newline: end each answer with '\\n' "
                    "and flush stdout after it (Python: print(..., flush=True); C: fflush(stdout); C++: std::endl)",
                    what, got, p->timeout), -1;
}

static int too_long(const cc_proc *p, char *err)
{
    return snprintf(err, CC_ERRLEN, "the program wrote a line longer than %zu bytes", p->max_line), -1;
}

int cc_proc_send(cc_proc *p, const char *line, size_t n, double timeout, char *err)
{
    if (p->ended) p->used = p->nl + 1, p->ended = 0;   /* the last answer is done with */
    /* anything written before this request, a whole line or the start of one (a second line
     * still on its way through the pipe), is output nobody asked for */
    struct pollfd early = {p->out, POLLIN, 0};
    p->line = 0;
    if (p->out >= 0 && poll(&early, 1, 0) > 0 && (early.revents & POLLIN)) (void)take(p, (size_t)-1);
    if (p->len > p->used) return snprintf(err, CC_ERRLEN, "the program wrote more than one line for one request"), -1;
    p->ended = 0, p->timeout = timeout, p->until = now() + timeout;
    for (size_t sent = 0; sent < n && !p->eof;) {
        struct pollfd fds[2] = {{p->out, POLLIN, 0}, {p->in, POLLOUT, 0}};
        double left = p->until - now();
        if (left <= 0) return timed_out(p, err);
        int r = poll(fds, 2, (int)(left * 1000) + 1);
        if (r < 0 && errno != EINTR) return snprintf(err, CC_ERRLEN, "poll: %s", strerror(errno)), -1;
        if (r <= 0) continue;
        if (fds[1].revents & (POLLOUT | POLLERR | POLLHUP)) {
            ssize_t w = write(p->in, line + sent, n - sent);
            if (w > 0) sent += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR) {
                /* it stopped reading: whatever it wrote may still explain why */
                p->eof = take(p, (size_t)-1) == -1;
                if (!p->eof && !p->ended && !wait_end(p, 1.0))
                    return snprintf(err, CC_ERRLEN, "the program stopped reading its input"), -1;
                return 0;
            }
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            int t = take(p, (size_t)-1);
            if (t == -2) return too_long(p, err);
            if (t == -1) p->eof = 1;
        }
    }
    return 0;
}

#define PIECE (1u << 20)   /* bytes read ahead of the reader, at most, for each cc_proc_read */

int cc_proc_read(cc_proc *p, size_t done, const char **s, size_t *n, char *err)
{
    p->used += done, p->line += done;
    for (;;) {
        size_t had = p->len - p->used;
        if (!p->ended && !p->eof) {
            int t = take(p, had + PIECE);
            if (t == -2) return too_long(p, err);
            if (t == -1) p->eof = 1;
        }
        *s = p->buf + p->used;
        if (p->ended) return *n = p->nl - p->used, 0;
        *n = p->len - p->used;
        if (*n > had) return 1;
        if (p->eof) return ended_early(p, "the program", err);
        struct pollfd fd = {p->out, POLLIN, 0};
        double left = p->until - now();
        if (left <= 0) return timed_out(p, err);
        if (poll(&fd, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
            return snprintf(err, CC_ERRLEN, "poll: %s", strerror(errno)), -1;
    }
}

int cc_proc_exchange(cc_proc *p, const char *line, size_t n, double timeout, char **out, char *err)
{
    const char *s;
    size_t k;
    if (cc_proc_send(p, line, n, timeout, err) < 0) return -1;
    int rc;
    while ((rc = cc_proc_read(p, 0, &s, &k, err)) == 1) {}
    if (rc < 0) return -1;
    p->buf[p->nl] = '\0';
    *out = p->buf + p->used;
    return 0;
}

void cc_proc_close(cc_proc *p, double grace)
{
    if (p->in >= 0) close(p->in);
    if (p->out >= 0) close(p->out);
    p->in = p->out = -1;
    if (p->pid && !wait_end(p, grace)) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, &p->status, 0);
        p->pid = 0;
    }
    free(p->buf);
    p->buf = NULL;
    p->used = p->len = p->cap = 0;
    p->ended = 0;
}
