/* Fuzz harness: the recording reader, and read -> save -> read giving back
 * the same samples bit for bit, the same condition lines and the same
 * marks (either form read, today's written); the condition's link matrix,
 * topology and clocks read from the header (raceheader.h), refused with a
 * message or read within range. */
#include "raceheader.h"
#include "recording.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same(const Recording *a, const Recording *b)
{
    if (a->ncars != b->ncars || a->nsamples != b->nsamples || a->period_ms != b->period_ms ||
        strcmp(a->track, b->track) != 0 || strcmp(a->source, b->source) != 0 || a->nmeta != b->nmeta)
        return false;
    for (int i = 0; i < a->nmeta; i++) /* the condition's lines travel too */
        if (strcmp(a->meta[i].key, b->meta[i].key) != 0 || strcmp(a->meta[i].value, b->meta[i].value) != 0)
            return false;
    if (a->nmarks != b->nmarks) /* and the marks, in their order */
        return false;
    for (int i = 0; i < a->nmarks; i++) {
        const RecMark *x = &a->marks[i], *y = &b->marks[i];
        if (x->t_ms != y->t_ms || x->player != y->player || strcmp(x->kind, y->kind) != 0 ||
            strcmp(x->note, y->note) != 0)
            return false;
    }
    size_t n = (size_t)a->ncars * (size_t)a->nsamples;
    return n == 0 || memcmp(a->samples, b->samples, n * sizeof *a->samples) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 1 << 20)
        return 0;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    Recording rec;
    NrError err;
    bool ok = recording_read(&rec, f, "fuzz.csv", &err);
    fclose(f);
    if (!ok) {
        if (err.msg[0] == '\0')
            abort();
        return 0;
    }
    RaceHeader h;
    NrError herr = {{0}};
    if (raceheader_read(&h, &rec, "fuzz.csv", &herr)) {
        for (int t = 0; t < ENGINE_MAX_CARS; t++)
            if ((h.clock_set & (1u << t)) && (t >= rec.ncars || h.clock[t].offset_us > 1000000000LL ||
                                              h.clock[t].offset_us < -1000000000LL))
                abort();
        for (int i = 0; i < LINKMATRIX_NODES; i++)
            for (int j = 0; j < LINKMATRIX_NODES; j++)
                if (h.lines.set[i][j] && (i == j || (i < LINKMATRIX_SERVER && i >= rec.ncars) ||
                                          (j < LINKMATRIX_SERVER && j >= rec.ncars)))
                    abort();
    } else if (strncmp(herr.msg, "fuzz.csv:", 9) != 0) {
        abort(); /* a bad line is named by file and line */
    }
    raceheader_free(&h);
    /* Round trip through the writer (only what it can write: whole,
     * in-range recordings). */
    if (rec.nsamples > 0 && recording_in_range(&rec, "fuzz.csv", &err)) {
        char path[64];
        snprintf(path, sizeof path, "/tmp/netrace-fuzz-%ld.csv", (long)getpid());
        if (recording_save(&rec, path, &err)) {
            Recording back;
            if (!recording_load(&back, path, &err) || !same(&rec, &back))
                abort();
            recording_free(&back);
        }
        remove(path);
    }
    recording_free(&rec);
    return 0;
}
