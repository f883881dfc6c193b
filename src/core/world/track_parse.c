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
    const char *name;      /* the file, in messages */
    Track *t;              /* being filled */
    double *px, *py;       /* control points so far */
    int np, cap;
    int *lines;            /* the line of each point */
    int line, version_line;
    bool have_version, have_name, have_width, have_grid;
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

static Track *fail_parse(Parser *p)
{
    free(p->px);
    free(p->py);
    free(p->lines);
    track_free(p->t);
    return NULL;
}

/* The first line with a keyword: 'netrace-track 1'. */
static bool parse_header(Parser *p, const char *kw, char **save, NrError *err)
{
    if (strcmp(kw, "netrace-track") != 0)
        return nr_error_set(err, "%s:%d: expected the header 'netrace-track %d', got '%s'", p->name, p->line,
                            TRACK_VERSION, kw);
    char *ver = strtok_r(NULL, " \t\r", save);
    int64_t v;
    if (!ver || !nr_parse_int64(ver, &v) || strtok_r(NULL, " \t\r", save))
        return nr_error_set(err, "%s:%d: expected the header 'netrace-track %d'", p->name, p->line, TRACK_VERSION);
    if (v != TRACK_VERSION)
        return nr_error_set(err, "%s:%d: track format version %lld is not supported (expected %d)", p->name,
                            p->line, (long long)v, TRACK_VERSION);
    p->have_version = true;
    p->version_line = p->line;
    return true;
}

/* 'name TEXT': the rest of the line, trailing blanks cut. */
static bool parse_name(Parser *p, char *save, NrError *err)
{
    char *rest = save ? save + strspn(save, " \t") : NULL;
    if (p->have_name)
        return nr_error_set(err, "%s:%d: second 'name' line (a track has one name)", p->name, p->line);
    if (!rest || !*rest)
        return nr_error_set(err, "%s:%d: 'name' needs a text", p->name, p->line);
    size_t rl = strlen(rest);
    while (rl > 0 && (rest[rl - 1] == ' ' || rest[rl - 1] == '\t' || rest[rl - 1] == '\r'))
        rest[--rl] = '\0';
    if (!nr_text_is_printable(rest))
        return nr_error_set(err, "%s:%d: name holds a control character, expected printable text", p->name,
                            p->line);
    if (rl >= sizeof p->t->name)
        return nr_error_set(err, "%s:%d: name longer than %zu characters", p->name, p->line,
                            sizeof p->t->name - 1);
    memcpy(p->t->name, rest, rl + 1);
    p->have_name = true;
    return true;
}

/* 'width W' (car widths). */
static bool parse_width(Parser *p, char *const *f, int nf, NrError *err)
{
    Track *t = p->t;
    if (p->have_width)
        return nr_error_set(err, "%s:%d: second 'width' line", p->name, p->line);
    if (nf > 1)
        return nr_error_set(err, "%s:%d: 'width' takes one number (car widths)", p->name, p->line);
    if (!parse_num(f[0], "width", p->name, p->line, &t->width, err))
        return false;
    if (!(t->width > 0) || t->width > TRACK_MAX_WIDTH)
        return nr_error_set(err, "%s:%d: width %g out of range (expected more than 0, at most %g car widths)",
                            p->name, p->line, t->width, TRACK_MAX_WIDTH);
    p->have_width = true;
    return true;
}

/* Room for one more control point (capacity doubled from 64). */
static bool grow_points(Parser *p, NrError *err)
{
    if (p->np < p->cap)
        return true;
    int cap = p->cap ? p->cap * 2 : 64;
    double *nx = realloc(p->px, (size_t)cap * sizeof *nx);
    if (nx)
        p->px = nx;
    double *ny = realloc(p->py, (size_t)cap * sizeof *ny);
    if (ny)
        p->py = ny;
    int *nl = realloc(p->lines, (size_t)cap * sizeof *nl);
    if (nl)
        p->lines = nl;
    if (!nx || !ny || !nl)
        return nr_error_set(err, "%s: out of memory", p->name);
    p->cap = cap;
    return true;
}

/* 'point X Y': the next control point of the closed centre line. */
static bool parse_point(Parser *p, char *const *f, int nf, NrError *err)
{
    double x, y;
    if (nf != 2)
        return nr_error_set(err, "%s:%d: 'point' takes two numbers X Y, got %d fields", p->name, p->line, nf);
    if (!parse_num(f[0], "X", p->name, p->line, &x, err) || !parse_num(f[1], "Y", p->name, p->line, &y, err))
        return false;
    if (fabs(x) > TRACK_MAX_COORD || fabs(y) > TRACK_MAX_COORD)
        return nr_error_set(err, "%s:%d: point (%g, %g) out of range (|X|, |Y| at most %g)", p->name, p->line, x,
                            y, TRACK_MAX_COORD);
    if (p->np > 0 && x == p->px[p->np - 1] && y == p->py[p->np - 1])
        return nr_error_set(err, "%s:%d: duplicate point (%g, %g), same as the previous point on line %d",
                            p->name, p->line, x, y, p->lines[p->np - 1]);
    if (p->np == TRACK_MAX_POINTS)
        return nr_error_set(err, "%s:%d: too many points (at most %d)", p->name, p->line, TRACK_MAX_POINTS);
    if (!grow_points(p, err))
        return false;
    p->px[p->np] = x;
    p->py[p->np] = y;
    p->lines[p->np] = p->line;
    p->np++;
    return true;
}

/* 'grid SLOTS SPACING OFFSET' (car widths). */
static bool parse_grid(Parser *p, char *const *f, int nf, NrError *err)
{
    double slots, spacing, offset;
    const char *name = p->name;
    int line = p->line;
    if (p->have_grid)
        return nr_error_set(err, "%s:%d: second 'grid' line", name, line);
    if (nf != 3)
        return nr_error_set(err, "%s:%d: 'grid' takes SLOTS SPACING OFFSET, got %d fields", name, line, nf);
    if (!parse_num(f[0], "grid SLOTS", name, line, &slots, err) ||
        !parse_num(f[1], "grid SPACING", name, line, &spacing, err) ||
        !parse_num(f[2], "grid OFFSET", name, line, &offset, err))
        return false;
    if (slots != floor(slots) || slots < 2 || slots > TRACK_MAX_SLOTS)
        return nr_error_set(err, "%s:%d: grid SLOTS is %g, expected a whole number from 2 to %d", name, line,
                            slots, TRACK_MAX_SLOTS);
    if (!(spacing > 0))
        return nr_error_set(err, "%s:%d: grid SPACING is %g, expected more than 0 car widths", name, line,
                            spacing);
    if (offset < 0)
        return nr_error_set(err, "%s:%d: grid OFFSET is %g, expected 0 or more car widths", name, line, offset);
    p->t->slots = (int)slots;
    p->t->grid_spacing = spacing;
    p->t->grid_offset = offset;
    p->have_grid = true;
    return true;
}

/* One line, comment cut: the header first, then a keyword and its fields. */
static bool parse_line(Parser *p, char *buf, NrError *err)
{
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    char *save = NULL;
    char *kw = strtok_r(buf, " \t\r", &save);
    if (!kw)
        return true;
    if (!p->have_version)
        return parse_header(p, kw, &save, err);
    if (strcmp(kw, "name") == 0)
        return parse_name(p, save, err);
    char *f[4];
    int nf = 0;
    char *tok;
    while ((tok = strtok_r(NULL, " \t\r", &save)) != NULL) {
        if (nf == 4)
            return nr_error_set(err, "%s:%d: too many fields after '%s'", p->name, p->line, kw);
        f[nf++] = tok;
    }
    for (int i = nf; i < 4; i++)
        f[i] = NULL;
    if (strcmp(kw, "width") == 0)
        return parse_width(p, f, nf, err);
    if (strcmp(kw, "point") == 0)
        return parse_point(p, f, nf, err);
    if (strcmp(kw, "grid") == 0)
        return parse_grid(p, f, nf, err);
    return nr_error_set(err, "%s:%d: unknown keyword '%s' (expected name, width, point or grid)", p->name, p->line,
                        kw);
}

/* After the last line: what every track needs, the control polygon's
 * limits and the default grid; `last` is the line named by messages about
 * the whole file. */
static bool check_complete(Parser *p, int last, NrError *err)
{
    const char *name = p->name;
    Track *t = p->t;
    if (!p->have_version)
        return nr_error_set(err, "%s:%d: %s (expected the header 'netrace-track %d')", name, last,
                            p->line == 0 ? "empty file" : "no header", TRACK_VERSION);
    if (!p->have_name)
        return nr_error_set(err, "%s:%d: missing 'name' line", name, p->version_line);
    if (!p->have_width)
        return nr_error_set(err, "%s:%d: missing 'width' line", name, p->version_line);
    if (p->np < 3)
        return nr_error_set(err, "%s:%d: %d point%s, a closed centre line needs at least 3", name, last, p->np,
                            p->np == 1 ? "" : "s");
    if (p->px[0] == p->px[p->np - 1] && p->py[0] == p->py[p->np - 1])
        return nr_error_set(err,
                            "%s:%d: duplicate point: the last point repeats the first (the line closes by itself)",
                            name, p->lines[p->np - 1]);
    double perim = 0;
    for (int i = 0; i < p->np; i++) {
        int j = (i + 1) % p->np;
        perim += hypot(p->px[j] - p->px[i], p->py[j] - p->py[i]);
    }
    if (perim > TRACK_MAX_LENGTH)
        return nr_error_set(err, "%s:%d: centre line about %.0f car widths long, at most %.0f", name, p->lines[0],
                            perim, TRACK_MAX_LENGTH);
    if (!p->have_grid) {
        t->slots = 2;
        t->grid_spacing = 2.0;
        t->grid_offset = t->width / 4;
    }
    if (t->grid_offset + 0.5 > t->width / 2)
        return nr_error_set(err, "%s:%d: grid OFFSET %g puts cars off a track %g wide (at most %g)", name, last,
                            t->grid_offset, t->width, t->width / 2 - 0.5);
    return true;
}

/* The centre line, the projection grid and the geometry checks
 * (track_build.c), then the start grid against the length. */
static bool build(Parser *p, int last, NrError *err)
{
    Track *t = p->t;
    t->npoints = p->np;
    t->point_line = p->lines;
    p->lines = NULL;
    if (!track_build_polyline(t, p->px, p->py, p->name, err) || !track_build_grid(t, p->name, err) ||
        !track_check_geometry(t, p->name, err))
        return false;
    if (t->slots * t->grid_spacing > t->length / 2)
        return nr_error_set(err, "%s:%d: the start grid (%d slots every %g) is longer than half the track (%g)",
                            p->name, last, t->slots, t->grid_spacing, t->length);
    return true;
}

Track *track_parse(const char *text, const char *name, NrError *err)
{
    Parser p = {.name = name ? name : "track"};
    p.t = calloc(1, sizeof *p.t);
    if (!p.t) {
        nr_error_set(err, "%s: out of memory", p.name);
        return NULL;
    }
    const char *cur = text;
    char buf[TRACK_LINE_MAX];
    while (*cur) {
        p.line++;
        const char *nl = strchr(cur, '\n');
        size_t len = nl ? (size_t)(nl - cur) : strlen(cur);
        if (len >= sizeof buf) {
            nr_error_set(err, "%s:%d: line too long (at most %d characters)", p.name, p.line, TRACK_LINE_MAX - 1);
            return fail_parse(&p);
        }
        memcpy(buf, cur, len);
        buf[len] = '\0';
        cur += len + (nl ? 1 : 0);
        if (!parse_line(&p, buf, err))
            return fail_parse(&p);
    }
    int last = p.line > 0 ? p.line : 1;
    if (!check_complete(&p, last, err) || !build(&p, last, err))
        return fail_parse(&p);
    free(p.px);
    free(p.py);
    return p.t;
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
