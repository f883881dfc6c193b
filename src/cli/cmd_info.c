/* `netrace info FILE`: key: value summary of a recording or a track. */
#include "cli.h"
#include "nr_file.h"

#include <math.h>
#include <stdlib.h>
#include "cli_load.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int info_track(const char *path)
{
    NrError err;
    Track *t = track_load(path, &err);
    if (!t)
        return cli_fail("info", "%s", err.msg);
    printf("format: netrace-track 1\n");
    printf("name: %s\n", track_name(t));
    printf("length: %.2f\n", track_length(t));
    printf("width: %g\n", track_width(t));
    printf("points: %d\n", track_control_points(t));
    printf("grid_slots: %d\n", track_grid_slots(t));
    track_free(t);
    return CLI_OK;
}


/* Gap between the two cars along the track (car widths): how close the
 * racing is decides how much any delay can swap the order. */
static void print_gaps(const Recording *rec, const Track *t)
{
    double *p[2] = {malloc(sizeof(double) * (size_t)rec->nsamples),
                    malloc(sizeof(double) * (size_t)rec->nsamples)};
    if (p[0] && p[1] && rec->nsamples > 0 && recording_progress(rec, t, 0, p[0]) &&
        recording_progress(rec, t, 1, p[1])) {
        double sum = 0, mx = 0;
        for (int i = 0; i < rec->nsamples; i++) {
            double g = fabs(p[0][i] - p[1][i]);
            sum += g;
            mx = g > mx ? g : mx;
        }
        printf("mean_gap_cw: %.3f\n", sum / rec->nsamples);
        printf("max_gap_cw: %.3f\n", mx);
    }
    RecGapStats g;
    if (recording_gap_stats(rec, 0, 1, &g)) {
        printf("median_distance_cw: %.3f\n", g.median_cw);
        printf("min_distance_cw: %.3f\n", g.min_cw);
        printf("closer_1cw: %.3f\n", g.below1);
        printf("closer_2cw: %.3f\n", g.below2);
    }
    free(p[0]);
    free(p[1]);
}

/* The marks (recording.h): how many, when (s), then each as the file
 * writes it ("mark: T_MS,PLAYER,KIND[,NOTE]"; a file of the first
 * release's "T_MS [LABEL]" reads as kind mark). */
static void print_marks(const Recording *rec)
{
    printf("marks: %d\n", rec->nmarks);
    if (rec->nmarks == 0)
        return;
    printf("mark_times_s:");
    for (int i = 0; i < rec->nmarks; i++)
        printf(" %.3f", (double)rec->marks[i].t_ms / 1000.0);
    printf("\n");
    for (int i = 0; i < rec->nmarks; i++) {
        char line[RECORDING_MARK_KIND + RECORDING_MARK_NOTE + 64];
        if (recmark_format(line, sizeof line, &rec->marks[i]) > 0)
            printf("%s", line + 2); /* "mark: ..." without the "# " */
    }
}

static int info_recording(const char *path)
{
    NrError err;
    Recording rec;
    if (!cli_load_recording(path, &rec, &err)) /* the same checks as replay's */
        return cli_fail("info", "%s", err.msg);
    printf("format: netrace-recording %d\n", rec.version);
    printf("track: %s\n", rec.track);
    printf("source: %s\n", rec.source);
    printf("created: %s\n", rec.created);
    /* the condition the race was driven under (play, study), as written */
    static const char *const own[] = {"format", "samples", "duration_s", "truncated", "complete", "marks", "track_file",
                                      "lead_changes"};
    for (int i = 0; i < rec.nmeta; i++) {
        bool mine = false;
        for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
            mine |= strcmp(rec.meta[i].key, own[k]) == 0;
        if (!mine)
            printf("%s: %s\n", rec.meta[i].key, rec.meta[i].value);
    }
    printf("cars: %d\n", rec.ncars);
    printf("period_ms: %ld\n", (long)rec.period_ms);
    printf("samples: %d\n", rec.nsamples);
    double dur = rec.nsamples > 0 ? (double)(rec.nsamples - 1) * rec.period_ms / 1000.0 : 0.0;
    printf("duration_s: %.3f\n", dur);
    printf("truncated: %s\n", rec.truncated ? "yes" : "no");
    /* The live writer (recwriter_open) writes PATH.part and renames it to
     * PATH only when the race is closed: a file still named .part was never
     * finalised (a killed game or network terminal), even when its last
     * flush ended on a whole line. */
    printf("complete: %s\n", nr_part_named(path) || rec.truncated ? "no" : "yes");
    print_marks(&rec);
    int rc = CLI_OK;
    char tpath[4096];
    if (rec.ncars < 2) {
        printf("lead_changes: n/a\n");
    } else if (!cli_find_track(path, rec.track, tpath, sizeof tpath)) {
        printf("lead_changes: unknown\n");
        rc = cli_fail("info", "%s: track '%s' not found (looked beside the recording, in its ../tracks/, "
                      "./tracks/ and the source tree's tracks/)", path, rec.track);
    } else {
        Track *t = track_load(tpath, &err);
        if (!t) {
            printf("lead_changes: unknown\n");
            rc = cli_fail("info", "%s", err.msg);
        } else {
            printf("track_file: %s\n", tpath);
            printf("lead_changes: %d\n", recording_lead_changes(&rec, t));
            print_gaps(&rec, t);
            track_free(t);
        }
    }
    recording_free(&rec);
    return rc;
}

/* The first n bytes of s for a message, every byte but printable ASCII as
 * \xHH: an unrecognised file's bytes never reach the terminal raw (an
 * escape sequence there would drive the terminal, issue 24). */
static void printable(const char *s, int n, char *out, size_t cap)
{
    size_t w = 0;
    for (int i = 0; i < n && w + 5 <= cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out[w++] = (char)c;
        else
            w += (size_t)snprintf(out + w, cap - w, "\\x%02x", c);
    }
    out[w < cap ? w : cap - 1] = '\0';
}

static int run(int argc, char **argv)
{
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_unknown_option("info", argv[i]);
        if (file)
            return cli_usage_error("info", "one FILE only (got '%s' and '%s')", file, argv[i]);
        file = argv[i];
    }
    if (!file)
        return cli_usage_error("info", "FILE is missing");
    char path[4096];
    if (!cli_resolve_path(file, path, sizeof path))
        return cli_fail("info", "%s: no such file", file);
    NrError err = {{0}};
    FILE *f = nr_file_open(path, "a recording or a track", &err);
    if (!f)
        return cli_fail("info", "%s", err.msg);
    char head[4096] = "";
    size_t got = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[got] = '\0';
    if (got == 0)
        return cli_fail("info", "%s:1: empty file (expected a netrace track or recording)", path);
    /* Detect by content: a recording's first line is '# netrace-recording:';
     * a track starts (after comments and blank lines) with 'netrace-track'. */
    if (strncmp(head, "# netrace-recording", 19) == 0)
        return info_recording(path);
    if (strlen(head) < got)
        return cli_fail("info", "%s: neither a netrace recording nor a track (binary data)", path);
    int line = 1;
    const char *p = head;
    while (*p == '#' || *p == '\n' || *p == '\r' || *p == ' ' || *p == '\t') {
        if (*p == '#')
            p += strcspn(p, "\n");
        if (*p == '\n')
            line++;
        if (*p)
            p++;
    }
    if (*p && strncmp(p, "netrace-track", 13) != 0) {
        int n = (int)strcspn(p, "\r\n");
        char start[4 * 40 + 1];
        printable(p, n > 40 ? 40 : n, start, sizeof start);
        return cli_fail("info", "%s:%d: neither a netrace recording nor a track (starts '%s')", path, line, start);
    }
    return info_track(path);
}

const CliCommand cmd_info = {
    "info",
    "describe a recording or a track (key: value lines)",
    "netrace info FILE",
    "FILE is a recording (recordings/*.csv) or a track (tracks/*.track); the kind is\n"
    "detected from the content. A relative FILE not found from the current directory\n"
    "is looked up in the source tree.\n\n"
    "Recording keys: format, track, source, created, the condition of a driven race\n"
    "(scheme, topology, link12, link21 or every line's link_I_J / link_I_s / link_s_I,\n"
    "clock_I, delta_ms, tdr_cw, converge_ms, seed; study, pair, race,\n"
    "condition, race_kind in a study), cars, period_ms, samples,\n"
    "duration_s (time of the last sample), truncated (yes when the file was cut,\n"
    "e.g. by a killed writer), complete (no for a .part file a live race never\n"
    "finalised, or a truncated one), marks (the mark keys' marks; with any,\n"
    "mark_times_s: their race times, and one 'mark: T_MS,PLAYER,KIND[,NOTE]' each),\n"
    "track_file (where the track was found) and\n"
    "lead_changes (sign changes of the progress difference of cars 1 and 2),\n"
    "mean_gap_cw and max_gap_cw (progress difference, car widths),\n"
    "median_distance_cw and min_distance_cw (centre to centre), closer_1cw and\n"
    "closer_2cw (share of samples with the centres closer than 1 / 2 car widths).\n"
    "Track keys: format, name, length (centre line, car widths), width, points,\n"
    "grid_slots.\n\n"
    "Exit status: 0 success, 1 unreadable or malformed file (one line naming\n"
    "FILE:LINE and the reason), 2 usage error.",
    run,
};
