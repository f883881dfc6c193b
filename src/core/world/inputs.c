/* Input scripts: parsing, playing and writing `t_ms,player,throttle,brake,
 * steer` (inputs.h). */
#include "inputs.h"
#include "nr_file.h"
#include "nr_part.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int by_player_time(const void *a, const void *b)
{
    const InputLine *x = a, *y = b;
    if (x->player != y->player)
        return x->player < y->player ? -1 : 1;
    return (x->t_ms > y->t_ms) - (x->t_ms < y->t_ms);
}

static bool field_in(const char *tok, double lo, double hi, double *out)
{
    return nr_parse_double(tok, out) && *out >= lo && *out <= hi;
}

/* One data line into *l; false + err naming the field. */
static bool parse_line(char *buf, const char *name, int line, InputLine *l, NrError *err)
{
    char *f[6];
    int nf = 0;
    for (char *p = buf;;) {
        if (nf == 6)
            break;
        f[nf++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    if (nf != 5)
        return nr_error_set(err, "%s:%d: expected 5 fields t_ms,player,throttle,brake,steer, got %s", name, line,
                            nf > 5 ? "more" : "fewer");
    int64_t t, pl;
    if (!nr_parse_int64(f[0], &t) || t < 0 || t > INT32_MAX)
        return nr_error_set(err, "%s:%d: t_ms is '%s', expected a whole number from 0 to %d", name, line, f[0],
                            INT32_MAX);
    if (!nr_parse_int64(f[1], &pl) || pl < 1 || pl > WORLD_MAX_CARS)
        return nr_error_set(err, "%s:%d: player is '%s', expected 1 to %d", name, line, f[1], WORLD_MAX_CARS);
    double th, br, st;
    if (!field_in(f[2], 0, 1, &th))
        return nr_error_set(err, "%s:%d: throttle is '%s', expected a number from 0 to 1", name, line, f[2]);
    if (!field_in(f[3], 0, 1, &br))
        return nr_error_set(err, "%s:%d: brake is '%s', expected a number from 0 to 1", name, line, f[3]);
    if (!field_in(f[4], -1, 1, &st))
        return nr_error_set(err, "%s:%d: steer is '%s', expected a number from -1 to 1", name, line, f[4]);
    *l = (InputLine){(int32_t)t, (int32_t)(pl - 1), {th, br, st}};
    return true;
}

/* l appended to s (*cap lines allocated; doubled from 256, at most 5e7
 * lines). */
static bool append_line(InputScript *s, int *cap, const InputLine *l, const char *name, int line, NrError *err)
{
    if (s->n == *cap) {
        if (*cap >= 50000000)
            return nr_error_set(err, "%s:%d: more than %d lines", name, line, *cap);
        int ncap = *cap ? 2 * *cap : 256;
        InputLine *nl = realloc(s->lines, sizeof *nl * (size_t)ncap);
        if (!nl)
            return nr_error_set(err, "%s: out of memory", name);
        s->lines = nl;
        *cap = ncap;
    }
    s->lines[s->n++] = *l;
    return true;
}

/* The lines by player, then by time: the keys are unique: a player's times
 * strictly increase, checked on reading; and where each player's start. */
static void index_players(InputScript *s)
{
    if (s->n > 1) /* qsort of a NULL array of 0 lines is undefined (found by the fuzzer) */
        qsort(s->lines, (size_t)s->n, sizeof *s->lines, by_player_time);
    int k = 0;
    for (int p = 0; p <= WORLD_MAX_CARS; p++) {
        while (k < s->n && s->lines[k].player < p)
            k++;
        s->first[p] = k;
    }
}

bool inputs_read(InputScript *s, FILE *f, const char *name, NrError *err)
{
    memset(s, 0, sizeof *s);
    char buf[NR_LINE_MAX];
    int cap = 0, line = 0;
    int32_t last_t[WORLD_MAX_CARS];
    for (int p = 0; p < WORLD_MAX_CARS; p++)
        last_t[p] = -1;
    bool ok = true;
    size_t len;
    NrLine lr;
    while (ok && (lr = nr_line_read(f, buf, sizeof buf, &len)) != NR_LINE_EOF) {
        line++;
        if (lr == NR_LINE_LONG) {
            ok = nr_error_set(err, "%s:%d: line longer than %d bytes", name, line, NR_LINE_MAX - 1);
            break;
        }
        if (lr == NR_LINE_NUL || lr == NR_LINE_ERROR) {
            ok = nr_error_set(err, "%s:%d: %s", name, line,
                              lr == NR_LINE_NUL ? "binary data (NUL byte) in a text file" : "read error");
            break;
        }
        bool unterminated = buf[len - 1] != '\n';
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (len == 0 || buf[0] == '#' || (line == 1 && strcmp(buf, INPUTS_COLUMNS) == 0))
            continue;
        InputLine l;
        NrError perr;
        if (!parse_line(buf, name, line, &l, &perr)) {
            /* The last line, without its newline, that does not parse: cut
             * by a killed writer (stdio writes out a full buffer wherever
             * it ends). Keep everything before it. A hand-written last line
             * that lacks only its newline parses and is kept. */
            if (unterminated) {
                s->truncated = true;
                break;
            }
            if (err)
                *err = perr;
            ok = false;
            break;
        }
        if (l.t_ms <= last_t[l.player]) {
            ok = nr_error_set(err, "%s:%d: t_ms %ld of player %d is not after its previous line (%ld)", name,
                              line, (long)l.t_ms, l.player + 1, (long)last_t[l.player]);
            break;
        }
        last_t[l.player] = l.t_ms;
        ok = append_line(s, &cap, &l, name, line, err);
    }
    if (!ok) {
        inputs_free(s);
        return false;
    }
    index_players(s);
    return true;
}

bool inputs_load(InputScript *s, const char *path, NrError *err)
{
    memset(s, 0, sizeof *s);
    FILE *f = nr_file_open(path, "an input script", err);
    if (!f)
        return false;
    bool ok = inputs_read(s, f, path, err);
    fclose(f);
    return ok;
}

void inputs_free(InputScript *s)
{
    if (!s)
        return;
    free(s->lines);
    memset(s, 0, sizeof *s);
}

int32_t inputs_end_ms(const InputScript *s)
{
    int32_t end = -1;
    for (int i = 0; i < s->n; i++)
        if (s->lines[i].t_ms > end)
            end = s->lines[i].t_ms;
    return end;
}

bool inputs_at(const InputScript *s, int player, int32_t t_ms, CarInput *out)
{
    *out = (CarInput){0, 0, 0};
    if (player < 0 || player >= WORLD_MAX_CARS)
        return false;
    int lo = s->first[player], hi = s->first[player + 1];
    if (lo == hi)
        return false;
    /* The last line with t_ms <= t (binary search). */
    int a = lo, b = hi; /* answer in [a - 1, b) */
    while (a < b) {
        int m = a + (b - a) / 2;
        if (s->lines[m].t_ms <= t_ms)
            a = m + 1;
        else
            b = m;
    }
    if (a > lo)
        *out = s->lines[a - 1].in;
    return true;
}

static void script_input(void *self, const World *w, int car, CarInput *out)
{
    inputs_at(self, car, (int32_t)(w->t_us / 1000), out);
}

Controller inputs_controller(const InputScript *s)
{
    return (Controller){(void *)s, script_input};
}

/* ---- writer ---------------------------------------------------------------- */

struct InputsWriter {
    NrPartFile pf; /* PATH.part, renamed into place on close */
    CarInput last[WORLD_MAX_CARS];
    bool have[WORLD_MAX_CARS];
    int32_t flushed_t;
};

InputsWriter *inputs_writer_open(const char *path, NrError *err)
{
    InputsWriter *w = calloc(1, sizeof *w);
    if (!w) {
        nr_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    if (nr_part_open(&w->pf, path, NR_PART_REPLACE) != NR_PART_OK) {
        if (w->pf.status == NR_PART_TOO_LONG)
            nr_error_set(err, "%s: path too long", path);
        else
            nr_error_set(err, "%s: cannot create: %s", w->pf.part,
                         w->pf.status == NR_PART_EXISTS ? "exists (a crashed or running race?); move it away first"
                                                        : nr_part_reason(&w->pf));
        free(w);
        return NULL;
    }
    fprintf(w->pf.f, "%s\n", INPUTS_COLUMNS);
    if (nr_part_flush(&w->pf) != NR_PART_OK) {
        nr_error_set(err, "%s: write error: %s", w->pf.part, nr_part_reason(&w->pf));
        nr_part_abort(&w->pf);
        free(w);
        return NULL;
    }
    return w;
}

bool inputs_writer_add(InputsWriter *w, int32_t t_ms, int player, const CarInput *in, NrError *err)
{
    if (player < 0 || player >= WORLD_MAX_CARS)
        return nr_error_set(err, "%s: player %d out of range", w->pf.part, player + 1);
    CarInput c = car_input_clamp(*in);
    if (w->have[player] && memcmp(&c, &w->last[player], sizeof c) == 0)
        return true;
    char th[48], br[48], st[48];
    nr_format_double(th, sizeof th, c.throttle);
    nr_format_double(br, sizeof br, c.brake);
    nr_format_double(st, sizeof st, c.steer);
    if (fprintf(w->pf.f, "%ld,%d,%s,%s,%s\n", (long)t_ms, player + 1, th, br, st) < 0)
        return nr_error_set(err, "%s: write error: %s", w->pf.part, strerror(errno));
    w->last[player] = c;
    w->have[player] = true;
    if (t_ms - w->flushed_t >= 1000) { /* at most a second lost to a crash */
        if (nr_part_flush(&w->pf) != NR_PART_OK)
            return nr_error_set(err, "%s: write error: %s", w->pf.part, nr_part_reason(&w->pf));
        w->flushed_t = t_ms;
    }
    return true;
}

bool inputs_writer_close(InputsWriter *w, NrError *err)
{
    if (!w)
        return true;
    bool ok = true;
    NrPartFile *pf = &w->pf;
    if (nr_part_close(pf) == NR_PART_WRITE)
        ok = nr_error_set(err, "%s: write error: %s; kept as %s", pf->path, nr_part_reason(pf), pf->part);
    else if (pf->status != NR_PART_OK)
        ok = nr_error_set(err, "%s: cannot rename %s into place: %s", pf->path, pf->part, nr_part_reason(pf));
    free(w);
    return ok;
}
