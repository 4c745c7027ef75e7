/* A team of threads for the parts of a computation (sim/algebra/team.h).
 *
 * A run is published in one 64-bit ticket: its generation in the high half, its number of
 * parts and the next part to take in the low half. Every thread, the caller included, takes
 * parts by advancing the ticket (compare-and-swap, so only while the generation is still
 * the run's, and against the run's own number of parts) and counts the parts it finishes;
 * the caller returns when all are finished. It never waits for a worker that has not taken
 * a part: a worker that is slow to wake (asleep, or its CPU busy with other work) finds the
 * parts taken and waits for the next run. Workers that find no run spin, then sleep on the
 * condition variable; the generation is advanced under the mutex, and a worker checks it
 * under the same mutex before it sleeps, so no run is missed.
 */
#include "sim/algebra/team.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define SPINS 20000   /* pause instructions a worker waits for the next run before it sleeps (0.3-1 ms) */

struct cc_team {
    int n;                      /* threads, the caller included */
    int started;                /* workers started (n - 1 unless pthread_create failed) */
    pthread_t th[CC_TEAM_MAX];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    _Atomic uint64_t ticket;    /* generation << 32 | parts << 16 | the next part to take */
    atomic_int done;            /* parts of the current run finished */
    atomic_int quit;            /* set with the last generation: the workers return */
    void (*fn)(void *, int);    /* the current run: written before its ticket */
    void *arg;
};

#define TICKET(g, np, next) ((uint64_t)(g) << 32 | (uint64_t)(np) << 16 | (uint64_t)(next))
#define T_GEN(t) ((uint32_t)((t) >> 32))
#define T_PARTS(t) ((int)(((t) >> 16) & 0xffff))
#define T_NEXT(t) ((int)((t) & 0xffff))

/* one step of a wait loop: a pause, and every 64th step a yield of the CPU, so that a
 * thread waited for on the same CPU (a machine busy with other work) gets to run */
static inline void relax(int step)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
    if (step % 64 == 63) sched_yield();
}

/* takes and runs parts of generation g while there are any left */
static void take_parts(cc_team *t, uint32_t g)
{
    uint64_t cur = atomic_load_explicit(&t->ticket, memory_order_acquire);
    for (;;) {
        if (T_GEN(cur) != g || T_NEXT(cur) >= T_PARTS(cur)) return;
        if (!atomic_compare_exchange_weak_explicit(&t->ticket, &cur, cur + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;   /* cur now holds the ticket as it is */
        t->fn(t->arg, T_NEXT(cur));   /* the run is still g: this part of it is not done */
        atomic_fetch_add_explicit(&t->done, 1, memory_order_release);
        cur = atomic_load_explicit(&t->ticket, memory_order_acquire);
    }
}

/* the generation after `seen`, waiting for it by spinning, then sleeping */
static uint32_t next_run(cc_team *t, uint32_t seen)
{
    for (int s = 0; s < SPINS; s++) {
        uint32_t g = T_GEN(atomic_load_explicit(&t->ticket, memory_order_acquire));
        if (g != seen) return g;
        relax(s);
    }
    pthread_mutex_lock(&t->mu);
    uint32_t g;
    while ((g = T_GEN(atomic_load_explicit(&t->ticket, memory_order_acquire))) == seen)
        pthread_cond_wait(&t->cv, &t->mu);
    pthread_mutex_unlock(&t->mu);
    return g;
}

static void *worker(void *p)
{
    cc_team *t = p;
    sigset_t all;   /* signals for the process (the sandbox's CPU timers) go to the caller's thread */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    uint32_t seen = 0;
    for (;;) {
        seen = next_run(t, seen);
        if (atomic_load_explicit(&t->quit, memory_order_relaxed)) return NULL;
        take_parts(t, seen);
    }
}

int cc_team_cpus(void)
{
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : c > CC_TEAM_MAX ? CC_TEAM_MAX : (int)c;
}

cc_team *cc_team_new(int n)
{
    n = n < 1 ? 1 : n > CC_TEAM_MAX ? CC_TEAM_MAX : n;
    cc_team *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->n = n;
    atomic_init(&t->ticket, 0);
    atomic_init(&t->done, 0);
    atomic_init(&t->quit, 0);
    if (pthread_mutex_init(&t->mu, NULL) != 0) return free(t), NULL;
    if (pthread_cond_init(&t->cv, NULL) != 0) return pthread_mutex_destroy(&t->mu), free(t), NULL;
    for (int w = 1; w < n; w++) {
        if (pthread_create(&t->th[w], NULL, worker, t) != 0) break;
        t->started = w;
    }
    if (t->started < n - 1) return cc_team_free(t), NULL;
    return t;
}

/* the next generation published, of np parts (the first to take: 0): the workers wake for
 * it; returns it */
static uint32_t publish(cc_team *t, int np)
{
    pthread_mutex_lock(&t->mu);
    uint32_t g = T_GEN(atomic_load_explicit(&t->ticket, memory_order_relaxed)) + 1;
    atomic_store_explicit(&t->ticket, TICKET(g, np, 0), memory_order_release);
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    return g;
}

void cc_team_free(cc_team *t)
{
    if (!t) return;
    atomic_store_explicit(&t->quit, 1, memory_order_relaxed);   /* published by the ticket */
    publish(t, 0);
    for (int w = 1; w <= t->started; w++) pthread_join(t->th[w], NULL);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    free(t);
}

int cc_team_size(const cc_team *t)
{
    return t ? t->n : 1;
}

void cc_team_run(cc_team *t, void (*fn)(void *arg, int part), void *arg, int np)
{
    if (!t || t->n == 1 || np <= 1 || np > CC_TEAM_MAXPARTS) {
        for (int p = 0; p < np; p++) fn(arg, p);
        return;
    }
    t->fn = fn, t->arg = arg;
    atomic_store_explicit(&t->done, 0, memory_order_relaxed);
    take_parts(t, publish(t, np));
    for (int s = 0; atomic_load_explicit(&t->done, memory_order_acquire) < np; s++) relax(s);
}
