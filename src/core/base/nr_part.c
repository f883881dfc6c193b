/* The one atomic output writer: PATH.part, renamed into place (nr_part.h). */
#include "nr_part.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Records the first failure only: later ones are consequences of it. */
static NrPartStatus fail(NrPartFile *pf, NrPartStatus st, int errnum)
{
    if (pf->status == NR_PART_OK) {
        pf->status = st;
        pf->errnum = errnum;
    }
    return st;
}

NrPartStatus nr_part_open(NrPartFile *pf, const char *path, unsigned flags)
{
    memset(pf, 0, sizeof *pf);
    pf->flags = flags;
    size_t n = strlen(path);
    if (n >= sizeof pf->path)
        return fail(pf, NR_PART_TOO_LONG, 0);
    memcpy(pf->path, path, n + 1);
    memcpy(pf->part, path, n);
    memcpy(pf->part + n, ".part", sizeof ".part");
    struct stat st;
    if (!(flags & NR_PART_REPLACE) && lstat(path, &st) == 0)
        return fail(pf, NR_PART_FINAL_EXISTS, EEXIST);
    /* O_EXCL: a leftover PATH.part holds a crashed run; never overwrite it.
     * 0666: the user's umask decides, as for any file a program creates;
     * 0600 for a private one (a session's log: nobody else reads it). */
    int fd = open(pf->part, O_WRONLY | O_CREAT | O_EXCL, (flags & NR_PART_PRIVATE) ? 0600 : 0666);
    if (fd < 0)
        return fail(pf, errno == EEXIST ? NR_PART_EXISTS : NR_PART_CREATE, errno);
    pf->created = true;
    pf->f = fdopen(fd, "w");
    if (!pf->f) {
        int e = errno;
        close(fd);
        unlink(pf->part);
        pf->created = false;
        return fail(pf, NR_PART_CREATE, e);
    }
    return NR_PART_OK;
}

NrPartStatus nr_part_flush(NrPartFile *pf)
{
    if (!pf->f)
        return fail(pf, NR_PART_WRITE, EBADF);
    errno = 0;
    if (fflush(pf->f) != 0 || ferror(pf->f))
        return fail(pf, NR_PART_WRITE, errno);
    return NR_PART_OK;
}

/* PATH.part to PATH: rename when replacing is allowed, else link + unlink,
 * which fails with EEXIST instead of replacing (atomic: no window between a
 * check and the move). A file system without hard links gets the check and
 * the rename. */
static NrPartStatus move_into_place(NrPartFile *pf)
{
    if (!(pf->flags & NR_PART_REPLACE)) {
        if (link(pf->part, pf->path) == 0) {
            unlink(pf->part);
            pf->renamed = true;
            return NR_PART_OK;
        }
        struct stat st;
        if (errno == EEXIST || lstat(pf->path, &st) == 0)
            return fail(pf, NR_PART_FINAL_EXISTS, EEXIST);
    }
    if (rename(pf->part, pf->path) != 0)
        return fail(pf, NR_PART_RENAME, errno);
    pf->renamed = true;
    return NR_PART_OK;
}

NrPartStatus nr_part_close(NrPartFile *pf)
{
    if (!pf->f)
        return pf->status != NR_PART_OK ? pf->status : fail(pf, NR_PART_WRITE, EBADF);
    errno = 0;
    bool wrote = fflush(pf->f) == 0 && !ferror(pf->f);
    int e = errno;
    if (fclose(pf->f) != 0 && wrote) {
        wrote = false;
        e = errno;
    }
    pf->f = NULL;
    if (!wrote)
        return fail(pf, NR_PART_WRITE, e);
    if (pf->status != NR_PART_OK) /* an earlier flush failed: rows are missing */
        return pf->status;
    return move_into_place(pf);
}

void nr_part_abort(NrPartFile *pf)
{
    if (pf->f) {
        fclose(pf->f);
        pf->f = NULL;
    }
    if (pf->created && !pf->renamed) {
        unlink(pf->part);
        pf->created = false;
    }
}

bool nr_part_named(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".part") == 0;
}

const char *nr_part_reason(const NrPartFile *pf)
{
    switch (pf->status) {
    case NR_PART_OK:
        return "no error";
    case NR_PART_TOO_LONG:
        return "path too long";
    case NR_PART_EXISTS:
    case NR_PART_FINAL_EXISTS:
        return "exists";
    default:
        return pf->errnum ? strerror(pf->errnum) : "disk full?";
    }
}
