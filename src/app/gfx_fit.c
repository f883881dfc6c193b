/* Text that fits its room (gfx.h): the base text size of a screen and its
 * scale, the first of a string's shorter forms that fits, and the tests'
 * audit of every drawn string against the room it must stay in. */
#include "gfx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int gfx_base_px(int w, int h, double scale)
{
    int base = h / 42 < w / 72 ? h / 42 : w / 72;
    base = base < 10 ? 10 : base > 40 ? 40 : base;
    if (scale > 0 && scale != 1.0) {
        int most = h / 26 < w / 48 ? h / 26 : w / 48; /* the bars and a row of gauges still fit */
        base = (int)lround(base * scale);
        base = base > most ? (most > 10 ? most : 10) : base;
    }
    return base < 8 ? 8 : base;
}

/* The steps of a browser's zoom, so Ctrl +/- feels familiar. */
static const double scales[] = {0.5, 0.67, 0.75, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0};
enum { NSCALES = (int)(sizeof scales / sizeof scales[0]) };

double gfx_scale_step(double scale, int dir)
{
    if (dir == 0)
        return 1.0;
    if (dir > 0) {
        for (int i = 0; i < NSCALES; i++)
            if (scales[i] > scale + 1e-9)
                return scales[i];
        return GFX_SCALE_MAX;
    }
    for (int i = NSCALES - 1; i >= 0; i--)
        if (scales[i] < scale - 1e-9)
            return scales[i];
    return GFX_SCALE_MIN;
}

bool gfx_scale_key(double *scale, const SDL_KeyboardEvent *key)
{
    if (!(key->keysym.mod & KMOD_CTRL))
        return false;
    switch (key->keysym.sym) {
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        *scale = gfx_scale_step(*scale, +1);
        return true;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        *scale = gfx_scale_step(*scale, -1);
        return true;
    case SDLK_0:
    case SDLK_KP_0:
        *scale = 1.0;
        return true;
    default:
        return false;
    }
}

int gfx_fit(Gfx *g, int font, float max_w, const char *const *alts, int n)
{
    for (int i = 0; i < n; i++) {
        if (!alts[i])
            continue;
        int w, h;
        gfx_text_size(g, font, alts[i], &w, &h);
        if ((float)w <= max_w)
            return i;
    }
    return -1;
}

int gfx_text_fit(Gfx *g, int font, int x, int y, int align, SDL_Color c, float max_w, const char *const *alts,
                 int n)
{
    int i = gfx_fit(g, font, max_w, alts, n);
    return i < 0 ? 0 : gfx_text(g, font, x, y, align, c, "%s", alts[i]);
}

static SDL_Rect rect_cut(SDL_Rect a, SDL_Rect b)
{
    SDL_Rect r;
    if (!SDL_IntersectRect(&a, &b, &r))
        r = (SDL_Rect){a.x, a.y, 0, 0};
    return r;
}

void gfx_room_push(Gfx *g, float x, float y, float w, float h)
{
    SDL_Rect r = {(int)floorf(x), (int)floorf(y), (int)ceilf(w), (int)ceilf(h)};
    if (g->nroom > 0)
        r = rect_cut(r, g->room[g->nroom - 1]);
    if (g->nroom < GFX_ROOMS)
        g->room[g->nroom] = r;
    g->nroom++; /* past GFX_ROOMS: the deepest kept room stands for the rest */
}

void gfx_room_pop(Gfx *g)
{
    if (g->nroom > 0)
        g->nroom--;
}

void gfx_audit_start(Gfx *g, GfxAudit *a)
{
    g->audit = a;
    if (a) {
        a->n = 0;
        a->dropped = 0;
    }
}

void gfx_audit_stop(Gfx *g)
{
    g->audit = NULL;
}

void gfx_audit_text(Gfx *g, const SDL_Rect *box, const char *text)
{
    GfxAudit *a = g->audit;
    if (!a)
        return;
    if (a->n >= GFX_AUDIT_MAX) {
        a->dropped++;
        return;
    }
    SDL_Rect room;
    SDL_RenderGetViewport(g->r, &room);
    room.x = room.y = 0; /* drawing coordinates are the viewport's */
    if (SDL_RenderIsClipEnabled(g->r)) {
        SDL_Rect clip;
        SDL_RenderGetClipRect(g->r, &clip);
        room = rect_cut(room, clip);
    }
    if (g->nroom > 0)
        room = rect_cut(room, g->room[g->nroom > GFX_ROOMS ? GFX_ROOMS - 1 : g->nroom - 1]);
    GfxTextRec *r = &a->rec[a->n++];
    r->box = *box;
    r->room = room;
    r->hidden = false;
    snprintf(r->text, sizeof r->text, "%s", text);
}

void gfx_audit_cover(Gfx *g, float x, float y, float w, float h)
{
    GfxAudit *a = g->audit;
    if (!a)
        return;
    SDL_Rect c = {(int)floorf(x), (int)floorf(y), (int)ceilf(w), (int)ceilf(h)};
    for (int i = 0; i < a->n; i++)
        if (SDL_HasIntersection(&a->rec[i].box, &c))
            a->rec[i].hidden = true;
}

static bool fits(Gfx *g, int font, float max_w, const char *s);

int gfx_text_shrink(Gfx *g, int font, int x, int y, int align, SDL_Color c, float max_w, const char *text)
{
    for (int f = font; f >= GFX_SMALL; f--)
        if (fits(g, f, max_w, text))
            return gfx_text(g, f, x, y, align, c, "%s", text);
    char out[GFX_TEXT_MAX];
    gfx_ellipsize(g, GFX_SMALL, max_w, text, out, sizeof out);
    return out[0] ? gfx_text(g, GFX_SMALL, x, y, align, c, "%s", out) : 0;
}

static bool fits(Gfx *g, int font, float max_w, const char *s)
{
    int w, h;
    gfx_text_size(g, font, s, &w, &h);
    return (float)w <= max_w;
}

/* Bytes of the UTF-8 character starting at s (1 for a stray byte). */
static size_t utf8_len(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            return 1;
    return n;
}

int gfx_wrap(Gfx *g, int font, float max_w, const char *text, char (*out)[GFX_TEXT_MAX], int max_lines)
{
    int n = 0;
    const char *p = text;
    while (*p && n < max_lines) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char line[GFX_TEXT_MAX] = "";
        size_t len = 0, last_space = 0;
        const char *q = p, *after_space = NULL;
        while (*q) {
            size_t c = utf8_len(q);
            if (len + c >= sizeof line)
                break;
            memcpy(line + len, q, c);
            line[len + c] = '\0';
            if (!fits(g, font, max_w, line)) {
                line[len] = '\0';
                break;
            }
            len += c;
            q += c;
            if (*q == ' ') {
                last_space = len;
                after_space = q;
            }
        }
        if (*q && after_space && last_space > 0) { /* break at the last space that fits */
            line[last_space] = '\0';
            q = after_space;
        } else if (len == 0) { /* not even one character fits */
            break;
        }
        snprintf(out[n++], GFX_TEXT_MAX, "%s", line);
        p = q;
    }
    return n;
}

void gfx_ellipsize(Gfx *g, int font, float max_w, const char *text, char *out, size_t n)
{
    snprintf(out, n, "%s", text);
    if (fits(g, font, max_w, out))
        return;
    size_t len = strlen(text);
    /* keep a head and a tail of the text, shrinking both; the tail gets
     * the larger part (a file name says more than a folder) */
    for (size_t keep = len > 2 ? len - 1 : 0; keep > 0; keep--) {
        size_t head = keep / 3, tail = keep - head;
        while (head > 0 && ((unsigned char)text[head] & 0xC0) == 0x80)
            head--; /* never split a character */
        size_t from = len - tail;
        while (from < len && ((unsigned char)text[from] & 0xC0) == 0x80)
            from++;
        if (head + 3 + (len - from) + 1 > n)
            continue;
        snprintf(out, n, "%.*s…%s", (int)head, text, text + from);
        if (fits(g, font, max_w, out))
            return;
    }
    out[0] = '\0';
}

/* lines in font as they are, when each fits max_w and all fit max_h. */
static bool lines_as_they_are(Gfx *g, int font, float max_w, float max_h, const char *const *lines, int n,
                              GfxLines *out)
{
    float l = (float)gfx_line_h(g, font);
    if (n > GFX_LINES_MAX || l * (float)n > max_h)
        return false;
    out->font = font;
    out->line_h = l;
    out->w = 0;
    for (int i = 0; i < n; i++) {
        int w, h;
        gfx_text_size(g, font, lines[i], &w, &h);
        if ((float)w > max_w)
            return false;
        out->w = w > out->w ? w : out->w;
        snprintf(out->line[i], GFX_TEXT_MAX, "%s", lines[i]);
        out->src[i] = i;
    }
    out->n = n;
    return true;
}

bool gfx_fit_lines(Gfx *g, float max_w, float max_h, const char *const *lines, int n, GfxLines *out)
{
    memset(out, 0, sizeof *out);
    if (lines_as_they_are(g, GFX_NORMAL, max_w, max_h, lines, n, out) ||
        lines_as_they_are(g, GFX_SMALL, max_w, max_h, lines, n, out))
        return true;
    /* the small font, long lines wrapped, as many lines as fit */
    float l = (float)gfx_line_h(g, GFX_SMALL);
    int room = l > 0 ? (int)(max_h / l) : GFX_LINES_MAX;
    room = room > GFX_LINES_MAX ? GFX_LINES_MAX : room;
    out->font = GFX_SMALL;
    out->line_h = l;
    out->n = 0;
    out->w = 0;
    for (int i = 0; i < n && out->n < room; i++) {
        if (!lines[i][0]) { /* an empty line stays one */
            out->line[out->n][0] = '\0';
            out->src[out->n++] = i;
            continue;
        }
        int k = gfx_wrap(g, GFX_SMALL, max_w, lines[i], &out->line[out->n], room - out->n);
        for (int q = 0; q < k; q++) {
            int w, h;
            gfx_text_size(g, GFX_SMALL, out->line[out->n + q], &w, &h);
            out->w = w > out->w ? w : out->w;
            out->src[out->n + q] = i;
        }
        out->n += k;
    }
    return out->n > 0;
}
