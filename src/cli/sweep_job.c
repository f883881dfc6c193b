/* Worker threads over a sweep's (point, seed) runs; shard arithmetic. */
#include "sweep_job.h"

#include "stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void show_progress(SweepJob *j)
{
    int64_t total = j->end - j->first;
    int64_t width = 40, fill = total ? j->done * width / total : width;
    fprintf(stderr, "\rsweep [%.*s%*s] %" PRId64 "/%" PRId64 " runs", (int)fill,
            "########################################", (int)(width - fill), "", j->done, total);
    if (j->done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

static void *worker(void *arg)
{
    SweepJob *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        int64_t item = j->first + j->next++;
        bool stop = j->failed;
        pthread_mutex_unlock(&j->mu);
        if (stop || item >= j->end)
            return NULL;
        int p = (int)(item / j->runs), r = (int)(item % j->runs);
        EngineConfig cfg;
        race_opts_engine_config(j->o, &cfg);
        if (j->link12) { /* with N cars or cs: every line out of terminal 1 */
            cfg.link[0] = &j->link12[p];
            race_topo_sweep_line(j->o, &cfg, &j->link12[p]);
        }
        if (j->link21)
            cfg.link[1] = &j->link21[p];
        if (j->params)
            cfg.params = j->params[p];
        cfg.seed = j->o->seed + (uint64_t)r;
        NrError err = {{0}};
        bool ok = experiment_run_scripted(&cfg, &j->o->rec, j->o->script.n ? &j->o->script : NULL,
                                          &j->results[(size_t)item * (size_t)j->nschemes], &err);
        pthread_mutex_lock(&j->mu);
        if (!ok && !j->failed) {
            j->failed = true;
            j->err = err;
        }
        j->done++;
        if (j->progress)
            show_progress(j);
        pthread_mutex_unlock(&j->mu);
    }
}

int sweep_job_run(SweepJob *j, int64_t threads)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t nt = threads > 0 ? threads : (cores > 0 ? cores : 1);
    if (nt > j->end - j->first)
        nt = j->end - j->first;
    pthread_t th[256];
    if (nt > 256) /* more cores than th[] holds */
        nt = 256;
    pthread_mutex_init(&j->mu, NULL);
    int started = 0;
    for (int t = 0; t < nt; t++)
        if (pthread_create(&th[t], NULL, worker, j) == 0)
            started++;
    if (started == 0)
        worker(j);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    pthread_mutex_destroy(&j->mu);
    return j->failed ? cli_fail("sweep", "%s", j->err.msg) : CLI_OK;
}

const RunResult *sweep_job_result(const SweepJob *j, int p, int r, int k)
{
    return &j->results[((size_t)p * (size_t)j->runs + (size_t)r) * (size_t)j->nschemes + (size_t)k];
}

double sweep_seed_mean(const SweepJob *j, int p, int k, bool fairness, double *half)
{
    double v[1024], mean;
    int n = j->runs < 1024 ? j->runs : 1024;
    for (int r = 0; r < n; r++) {
        const RunResult *x = sweep_job_result(j, p, r, k);
        /* fairness: mean d1 - d2, or with N cars / cs the fairness spread */
        v[r] = !fairness ? 100.0 * x->inconsistency_rate : race_topo_wide(j->o) ? x->spread : x->mean_d1_minus_d2;
    }
    stats_mean_ci95(v, n, 1, &mean, half);
    return mean;
}

int sweep_load_and_check(RaceOpts *o, const SweepCommon *c)
{
    const char *cmd = "sweep";
    int rc = race_opts_load(o, cmd);
    if (rc == CLI_OK)
        rc = race_topo_resolve(o, cmd);
    if (rc == CLI_OK && c->out)
        rc = race_opts_check_out(o, cmd, "--out", c->out);
    if (rc == CLI_OK && c->plot)
        rc = race_opts_check_out(o, cmd, "--plot", c->plot);
    if (rc == CLI_OK)
        rc = cli_out_distinct(cmd, "--out", c->out, "--plot", c->plot);
    if (rc == CLI_OK && c->plot)
        rc = cli_plot_check(cmd, c->plot);
    return rc;
}

