/* Recorded races: the CSV format with a '#' metadata header, reader and
 * crash-safe writer (recording.c, through nr_part.h); what a loaded race
 * says (progress, lead changes, gaps: recording_stats.c).
 *
 * One row per car per sample: t_ms,car,x,y,heading,speed (car is 1-based in
 * the file, 0-based in this API). Every car has a row at every sample time;
 * sample times are 0, period, 2*period, ...
 *
 * Contracts:
 *   recording_load(rec, path, err)  fills rec (zeroed first); false + err
 *                  "FILE:LINE: reason" on malformed input. A file whose last
 *                  line is cut (a killed writer) loads up to the last whole
 *                  sample time and sets rec->truncated.
 *   recording_read(rec, f, name, err)  the same from an open stream (the
 *                  fuzz harness reads from memory); f is not closed.
 *   recording_free(rec)            frees samples; NULL-safe; rec reusable.
 *   recording_at(rec, car, i)      sample i (0-based) of car (0-based).
 *   recording_save(rec, path, err) writes atomically (temp file + rename).
 *   recwriter_open / _append / _close  streaming writer for live races:
 *                  rows go to PATH.part, flushed at least once per second of
 *                  race time; close renames PATH.part to PATH. open
 *                  refuses to overwrite an existing PATH.part (a crashed
 *                  race); append wants cars 0..ncars-1 at t = 0, period, ...
 *   recording_meta_add(rec, key, value)  the race's condition travels as
 *                  extra "# key: value" header lines (scheme, link12,
 *                  link21, delta_ms, tdr_cw, seed, study, pair, race, ...):
 *                  the writers write rec->meta after 'created', the reader
 *                  keeps every other key it meets (up to RECORDING_MAX_META;
 *                  recordings without them still load) with its line
 *                  number. The link matrix, topology and clocks among them
 *                  are read by raceheader.h (race/). False when the key
 *                  is not [a-z0-9_]+ of at most RECORDING_META_KEY - 1
 *                  bytes, is one of the format's own keys, the value is not
 *                  one printable line that fits, or the list is full.
 *   recording_meta_get(rec, key)  the value, or NULL when absent.
 *   Marks (a moment someone marked during the race: a player's
 *                  dissatisfaction in a study, the experimenter's or the
 *                  teacher's key): one format, body lines
 *                  "# mark: T_MS,PLAYER,KIND[,NOTE]" between the rows (docs/
 *                  formats.md "Marks"), which readers before them skip as
 *                  comments (the format's version stays 1). The reader also
 *                  takes the first release's "# mark: T_MS [LABEL]" (the
 *                  lagometer's key): kind "mark", player 1 for the label
 *                  host, 2 for joiner, N for carN, else player 0 with the
 *                  label as its note. rec->marks[0..nmarks) are in time
 *                  order (equal times keep the order they were added in).
 *   recording_mark_add(rec, m)  inserts a mark in time order; false when it
 *                  is not valid (recmark_valid), the list is full
 *                  (RECORDING_MAX_MARKS) or memory runs out.
 *   recmark_valid(m, ncars)  0 <= t_ms <= RECORDING_MARK_MAX_MS, player 0
 *                  (nobody's: the experimenter) or 1..ncars, kind [a-z_]+
 *                  of 1..RECORDING_MARK_KIND - 1 bytes, note printable (may
 *                  be empty, no blank at either end).
 *   recmark_format(buf, n, m)  the mark's line with its newline; its length,
 *                  or -1 when it does not fit.
 *   recmark_parse(m, text, ncars)  the value after "# mark:" (either form)
 *                  into *m; false when it is not a valid mark.
 *   recording_mark_read(rec, value, path, line, err)  the reader's: parse
 *                  (players up to rec->ncars, RECORDING_MAX_CARS before
 *                  the header says) and add; false + "FILE:LINE: mark ..."
 *                  when it is not a mark or the list is full.
 *   recwriter_mark(w, m, err)  writes the mark's line now (after the rows
 *                  written so far) and flushes it: a mark given is kept
 *                  through kill -9. recording_save puts a mark before the rows
 *                  of the first sample time at or after it (a live race
 *                  marks at its physics time, not sampled yet) and keeps
 *                  the marks' order.
 *   recording_progress(rec, track, car, out)  out[i] = car's unwrapped
 *                  progress at sample i, unwrapped sample to sample from its
 *                  grid slot's progress (0 for cars beyond the grid);
 *                  out has rec->nsamples entries. False if car is bad.
 *   recording_lead_changes(rec, track)  number of sign changes of
 *                  progress(car 1) - progress(car 2) over the samples,
 *                  exact ties ignored; -1 with fewer than 2 cars.
 *   recording_gap_stats(rec, a, b, out)  centre-to-centre distance (cw)
 *                  between cars a and b over the samples: median (mean of
 *                  the two middle values for an even count), minimum, and
 *                  the shares of samples closer than 1 and 2 car widths
 *                  (side by side, bodies 1 cw wide touch at 1 cw). False
 *                  when a or b is bad, a == b, there are no samples or
 *                  memory runs out.
 */
#ifndef NR_RECORDING_H
#define NR_RECORDING_H

#include "nr_common.h"

#include <stdio.h>

#define RECORDING_VERSION 1
#define RECORDING_MAX_CARS 8

typedef struct RecSample {
    int32_t t_ms;
    double x, y;    /* car widths */
    double heading; /* radians, 0 = +x, counter-clockwise */
    double speed;   /* car widths per second */
} RecSample;

#define RECORDING_MAX_META 96 /* 56 lines of 8 cars p2p, 8 clocks, the rest */
#define RECORDING_META_KEY 24
#define RECORDING_META_VALUE 256

typedef struct RecMeta {
    char key[RECORDING_META_KEY];
    char value[RECORDING_META_VALUE];
    int line; /* its line in the file read (messages); 0 when added */
} RecMeta;

/* A marked moment of a race: "# mark: T_MS,PLAYER,KIND[,NOTE]". */
#define RECORDING_MAX_MARKS 100000
#define RECORDING_MARK_KIND 24
#define RECORDING_MARK_NOTE 128
#define RECORDING_MARK_MAX_MS INT64_C(1000000000000)
#define RECORDING_MARK_DISSATISFIED "dissatisfied" /* a player's mark key, while racing (studies) */
#define RECORDING_MARK_KEY "mark"                  /* the experimenter's key (F3; the first release's marks) */

typedef struct RecMark {
    int64_t t_ms;                    /* race time */
    int player;                      /* 1-based car; 0 = nobody's (a teacher, the experimenter) */
    char kind[RECORDING_MARK_KIND];  /* what it marks: dissatisfied, ... */
    char note[RECORDING_MARK_NOTE];  /* free text, may be empty */
} RecMark;

typedef struct Recording {
    int version;
    char track[128];   /* track file name as written in the header */
    char source[16];   /* human | autopilot | network */
    char created[32];  /* ISO 8601 UTC, informative only */
    int32_t period_ms; /* 33 */
    int ncars;
    int nsamples;      /* samples per car */
    RecSample *samples; /* [car * nsamples + i] */
    bool truncated;
    int nmeta;
    RecMeta meta[RECORDING_MAX_META]; /* the condition (recording_meta_add) */
    int nmarks, marks_cap;
    RecMark *marks;    /* time order (recording_mark_add); NULL when none */
} Recording;

bool recording_load(Recording *rec, const char *path, NrError *err);
/* recording_load's parser on an open stream; path names it in messages. */
bool recording_read(Recording *rec, FILE *f, const char *path, NrError *err);
/* Bounds for simulation input: a file may hold any finite double (load and
 * save round-trip them), but positions beyond RECORDING_MAX_POS car widths
 * (ten times the track coordinate limit) or speeds beyond RECORDING_MAX_SPEED
 * cw/s only overflow the simulations into inf/nan. recording_in_range: false
 * naming path, car, t_ms and field of the first value out of range. */
#define RECORDING_MAX_POS 1e6
#define RECORDING_MAX_SPEED 1e5
bool recording_in_range(const Recording *rec, const char *path, NrError *err);
void recording_free(Recording *rec);
bool recording_meta_add(Recording *rec, const char *key, const char *value);
const char *recording_meta_get(const Recording *rec, const char *key);
bool recording_mark_add(Recording *rec, const RecMark *m);
bool recmark_valid(const RecMark *m, int ncars);
int recmark_format(char *buf, size_t n, const RecMark *m);
bool recmark_parse(RecMark *m, const char *text, int ncars);
bool recording_mark_read(Recording *rec, const char *value, const char *path, int line, NrError *err);
const RecSample *recording_at(const Recording *rec, int car, int i);
bool recording_save(const Recording *rec, const char *path, NrError *err);

typedef struct RecWriter RecWriter;
RecWriter *recwriter_open(const char *path, const Recording *meta, NrError *err);
bool recwriter_append(RecWriter *w, int car, const RecSample *s, NrError *err);
bool recwriter_mark(RecWriter *w, const RecMark *m, NrError *err);
bool recwriter_close(RecWriter *w, NrError *err);

typedef struct Track Track;
bool recording_progress(const Recording *rec, const Track *track, int car, double *out);
int recording_lead_changes(const Recording *rec, const Track *track);

typedef struct RecGapStats {
    double median_cw, min_cw; /* centre-to-centre distance */
    double below1, below2;    /* shares (0..1) of samples closer than 1 / 2 cw */
} RecGapStats;
bool recording_gap_stats(const Recording *rec, int a, int b, RecGapStats *out);

#endif
