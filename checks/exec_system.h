/* The system protocol (exec_system.c): a program's assembled simulator as a cc_sys_target. */
#ifndef CC_EXEC_SYSTEM_H
#define CC_EXEC_SYSTEM_H

#include "checks/system.h"
#include "io/jsonr.h"
#include "io/proc.h"
#include "sim/sim.h"

typedef struct cc_exec_system {
    cc_proc proc;
    const char *cmd;        /* the command line, for messages */
    const cc_mesh *mesh;    /* the rest mesh sent first */
    double timeout;         /* seconds per request */
    int provides;           /* CC_SYS_* bits its first answer named */
    int requests;           /* requests sent */
    long long received;     /* bytes of the answers to states */
    char last[96];          /* the start of the last line received */
    cc_jdecimals dec;       /* the decimals of every number received */
    int *ti, *tj;           /* a matrix's triplets as they are read, kept from state to state */
    double *tv;
    int cap[3];             /* their room, in entries */
    int most;               /* the most triplets a matrix has had: their room once it has been read */
} cc_exec_system;

/* start cmd and send it the mesh; 0, or -1 with why in err */
int cc_exec_system_start(cc_exec_system *x, const char *cmd, const cc_mesh *m, char *err);

/* the cc_sys_target eval of the program (ctx: its cc_exec_system) */
int cc_exec_system_eval(void *ctx, const double *x, const double *v, double h, int want, cc_sys_eval *out, char *err);

/* the cc_sys_target precision of the program: its numbers' rounding, from their decimals */
double cc_exec_system_precision(void *ctx);

void cc_exec_system_close(cc_exec_system *x);

/* check-system's whole run: start cmd on mesh m (timeout seconds a request), build the terms of
 * the claimed parameters (sys_claims.h; NULL: no claims), check the program under o into r and
 * close it; x keeps what it provided, its decimals and its requests for the report. 0, or -1
 * with a one-line reason in err ("CMD: ..." for the program, "claims: ..." for terms that
 * cannot be built on m). */
int cc_exec_system_check(const char *cmd, const cc_mesh *m, const cc_sim_params *claims, double timeout,
                         cc_sys_opts o, cc_exec_system *x, cc_sys_report *r, char *err);

#endif
