/* The gfx module's files: fonts (the default monospace font, SDL_ttf
 * started once) and PNG saving of a renderer's frame (crash-safe .part,
 * every write checked). */
#include "gfx.h"
#include "nr_part.h"

#include <SDL_image.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

static bool readable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fclose(f);
    return true;
}

bool gfx_default_font(char *buf, size_t n)
{
    const char *env = getenv("NETRACE_FONT");
    if (env && *env) {
        snprintf(buf, n, "%s", env);
        return readable(buf);
    }
    if (readable(DEFAULT_FONT)) {
        snprintf(buf, n, "%s", DEFAULT_FONT);
        return true;
    }
    FILE *p = popen("fc-match -f '%{file}' monospace 2>/dev/null", "r");
    if (!p)
        return false;
    size_t got = fread(buf, 1, n - 1, p);
    buf[got] = '\0';
    pclose(p);
    return got > 0 && readable(buf);
}

bool gfx_pick_font(const char *requested, char *buf, size_t n)
{
    buf[0] = '\0';
    if (requested && *requested) {
        snprintf(buf, n, "%s", requested);
    } else if (!gfx_default_font(buf, n)) {
        if (buf[0])
            fprintf(stderr, "netrace: cannot open font %s (NETRACE_FONT); drawing without text\n", buf);
        else
            fprintf(stderr, "netrace: no monospace font found (install fonts-dejavu-core); drawing without text\n");
        buf[0] = '\0';
        return false;
    }
    if (!readable(buf)) {
        fprintf(stderr, "netrace: cannot open font %s; drawing without text\n", buf);
        buf[0] = '\0';
        return false;
    }
    return true;
}

bool gfx_ttf_start(NrError *err)
{
    if (TTF_WasInit())
        return true;
    if (TTF_Init() != 0)
        return nr_error_set(err, "cannot start SDL_ttf: %s", TTF_GetError());
    return true;
}

/* SDL_image ignores the result of its writes and of the final close: a PNG
 * cut short by a full disk would be renamed into place as if complete. This
 * stream writes through stdio and remembers the first failure. */
typedef struct CheckedFile {
    FILE *f;
    bool failed;
    int err; /* errno of the first failure */
} CheckedFile;

static size_t checked_write(SDL_RWops *rw, const void *p, size_t size, size_t n)
{
    CheckedFile *c = rw->hidden.unknown.data1;
    size_t got = fwrite(p, size, n, c->f);
    if (got != n && !c->failed) {
        c->failed = true;
        c->err = errno;
    }
    return got;
}

static Sint64 checked_seek(SDL_RWops *rw, Sint64 off, int whence)
{
    CheckedFile *c = rw->hidden.unknown.data1;
    int w = whence == RW_SEEK_SET ? SEEK_SET : whence == RW_SEEK_CUR ? SEEK_CUR : SEEK_END;
    if (fseek(c->f, (long)off, w) != 0)
        return -1;
    return (Sint64)ftell(c->f);
}

static int checked_close(SDL_RWops *rw)
{
    SDL_FreeRW(rw); /* the FILE is closed by gfx_save_png, which checks it */
    return 0;
}

/* Writes s as PNG into f; false with the reason in *why on any failed
 * write or flush (f stays open: gfx_save_png closes it through nr_part). */
static bool write_png_checked(SDL_Surface *s, FILE *f, const char **why)
{
    CheckedFile c = {f, false, 0};
    SDL_RWops *rw = SDL_AllocRW();
    bool ok = rw != NULL;
    if (ok) {
        rw->type = SDL_RWOPS_UNKNOWN;
        rw->write = checked_write;
        rw->seek = checked_seek;
        rw->close = checked_close;
        rw->hidden.unknown.data1 = &c;
        ok = IMG_SavePNG_RW(s, rw, 1) == 0; /* frees rw */
        if (!ok)
            *why = IMG_GetError();
    } else {
        *why = SDL_GetError();
    }
    if (ok && (c.failed || fflush(f) != 0 || ferror(f))) {
        ok = false;
        *why = strerror(c.failed ? c.err : errno);
    }
    return ok;
}

bool gfx_save_png(SDL_Renderer *r, int w, int h, const char *path, NrError *err)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 24, SDL_PIXELFORMAT_RGB24);
    if (!s)
        return nr_error_set(err, "%s: cannot allocate %dx%d image: %s", path, w, h, SDL_GetError());
    bool ok = SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_RGB24, s->pixels, s->pitch) == 0;
    if (!ok)
        nr_error_set(err, "%s: cannot read the frame: %s", path, SDL_GetError());
    /* Written as PATH.part (never replacing an existing one) and renamed into
     * place when every write succeeded, like every netrace output (nr_part.h):
     * a failed or killed write leaves no half PNG under PATH and never
     * truncates an older file. */
    NrPartFile out;
    if (ok && nr_part_open(&out, path, NR_PART_REPLACE) != NR_PART_OK) {
        if (out.status == NR_PART_TOO_LONG)
            ok = nr_error_set(err, "%s: path too long", path);
        else
            ok = nr_error_set(err, "%s: cannot write %s: %s%s", path, out.part, strerror(out.errnum),
                              out.status == NR_PART_EXISTS ? " (left by a killed run?); remove it or choose another name"
                                                           : "");
    } else if (ok) {
        const char *why = "";
        if (!write_png_checked(s, out.f, &why))
            ok = nr_error_set(err, "%s: cannot write PNG: %s", path, why);
        else if (nr_part_close(&out) == NR_PART_WRITE)
            ok = nr_error_set(err, "%s: cannot write PNG: %s", path, nr_part_reason(&out));
        else if (out.status != NR_PART_OK)
            ok = nr_error_set(err, "%s: cannot rename %s into place: %s", path, out.part, nr_part_reason(&out));
        nr_part_abort(&out); /* removes the .part unless it was renamed */
    }
    SDL_FreeSurface(s);
    return ok;
}
