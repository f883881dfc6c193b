/* Locating bundled files and loading a recording together with its track. */
#include "cli_load.h"
#include "netrace_config.h"
#include "nr_file.h"
#include "raceheader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Anything at p, so that a directory or a device named by the user is
 * reported as such by the loader instead of as missing. */
static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static bool put(char *out, size_t n, const char *fmt1, const char *a, const char *b)
{
    int w = snprintf(out, n, fmt1, a, b);
    return w >= 0 && (size_t)w < n;
}

bool cli_resolve_path(const char *rel, char *out, size_t n)
{
    if (!put(out, n, "%s%s", rel, ""))
        return false;
    if (exists(rel))
        return true;
    if (rel[0] != '/' && put(out, n, "%s/%s", NETRACE_SOURCE_DIR, rel) && exists(out))
        return true;
    put(out, n, "%s%s", rel, "");
    return false;
}

bool cli_find_track(const char *rec_path, const char *name, char *out, size_t n)
{
    /* recording_load refuses a track name with a '/' (docs/formats.md): the
     * candidates below stay inside the recording's, ./tracks/ and the source
     * tree's track folders. */
    char dir[4096];
    if (!put(dir, sizeof dir, "%s%s", rec_path, ""))
        return false;
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    char cand[4096 + 256];
    if (put(cand, sizeof cand, "%s/%s", dir, name) && is_file(cand))
        return put(out, n, "%s%s", cand, "");
    if (snprintf(cand, sizeof cand, "%s/../tracks/%s", dir, name) < (int)sizeof cand && is_file(cand))
        return put(out, n, "%s%s", cand, "");
    if (put(cand, sizeof cand, "tracks/%s%s", name, "") && is_file(cand))
        return put(out, n, "%s%s", cand, "");
    if (snprintf(cand, sizeof cand, "%s/tracks/%s", NETRACE_SOURCE_DIR, name) < (int)sizeof cand &&
        is_file(cand))
        return put(out, n, "%s%s", cand, "");
    return false;
}

bool cli_load_recording_header(const char *path, Recording *rec, RaceHeader *h, NrError *err)
{
    RaceHeader own;
    RaceHeader *hh = h ? h : &own;
    memset(hh, 0, sizeof *hh); /* raceheader_free of an unread header frees nothing */
    if (!recording_load(rec, path, err))
        return false;
    /* the condition's lines read (replay applies them): a bad one refuses the file */
    bool ok = recording_in_range(rec, path, err) && raceheader_read(hh, rec, path, err);
    if (!ok || !h)
        raceheader_free(hh);
    if (!ok) {
        memset(hh, 0, sizeof *hh);
        recording_free(rec);
        memset(rec, 0, sizeof *rec);
        return false;
    }
    return true;
}

bool cli_load_recording(const char *path, Recording *rec, NrError *err)
{
    return cli_load_recording_header(path, rec, NULL, err);
}

bool cli_load_race(const char *rec_path, Recording *rec, Track **track, RaceHeader *h, NrError *err)
{
    char path[4096];
    *track = NULL;
    if (!cli_resolve_path(rec_path, path, sizeof path)) {
        memset(rec, 0, sizeof *rec);
        if (h)
            memset(h, 0, sizeof *h);
        return nr_error_set(err, "%s: no such file", rec_path);
    }
    if (!cli_load_recording_header(path, rec, h, err))
        return false;
    char tpath[4096];
    if (!cli_find_track(path, rec->track, tpath, sizeof tpath))
        nr_error_set(err, "%s: track '%s' not found (looked beside the recording, in its ../tracks/, "
                     "./tracks/ and %s/tracks/)", path, rec->track, NETRACE_SOURCE_DIR);
    else
        *track = track_load(tpath, err);
    if (!*track) {
        raceheader_free(h);
        if (h)
            memset(h, 0, sizeof *h);
        recording_free(rec);
        memset(rec, 0, sizeof *rec);
        return false;
    }
    return true;
}

char *cli_read_text(const char *path, const char *what, size_t *n, NrError *err)
{
    FILE *f = nr_file_open(path, what, err);
    if (!f)
        return NULL;
    char *buf = malloc(CLI_TRACK_TEXT_MAX + 1);
    *n = buf ? fread(buf, 1, CLI_TRACK_TEXT_MAX + 1, f) : 0;
    bool bad = !buf || ferror(f) || *n > CLI_TRACK_TEXT_MAX || *n == 0 || memchr(buf, 0, *n);
    fclose(f);
    if (bad) {
        free(buf);
        nr_error_set(err, "%s: not a %s text of 1 byte to 64 MiB", path, what);
        return NULL;
    }
    buf[*n] = '\0';
    return buf;
}

char *cli_read_track_text(const char *path, NrError *err)
{
    size_t n;
    return cli_read_text(path, "track", &n, err);
}
