/* A program spoken to in lines: started once with its stdin and stdout on pipes (its stderr
 * stays the caller's), sent one line at a time, its answer read one line at a time, each
 * exchange under a time limit, so that a program that hangs, dies or floods never stalls the
 * caller. POSIX only.
 */
#ifndef CC_PROC_H
#define CC_PROC_H

#include "io/error.h"

#include <stddef.h>
#include <sys/types.h>

typedef struct cc_proc {
    pid_t pid;            /* the program, or 0 once it has been waited for */
    int in, out;          /* its stdin (we write) and stdout (we read); -1 when closed */
    char *buf;            /* what it wrote: buf[used..len) is not yet consumed */
    size_t used, len, cap;
    size_t max_line;      /* longest line accepted (bytes) */
    size_t line;          /* bytes of the answer being read consumed so far */
    size_t nl;            /* where its newline is in buf, once `ended` */
    int ended;            /* 1 once the answer's newline has come */
    int eof;              /* 1 once its output has ended */
    double timeout, until;   /* the exchange's limit (seconds) and its deadline */
    int status;           /* its wait status once it ended (valid when pid == 0) */
} cc_proc;

/* Split cmd into words (blanks separate; '...' and "..." quote, backslash escapes one
 * character; no shell) into argv (at most max - 1 words, NULL-terminated) inside buf (size
 * n); the count, or -1 with a reason in err. */
int cc_proc_split(const char *cmd, char **argv, int max, char *buf, size_t n, char *err);

/* start argv[0] (looked up in PATH) with argv; 0, or -1 with a reason in err (the program
 * could not be started: not found, not executable) */
int cc_proc_start(cc_proc *p, char *const argv[], char *err);

/* Write line (n bytes, its newline included) to the program and read its answer line into
 * *line (NUL-terminated, without the newline; valid until the next call), within timeout
 * seconds for both. While writing, whatever the program writes is kept, so one that answers
 * early cannot block it. 0 on success; otherwise -1 and in err what happened: the program
 * "exited with status N" or "was killed by signal N (SIGSEGV)" (before answering), "closed
 * its output", "sent no answer within S s", "wrote a line longer than N bytes", or wrote
 * output before the request ("more than one line for one request"). */
int cc_proc_exchange(cc_proc *p, const char *line, size_t n, double timeout, char **out, char *err);

/* The same exchange with its answer read in pieces, for an answer too long to hold (a
 * cc_jread_source, jread.h): cc_proc_send writes the request (0 or -1 as above), then each
 * cc_proc_read drops the first `done` bytes of the last window and sets *s, *n to the rest of
 * the answer received so far, waiting for more: 1 more came, 0 the answer's newline has come
 * (the window is the whole rest of its line, the newline left out), -1 as above. The next
 * request may be sent once cc_proc_read has returned 0. */
int cc_proc_send(cc_proc *p, const char *line, size_t n, double timeout, char *err);
int cc_proc_read(cc_proc *p, size_t done, const char **s, size_t *n, char *err);

/* 1 if the program has ended (reaping it), else 0 */
int cc_proc_ended(cc_proc *p);
/* "exited with status 3", "was killed by signal 11 (SIGSEGV)" for an ended program */
void cc_proc_describe_end(const cc_proc *p, char *buf, int n);

/* close its stdin, give it grace seconds to exit, then kill it; frees what p holds */
void cc_proc_close(cc_proc *p, double grace);

#endif
