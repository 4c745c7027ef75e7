/* A team of threads that runs the parts of a computation side by side (the multigrid's
 * level 0, multigrid.h).
 *
 * cc_team_run(t, fn, arg, np) calls fn(arg, p) once for every part p < np, each on
 * whichever thread takes it first (the caller takes parts too, and never waits for a
 * worker that has not taken one), and returns when all have returned. What a part computes
 * must not depend on which thread runs it, nor on what the other parts do at the same
 * time: then the results are the same bit for bit with any number of threads, and a team of
 * one thread is the plain loop over the parts.
 *
 * Between runs a worker spins for a few hundred microseconds (the gaps inside one step of
 * the simulator are shorter: a wake-up from sleep costs tens of microseconds on a virtual
 * machine, and with a tenth of that budget the 66 x 66 bench step took 2.22 ms instead of
 * 1.95), then sleeps on a condition variable until the next run; cc_team_free joins the
 * workers.
 */
#ifndef CC_TEAM_H
#define CC_TEAM_H

#define CC_TEAM_MAX 8             /* threads at most */
#define CC_TEAM_MAXPARTS 65535    /* parts a run shares out at most (more: the caller runs them) */

typedef struct cc_team cc_team;

/* a team of n threads, the caller included (n is clamped to 1 .. CC_TEAM_MAX); NULL if no
 * memory or a thread could not be started, in which case the caller runs alone */
cc_team *cc_team_new(int n);
void cc_team_free(cc_team *t);
/* online CPUs, at least 1 and at most CC_TEAM_MAX */
int cc_team_cpus(void);
/* threads of the team, the caller included (1 for NULL) */
int cc_team_size(const cc_team *t);
/* fn(arg, p) for p = 0 .. np-1, side by side (on the caller alone when np > CC_TEAM_MAXPARTS);
 * returns when every part has returned */
void cc_team_run(cc_team *t, void (*fn)(void *arg, int part), void *arg, int np);

#endif
