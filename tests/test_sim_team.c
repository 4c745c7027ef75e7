/* Suite: sim/algebra/team.h, the threads that run the multigrid's level 0 in parts.
 *
 * A run calls every part exactly once, whatever the team's size, and returns only when all
 * are done; the simulator's motion does not depend on the number of threads (bit for bit),
 * while the number of parts changes the preconditioner, not the converged solve.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cc_test.h"
#include "mesh/mesh.h"
#include "sim/algebra/multigrid.h"
#include "sim/algebra/team.h"
#include "sim/sim.h"

typedef struct {
    atomic_int calls[64];
    long sum[64];   /* each part's own result, written by whichever thread runs it */
} parts_job;

/* part p: count the call, then a little work of its own */
static void count_part(void *arg, int p)
{
    parts_job *j = arg;
    atomic_fetch_add(&j->calls[p], 1);
    long s = 0;
    for (int k = 0; k < 100 * (p + 1); k++) s += k % (p + 3);
    j->sum[p] = s;
}

/* every part once, for teams of 1..4 threads and 1..64 parts, over many runs */
static void test_every_part_once(void)
{
    for (int n = 1; n <= 4; n++) {
        cc_team *t = cc_team_new(n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        CU_ASSERT_EQUAL(cc_team_size(t), n);
        for (int np = 1; np <= 64; np += 7)
            for (int run = 0; run < 20; run++) {
                parts_job j;
                for (int p = 0; p < 64; p++) atomic_init(&j.calls[p], 0), j.sum[p] = -1;
                cc_team_run(t, count_part, &j, np);
                for (int p = 0; p < 64; p++) {
                    long s = 0;
                    for (int k = 0; k < 100 * (p + 1) && p < np; k++) s += k % (p + 3);
                    CU_ASSERT_EQUAL(atomic_load(&j.calls[p]), p < np);
                    CU_ASSERT_EQUAL(j.sum[p], p < np ? s : -1);
                }
            }
        cc_team_free(t);
    }
    CU_ASSERT_EQUAL(cc_team_size(NULL), 1);
    parts_job j;   /* no team: the caller runs the parts */
    for (int p = 0; p < 64; p++) atomic_init(&j.calls[p], 0);
    cc_team_run(NULL, count_part, &j, 5);
    for (int p = 0; p < 5; p++) CU_ASSERT_EQUAL(atomic_load(&j.calls[p]), 1);
    CU_ASSERT(cc_team_cpus() >= 1 && cc_team_cpus() <= CC_TEAM_MAX);
}

/* a run after the workers have gone to sleep (a pause far longer than their spinning) */
static void test_wake_after_sleep(void)
{
    cc_team *t = cc_team_new(2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (int run = 0; run < 3; run++) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
        parts_job j;
        for (int p = 0; p < 64; p++) atomic_init(&j.calls[p], 0);
        cc_team_run(t, count_part, &j, 2);
        CU_ASSERT_EQUAL(atomic_load(&j.calls[0]) + atomic_load(&j.calls[1]), 2);
    }
    cc_team_free(t);
}

/* the bench scene, smaller (30 x 30: level 0 in two parts of 450 rows), 20 steps with the
 * multigrid on `threads` threads; the final positions in x (3 * 900) */
static void run_cloth(int threads, double *x)
{
    char err[CC_ERRLEN];
    int g = 30;
    cc_mesh *m = cc_mesh_grid(g, g, 1.0, 1.0, 0, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    cc_sim_params p;
    CU_ASSERT_EQUAL_FATAL(cc_sim_preset("pritchard-table1", &p, err), 0);
    CU_ASSERT_EQUAL_FATAL(cc_sim_param_set(&p, "precond", "multigrid", err), 0);
    p.threads = threads;
    cc_sim *s = cc_sim_new(m, &p, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(cc_sim_pin(s, g * (g - 1), NULL, err), 0);
    CU_ASSERT_EQUAL(cc_sim_pin(s, g * g - 1, NULL, err), 0);
    for (int step = 0; step < 20; step++) CU_ASSERT_EQUAL_FATAL(cc_sim_step(s), 0);
    memcpy(x, cc_sim_positions(s), 3 * (size_t)g * g * sizeof *x);
    cc_sim_free(s);
    cc_mesh_free(m);
}

/* the motion is the same bit for bit on 1, 2 and 3 threads */
static void test_threads_same_motion(void)
{
    int n3 = 3 * 900;
    double *x1 = malloc(3 * (size_t)n3 * sizeof *x1), *x2 = x1 + n3, *x3 = x2 + n3;
    CU_ASSERT_PTR_NOT_NULL_FATAL(x1);
    run_cloth(1, x1);
    run_cloth(2, x2);
    run_cloth(3, x3);
    CU_ASSERT_EQUAL(memcmp(x1, x2, (size_t)n3 * sizeof *x1), 0);
    CU_ASSERT_EQUAL(memcmp(x1, x3, (size_t)n3 * sizeof *x1), 0);
    double dz = 0;
    for (int i = 0; i < 900; i++) dz = fmax(dz, -x1[3 * i + 2]);
    printf("\n    30 x 30 cloth, 20 steps on 1, 2 and 3 threads: the same positions (lowest z %.4f m)", -dz);
    CU_ASSERT(dz > 0.05);   /* it fell: the runs did something */
    free(x1);
}

int main(void)
{
    static const cc_test_case tests[] = {{"every part runs once, on any number of threads", test_every_part_once},
                                         {"a run wakes workers that went to sleep", test_wake_after_sleep},
                                         {"the motion does not depend on the threads", test_threads_same_motion},
                                         {NULL, NULL}};
    return cc_test_main("sim_team", tests);
}
