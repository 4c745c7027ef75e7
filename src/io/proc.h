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
    char *buf;            /* what it wrote that is not yet returned as a line; once a line is
                             returned, that line (lent: `lent` is 1) */
    size_t len, cap;      /* bytes in buf, and its size */
    size_t max_line;      /* longest line accepted (bytes) */
    int lent;             /* 1 while buf is the line last returned */
    char *rest;           /* while buf is lent: what followed the line, moved back at the next call */
    size_t rest_len, rest_cap;
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
 * its output", "sent no answer within S s", or "wrote a line longer than N bytes". */
int cc_proc_exchange(cc_proc *p, const char *line, size_t n, double timeout, char **out, char *err);

/* 1 if the program has ended (reaping it), else 0 */
int cc_proc_ended(cc_proc *p);
/* "exited with status 3", "was killed by signal 11 (SIGSEGV)" for an ended program */
void cc_proc_describe_end(const cc_proc *p, char *buf, int n);

/* close its stdin, give it grace seconds to exit, then kill it; frees what p holds */
void cc_proc_close(cc_proc *p, double grace);

#endif
