/* The one atomic output writer: FILE.part written, then renamed into place.
 *
 * Every file netrace writes (recordings, input scripts, terminal logs, CSV
 * tables, PNG plots) goes through it, so that a killed or failed run never
 * leaves a half file under the final name, never truncates an older file and
 * never overwrites a .part someone left (a crashed race is evidence):
 *
 *   open   creates PATH.part exclusively (O_EXCL): an existing PATH.part is
 *          never replaced; mode 0666 less the umask, or 0600 with
 *          NR_PART_PRIVATE (the rename keeps it). Without NR_PART_REPLACE an existing PATH is
 *          refused too (checked at open, and again by the rename at close).
 *   write  through pf->f (fprintf, fputs, fwrite...).
 *   flush  on demand (a live writer flushes once per second of race time,
 *          so a SIGKILL loses at most that).
 *   close  flushes, closes and renames PATH.part to PATH; on failure the
 *          .part is kept (a live log's rows are worth keeping) until the
 *          caller aborts.
 *   abort  closes if open and removes PATH.part unless it was renamed.
 *
 * Errors are values: each call returns an NrPartStatus and records the
 * first failure (status and errno) in the NrPartFile; the caller words the
 * message, naming pf->path or pf->part and nr_part_reason(pf).
 *
 * Contracts:
 *   nr_part_open(pf, path, flags)  pf is the caller's (no allocation);
 *        NR_PART_OK and pf->f open, or NR_PART_TOO_LONG (path + ".part"
 *        does not fit NR_PART_PATH_MAX), NR_PART_EXISTS (PATH.part exists),
 *        NR_PART_FINAL_EXISTS (PATH exists and not NR_PART_REPLACE),
 *        NR_PART_CREATE (errno in pf->errnum); pf->f NULL then and nothing
 *        is left on disk.
 *   nr_part_flush(pf)   fflush; NR_PART_WRITE on an error (or one seen
 *        earlier by ferror).
 *   nr_part_close(pf)   NR_PART_OK when PATH now holds the file; else
 *        NR_PART_WRITE (a write, flush or close failed; errnum 0 when only
 *        ferror knew), NR_PART_FINAL_EXISTS or NR_PART_RENAME, the .part
 *        kept. pf->f is NULL afterwards in every case.
 *   nr_part_abort(pf)   closes pf->f if open and removes PATH.part unless
 *        close renamed it; safe on a pf never opened successfully and after
 *        any close (then removes only what close left).
 *   nr_part_reason(pf)  the first failure as text: strerror(errnum),
 *        "exists", "path too long", or "disk full?" for a write error
 *        without errno.
 *   nr_part_named(path)  true when path ends in ".part": a file this writer
 *        never finalised (a killed run's), readable up to its last flush.
 */
#ifndef NR_PART_H
#define NR_PART_H

#include "nr_common.h"

#include <stdio.h>

#define NR_PART_PATH_MAX 4096

/* open flags */
#define NR_PART_REPLACE 1u /* the rename may replace an existing PATH */
#define NR_PART_PRIVATE 2u /* created 0600 (owner only), whatever the umask allows */

typedef enum NrPartStatus {
    NR_PART_OK = 0,
    NR_PART_TOO_LONG,
    NR_PART_EXISTS,
    NR_PART_FINAL_EXISTS,
    NR_PART_CREATE,
    NR_PART_WRITE,
    NR_PART_RENAME,
} NrPartStatus;

typedef struct NrPartFile {
    FILE *f;                           /* open between open and close */
    char path[NR_PART_PATH_MAX];       /* the final name */
    char part[NR_PART_PATH_MAX + 8];   /* path + ".part" */
    unsigned flags;
    bool created, renamed;             /* what is on disk: .part made, moved */
    NrPartStatus status;               /* the first failure */
    int errnum;                        /* its errno (0: none known) */
} NrPartFile;

NrPartStatus nr_part_open(NrPartFile *pf, const char *path, unsigned flags);
NrPartStatus nr_part_flush(NrPartFile *pf);
NrPartStatus nr_part_close(NrPartFile *pf);
void nr_part_abort(NrPartFile *pf);
const char *nr_part_reason(const NrPartFile *pf);
bool nr_part_named(const char *path);

#endif
