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

/* read what is there into buf; 1 data, 0 nothing now, -1 end of output, -2 too long */
static int take(cc_proc *p)
{
    for (;;) {
        if (p->cap - p->len < 65536) {
            size_t cap = p->cap ? 2 * p->cap : 1u << 20;
            char *b = realloc(p->buf, cap + 1);
            if (!b) return -2;
            p->buf = b, p->cap = cap;
        }
        ssize_t r = read(p->out, p->buf + p->len, p->cap - p->len);
        if (r > 0) {
            p->len += (size_t)r;
            if (p->len > p->max_line && !memchr(p->buf, '\n', p->len)) return -2;
            continue;
        }
        if (r == 0) return -1;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK ? 1 : -1;
    }
}

int cc_proc_exchange(cc_proc *p, const char *line, size_t n, double timeout, char **out, char *err)
{
    const char *what = "the program";
    if (p->lent) {   /* the line lent out last time is done with: the buffer holds what followed it */
        if (p->rest_len) memcpy(p->buf, p->rest, p->rest_len);
        p->len = p->rest_len, p->lent = 0;
    }
    /* anything written before this request, a whole line or the start of one (a second line
     * still on its way through the pipe), is output nobody asked for */
    struct pollfd early = {p->out, POLLIN, 0};
    if (p->out >= 0 && poll(&early, 1, 0) > 0 && (early.revents & POLLIN)) (void)take(p);
    if (p->len) return snprintf(err, CC_ERRLEN, "%s wrote more than one line for one request", what), -1;
    char *nl;
    size_t sent = 0, seen = 0;   /* bytes of buf already searched for a newline */
    int eof = 0;
    double until = now() + timeout;
    while (p->in >= 0 || p->out >= 0) {
        nl = p->len > seen ? memchr(p->buf + seen, '\n', p->len - seen) : NULL;
        if (!nl) seen = p->len;
        if (nl && sent == n) break;
        if (eof) {
            if (nl) break;
            return ended_early(p, what, err);
        }
        struct pollfd fds[2] = {{p->out, POLLIN, 0}, {sent < n ? p->in : -1, POLLOUT, 0}};
        double left = until - now();
        if (left <= 0 && p->len == 0)
            return snprintf(err, CC_ERRLEN, "%s sent no answer within %g s, not one byte of it: if it wrote one, it "
                            "is still in its output buffer; flush stdout after every line (Python: print(..., flush=True) "
                            "or sys.stdout.flush(); C: fflush(stdout); C++: std::endl or std::flush)", what, timeout), -1;
        if (left <= 0)
            return snprintf(err, CC_ERRLEN, "%s sent %zu bytes within %g s but no newline: end each answer with '\\n' "
                            "and flush stdout after it (Python: print(..., flush=True); C: fflush(stdout); C++: std::endl)",
                            what, p->len, timeout), -1;
        int r = poll(fds, 2, (int)(left * 1000) + 1);
        if (r < 0 && errno != EINTR) return snprintf(err, CC_ERRLEN, "poll: %s", strerror(errno)), -1;
        if (r <= 0) continue;
        if (fds[1].revents & (POLLOUT | POLLERR | POLLHUP)) {
            ssize_t w = write(p->in, line + sent, n - sent);
            if (w > 0) sent += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR) {
                /* it stopped reading: whatever it wrote may still explain why */
                sent = n;
                eof = take(p) == -1;
                if (!eof && !(p->len && memchr(p->buf, '\n', p->len))) {
                    if (wait_end(p, 1.0)) eof = 1;
                    else return snprintf(err, CC_ERRLEN, "%s stopped reading its input", what), -1;
                }
            }
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            int t = take(p);
            if (t == -2)
                return snprintf(err, CC_ERRLEN, "%s wrote a line longer than %zu bytes", what, p->max_line), -1;
            if (t == -1) eof = 1;
        }
    }
    nl = memchr(p->buf, '\n', p->len);
    if (!nl) return ended_early(p, what, err);
    *nl = '\0';
    size_t used = (size_t)(nl - p->buf) + 1;
    /* lend the buffer out as the line (no copy of a long answer), and keep what follows it,
     * usually nothing, until the next exchange */
    size_t rest = p->len - used;
    if (rest > p->rest_cap) {
        char *b = realloc(p->rest, rest);
        if (!b) return snprintf(err, CC_ERRLEN, "out of memory"), -1;
        p->rest = b, p->rest_cap = rest;
    }
    if (rest) memcpy(p->rest, p->buf + used, rest);
    p->rest_len = rest, p->len = 0, p->lent = 1;
    *out = p->buf;
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
    free(p->rest);
    p->buf = p->rest = NULL;
    p->len = p->cap = p->rest_len = p->rest_cap = 0;
    p->lent = 0;
}
