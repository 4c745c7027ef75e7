/* A team of threads for the parts of a computation (sim/algebra/team.h).
 *
 * A run is published by advancing a generation counter; each worker runs its parts and
 * decrements the count of workers still busy, which the caller, after its own parts, waits
 * on. The counter is advanced under the mutex, and a worker that gives up spinning checks
 * it under the same mutex before it sleeps, so no run is missed.
 */
#include "sim/algebra/team.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define SPINS 20000   /* pause instructions a worker waits for the next run before it sleeps (0.3-1 ms) */

typedef struct {
    struct cc_team *t;
    int w;   /* the worker's thread number, 1 .. n-1 */
} worker_arg;

struct cc_team {
    int n;                      /* threads, the caller included */
    int started;                /* workers started (n - 1 unless pthread_create failed) */
    pthread_t th[CC_TEAM_MAX];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_uint gen;            /* runs published so far */
    atomic_int busy;            /* workers not done with the current run */
    int quit;                   /* set with the last generation: the workers return */
    void (*fn)(void *, int);
    void *arg;
    int np;
    worker_arg wa[CC_TEAM_MAX];
};

/* one step of a wait loop: a pause, and every 64th step a yield of the CPU, so that a
 * thread waited for on the same CPU (a machine busy with other work) gets to run */
static inline void relax(int step)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
    if (step % 64 == 63) sched_yield();
}

/* the generation after `seen`, waiting for it by spinning, then sleeping */
static unsigned next_run(cc_team *t, unsigned seen)
{
    for (int s = 0; s < SPINS; s++) {
        unsigned g = atomic_load_explicit(&t->gen, memory_order_acquire);
        if (g != seen) return g;
        relax(s);
    }
    pthread_mutex_lock(&t->mu);
    unsigned g;
    while ((g = atomic_load_explicit(&t->gen, memory_order_acquire)) == seen) pthread_cond_wait(&t->cv, &t->mu);
    pthread_mutex_unlock(&t->mu);
    return g;
}

static void *worker(void *p)
{
    worker_arg *a = p;
    cc_team *t = a->t;
    unsigned seen = 0;
    for (;;) {
        seen = next_run(t, seen);
        if (t->quit) return NULL;
        for (int part = a->w; part < t->np; part += t->n) t->fn(t->arg, part);
        atomic_fetch_sub_explicit(&t->busy, 1, memory_order_release);
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
    atomic_init(&t->gen, 0);
    atomic_init(&t->busy, 0);
    if (pthread_mutex_init(&t->mu, NULL) != 0) return free(t), NULL;
    if (pthread_cond_init(&t->cv, NULL) != 0) return pthread_mutex_destroy(&t->mu), free(t), NULL;
    for (int w = 1; w < n; w++) {
        t->wa[w] = (worker_arg){t, w};
        if (pthread_create(&t->th[w], NULL, worker, &t->wa[w]) != 0) break;
        t->started = w;
    }
    if (t->started < n - 1) return cc_team_free(t), NULL;
    return t;
}

/* the next generation published: the workers wake for it */
static void publish(cc_team *t)
{
    pthread_mutex_lock(&t->mu);
    atomic_fetch_add_explicit(&t->gen, 1, memory_order_release);
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

void cc_team_free(cc_team *t)
{
    if (!t) return;
    t->quit = 1;
    publish(t);
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
    if (!t || t->n == 1 || np <= 1) {
        for (int p = 0; p < np; p++) fn(arg, p);
        return;
    }
    t->fn = fn, t->arg = arg, t->np = np;
    atomic_store_explicit(&t->busy, t->n - 1, memory_order_relaxed);
    publish(t);
    for (int p = 0; p < np; p += t->n) fn(arg, p);
    for (int s = 0; atomic_load_explicit(&t->busy, memory_order_acquire) > 0; s++) relax(s);
}
