/* Finding and loading the bundled or user files the subcommands work on.
 *
 * Contracts:
 *   cli_resolve_path(rel, out, n)  out = rel when that file exists, else
 *        NETRACE_SOURCE_DIR/rel when that exists (so `recordings/default.csv`
 *        works from any directory); false (out = rel) when neither exists or
 *        the result does not fit in n bytes.
 *   cli_load_race(rec_path, rec, track, h, err)  loads the recording at rec_path
 *        (resolved as above) and the track named by its 'track' header field,
 *        looked up in order: as given when absolute; the recording's
 *        directory; its parent's tracks/; ./tracks/; NETRACE_SOURCE_DIR/tracks/.
 *        On success rec is filled, *track owns a loaded track and, when h
 *        is not NULL, *h holds the recording's condition as
 *        cli_load_recording_header parsed it (raceheader_free releases
 *        it); on failure all are left empty (rec and *h zeroed, *track
 *        NULL) and err says why.
 *   cli_find_track(rec_path, name, out, n)  the track look-up used above.
 *   cli_load_recording(path, rec, err)  recording_load, then refuses values
 *        out of recording_in_range (input of a simulation) and a header
 *        raceheader_read refuses; rec zeroed on failure.
 *   cli_load_recording_header(path, rec, h, err)  the same, keeping the
 *        header it parsed in *h (NULL: dropped) for the caller to
 *        raceheader_free; *h zeroed on failure. Parsed once: replay's
 *        defaults and lines read it from there (race_opts.h).
 *   cli_read_track_text(path, err)  a track file's whole text (what a host
 *        sends a joiner), NUL-terminated, the caller frees it; NULL + err
 *        when unreadable, empty, over CLI_TRACK_TEXT_MAX or holding a NUL.
 *   cli_read_text(path, what, &n, err)  the same for any text of the wire
 *        (a study's joiner log: what names it in err), its size in *n.
 */
#ifndef NR_CLI_LOAD_H
#define NR_CLI_LOAD_H

#include "nr_common.h"
#include "raceheader.h"
#include "recording.h"
#include "track.h"

bool cli_resolve_path(const char *rel, char *out, size_t n);
bool cli_find_track(const char *rec_path, const char *name, char *out, size_t n);
bool cli_load_recording(const char *path, Recording *rec, NrError *err);
bool cli_load_recording_header(const char *path, Recording *rec, RaceHeader *h, NrError *err);
#define CLI_TRACK_TEXT_MAX (64u << 20) /* the wire format's limit */

char *cli_read_track_text(const char *path, NrError *err);
char *cli_read_text(const char *path, const char *what, size_t *n, NrError *err);
bool cli_load_race(const char *rec_path, Recording *rec, Track **track, RaceHeader *h, NrError *err);

#endif
