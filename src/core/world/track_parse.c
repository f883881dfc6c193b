/* The track text format's parser and loader (track.h; the format in
 * docs/formats.md): keywords, control points, the start grid, then the
 * centre line, grid and checks of track_build.c. */
#include "nr_file.h"
#include "track_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsing ------------------------------------------------------------ */

typedef struct Parser {
    const char *name;
    double *px, *py;
    int np, cap;
    int *lines;
} Parser;

static bool parse_num(const char *tok, const char *what, const char *name, int line, double *out,
                      NrError *err)
{
    if (!tok)
        return nr_error_set(err, "%s:%d: missing %s (expected a number)", name, line, what);
    if (!nr_parse_double(tok, out)) {
        char *end;
        double v = strtod(tok, &end);
        if (end != tok && *end == '\0' && !isfinite(v))
            return nr_error_set(err, "%s:%d: %s is '%s', expected a finite number", name, line, what, tok);
        return nr_error_set(err, "%s:%d: %s is '%s', expected a number", name, line, what, tok);
    }
    return true;
}

static Track *fail_parse(Track *t, Parser *p)
{
    free(p->px);
    free(p->py);
    free(p->lines);
    track_free(t);
    return NULL;
}

Track *track_parse(const char *text, const char *name, NrError *err)
{
    if (!name)
        name = "track";
    Parser p = {name, NULL, NULL, 0, 0, NULL};
    Track *t = calloc(1, sizeof *t);
    if (!t) {
        nr_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    bool have_version = false, have_name = false, have_width = false, have_grid = false;
    int line = 0, version_line = 0;
    const char *cur = text;
    char buf[TRACK_LINE_MAX];
    while (*cur) {
        line++;
        const char *nl = strchr(cur, '\n');
        size_t len = nl ? (size_t)(nl - cur) : strlen(cur);
        if (len >= sizeof buf) {
            nr_error_set(err, "%s:%d: line too long (at most %d characters)", name, line, TRACK_LINE_MAX - 1);
            return fail_parse(t, &p);
        }
        memcpy(buf, cur, len);
        buf[len] = '\0';
        cur += len + (nl ? 1 : 0);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL;
        char *kw = strtok_r(buf, " \t\r", &save);
        if (!kw)
            continue;
        if (!have_version) {
            if (strcmp(kw, "netrace-track") != 0) {
                nr_error_set(err, "%s:%d: expected the header 'netrace-track %d', got '%s'", name, line,
                             TRACK_VERSION, kw);
                return fail_parse(t, &p);
            }
            char *ver = strtok_r(NULL, " \t\r", &save);
            int64_t v;
            if (!ver || !nr_parse_int64(ver, &v) || strtok_r(NULL, " \t\r", &save)) {
                nr_error_set(err, "%s:%d: expected the header 'netrace-track %d'", name, line, TRACK_VERSION);
                return fail_parse(t, &p);
            }
            if (v != TRACK_VERSION) {
                nr_error_set(err, "%s:%d: track format version %lld is not supported (expected %d)", name,
                             line, (long long)v, TRACK_VERSION);
                return fail_parse(t, &p);
            }
            have_version = true;
            version_line = line;
            continue;
        }
        if (strcmp(kw, "name") == 0) {
            char *rest = save ? save + strspn(save, " \t") : NULL;
            if (have_name) {
                nr_error_set(err, "%s:%d: second 'name' line (a track has one name)", name, line);
                return fail_parse(t, &p);
            }
            if (!rest || !*rest) {
                nr_error_set(err, "%s:%d: 'name' needs a text", name, line);
                return fail_parse(t, &p);
            }
            size_t rl = strlen(rest);
            while (rl > 0 && (rest[rl - 1] == ' ' || rest[rl - 1] == '\t' || rest[rl - 1] == '\r'))
                rest[--rl] = '\0';
            if (!nr_text_is_printable(rest)) {
                nr_error_set(err, "%s:%d: name holds a control character, expected printable text", name, line);
                return fail_parse(t, &p);
            }
            if (rl >= sizeof t->name) {
                nr_error_set(err, "%s:%d: name longer than %zu characters", name, line, sizeof t->name - 1);
                return fail_parse(t, &p);
            }
            memcpy(t->name, rest, rl + 1);
            have_name = true;
            continue;
        }
        char *f[4];
        int nf = 0;
        char *tok;
        while ((tok = strtok_r(NULL, " \t\r", &save)) != NULL) {
            if (nf == 4) {
                nr_error_set(err, "%s:%d: too many fields after '%s'", name, line, kw);
                return fail_parse(t, &p);
            }
            f[nf++] = tok;
        }
        for (int i = nf; i < 4; i++)
            f[i] = NULL;
        if (strcmp(kw, "width") == 0) {
            if (have_width) {
                nr_error_set(err, "%s:%d: second 'width' line", name, line);
                return fail_parse(t, &p);
            }
            if (nf > 1) {
                nr_error_set(err, "%s:%d: 'width' takes one number (car widths)", name, line);
                return fail_parse(t, &p);
            }
            if (!parse_num(f[0], "width", name, line, &t->width, err))
                return fail_parse(t, &p);
            if (!(t->width > 0) || t->width > TRACK_MAX_WIDTH) {
                nr_error_set(err, "%s:%d: width %g out of range (expected more than 0, at most %g car widths)",
                             name, line, t->width, TRACK_MAX_WIDTH);
                return fail_parse(t, &p);
            }
            have_width = true;
        } else if (strcmp(kw, "point") == 0) {
            double x, y;
            if (nf != 2) {
                nr_error_set(err, "%s:%d: 'point' takes two numbers X Y, got %d fields", name, line, nf);
                return fail_parse(t, &p);
            }
            if (!parse_num(f[0], "X", name, line, &x, err) || !parse_num(f[1], "Y", name, line, &y, err))
                return fail_parse(t, &p);
            if (fabs(x) > TRACK_MAX_COORD || fabs(y) > TRACK_MAX_COORD) {
                nr_error_set(err, "%s:%d: point (%g, %g) out of range (|X|, |Y| at most %g)", name, line, x, y,
                             TRACK_MAX_COORD);
                return fail_parse(t, &p);
            }
            if (p.np > 0 && x == p.px[p.np - 1] && y == p.py[p.np - 1]) {
                nr_error_set(err, "%s:%d: duplicate point (%g, %g), same as the previous point on line %d",
                             name, line, x, y, p.lines[p.np - 1]);
                return fail_parse(t, &p);
            }
            if (p.np == TRACK_MAX_POINTS) {
                nr_error_set(err, "%s:%d: too many points (at most %d)", name, line, TRACK_MAX_POINTS);
                return fail_parse(t, &p);
            }
            if (p.np == p.cap) {
                int cap = p.cap ? p.cap * 2 : 64;
                double *nx = realloc(p.px, (size_t)cap * sizeof *nx);
                if (nx)
                    p.px = nx;
                double *ny = realloc(p.py, (size_t)cap * sizeof *ny);
                if (ny)
                    p.py = ny;
                int *nl2 = realloc(p.lines, (size_t)cap * sizeof *nl2);
                if (nl2)
                    p.lines = nl2;
                if (!nx || !ny || !nl2) {
                    nr_error_set(err, "%s: out of memory", name);
                    return fail_parse(t, &p);
                }
                p.cap = cap;
            }
            p.px[p.np] = x;
            p.py[p.np] = y;
            p.lines[p.np] = line;
            p.np++;
        } else if (strcmp(kw, "grid") == 0) {
            double slots, spacing, offset;
            if (have_grid) {
                nr_error_set(err, "%s:%d: second 'grid' line", name, line);
                return fail_parse(t, &p);
            }
            if (nf != 3) {
                nr_error_set(err, "%s:%d: 'grid' takes SLOTS SPACING OFFSET, got %d fields", name, line, nf);
                return fail_parse(t, &p);
            }
            if (!parse_num(f[0], "grid SLOTS", name, line, &slots, err) ||
                !parse_num(f[1], "grid SPACING", name, line, &spacing, err) ||
                !parse_num(f[2], "grid OFFSET", name, line, &offset, err))
                return fail_parse(t, &p);
            if (slots != floor(slots) || slots < 2 || slots > TRACK_MAX_SLOTS) {
                nr_error_set(err, "%s:%d: grid SLOTS is %g, expected a whole number from 2 to %d", name, line,
                             slots, TRACK_MAX_SLOTS);
                return fail_parse(t, &p);
            }
            if (!(spacing > 0)) {
                nr_error_set(err, "%s:%d: grid SPACING is %g, expected more than 0 car widths", name, line,
                             spacing);
                return fail_parse(t, &p);
            }
            if (offset < 0) {
                nr_error_set(err, "%s:%d: grid OFFSET is %g, expected 0 or more car widths", name, line,
                             offset);
                return fail_parse(t, &p);
            }
            t->slots = (int)slots;
            t->grid_spacing = spacing;
            t->grid_offset = offset;
            have_grid = true;
        } else {
            nr_error_set(err, "%s:%d: unknown keyword '%s' (expected name, width, point or grid)", name, line,
                         kw);
            return fail_parse(t, &p);
        }
    }
    int last = line > 0 ? line : 1;
    if (!have_version) {
        nr_error_set(err, "%s:%d: %s (expected the header 'netrace-track %d')", name, last,
                     line == 0 ? "empty file" : "no header", TRACK_VERSION);
        return fail_parse(t, &p);
    }
    if (!have_name) {
        nr_error_set(err, "%s:%d: missing 'name' line", name, version_line);
        return fail_parse(t, &p);
    }
    if (!have_width) {
        nr_error_set(err, "%s:%d: missing 'width' line", name, version_line);
        return fail_parse(t, &p);
    }
    if (p.np < 3) {
        nr_error_set(err, "%s:%d: %d point%s, a closed centre line needs at least 3", name, last, p.np,
                     p.np == 1 ? "" : "s");
        return fail_parse(t, &p);
    }
    if (p.px[0] == p.px[p.np - 1] && p.py[0] == p.py[p.np - 1]) {
        nr_error_set(err, "%s:%d: duplicate point: the last point repeats the first (the line closes by itself)",
                     name, p.lines[p.np - 1]);
        return fail_parse(t, &p);
    }
    double perim = 0;
    for (int i = 0; i < p.np; i++) {
        int j = (i + 1) % p.np;
        perim += hypot(p.px[j] - p.px[i], p.py[j] - p.py[i]);
    }
    if (perim > TRACK_MAX_LENGTH) {
        nr_error_set(err, "%s:%d: centre line about %.0f car widths long, at most %.0f", name, p.lines[0], perim,
                     TRACK_MAX_LENGTH);
        return fail_parse(t, &p);
    }
    if (!have_grid) {
        t->slots = 2;
        t->grid_spacing = 2.0;
        t->grid_offset = t->width / 4;
    }
    if (t->grid_offset + 0.5 > t->width / 2) {
        nr_error_set(err, "%s:%d: grid OFFSET %g puts cars off a track %g wide (at most %g)", name, last,
                     t->grid_offset, t->width, t->width / 2 - 0.5);
        return fail_parse(t, &p);
    }
    t->npoints = p.np;
    t->point_line = p.lines;
    p.lines = NULL;
    if (!track_build_polyline(t, p.px, p.py, name, err) || !track_build_grid(t, name, err) || !track_check_geometry(t, name, err))
        return fail_parse(t, &p);
    if (t->slots * t->grid_spacing > t->length / 2) {
        nr_error_set(err, "%s:%d: the start grid (%d slots every %g) is longer than half the track (%g)", name,
                     last, t->slots, t->grid_spacing, t->length);
        return fail_parse(t, &p);
    }
    free(p.px);
    free(p.py);
    return t;
}

Track *track_load(const char *path, NrError *err)
{
    FILE *f = nr_file_open(path, "a track", err);
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    if (!text) {
        fclose(f);
        nr_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    size_t got;
    while ((got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (memchr(text + len - got, '\0', got)) {
            free(text);
            fclose(f);
            nr_error_set(err, "%s: binary data (NUL byte) in a text file", path);
            return NULL;
        }
        if (len + 1 == cap) {
            if (cap > (size_t)64 << 20) {
                free(text);
                fclose(f);
                nr_error_set(err, "%s: file larger than 64 MiB", path);
                return NULL;
            }
            char *n2 = realloc(text, cap * 2);
            if (!n2) {
                free(text);
                fclose(f);
                nr_error_set(err, "%s: out of memory", path);
                return NULL;
            }
            text = n2;
            cap *= 2;
        }
    }
    bool ioerr = ferror(f);
    fclose(f);
    if (ioerr) {
        free(text);
        nr_error_set(err, "%s: read error", path);
        return NULL;
    }
    text[len] = '\0';
    Track *t = track_parse(text, path, err);
    free(text);
    return t;
}
