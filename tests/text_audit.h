/* The text audit's check, shared by the tests that draw a screen (issue 22:
 * "shorten, wrap or drop, never cut a glyph"): every string recorded while
 * drawing (gfx_audit_start) must lie inside the room it was drawn in (its
 * panel, button or strip, the clip rectangle, the window) and must not
 * overlap another visible string. Each fault is printed with the screen's
 * name, the string, its box and its room; the count is returned.
 *
 * Usage: GfxAudit *a = calloc(1, sizeof *a); gfx_audit_start(&gfx, a);
 * draw one frame; gfx_audit_stop(&gfx); bad += text_audit_faults(a, "name"). */
#ifndef NR_TEXT_AUDIT_H
#define NR_TEXT_AUDIT_H

#include "gfx.h"

#include <stdio.h>

/* Boxes of strings side by side may touch; they overlap when they share
 * more than this many pixels both ways (one pixel of rounding). */
#define TEXT_AUDIT_OVERLAP_PX 1

static inline bool text_audit_inside(SDL_Rect b, SDL_Rect r)
{
    return b.x >= r.x && b.y >= r.y && b.x + b.w <= r.x + r.w && b.y + b.h <= r.y + r.h;
}

static inline bool text_audit_overlap(SDL_Rect a, SDL_Rect b)
{
    int w = (a.x + a.w < b.x + b.w ? a.x + a.w : b.x + b.w) - (a.x > b.x ? a.x : b.x);
    int h = (a.y + a.h < b.y + b.h ? a.y + a.h : b.y + b.h) - (a.y > b.y ? a.y : b.y);
    return w > TEXT_AUDIT_OVERLAP_PX && h > TEXT_AUDIT_OVERLAP_PX;
}

static inline int text_audit_faults(const GfxAudit *a, const char *what)
{
    int bad = 0;
    if (a->dropped > 0) {
        fprintf(stderr, "%s: %d strings past the audit's capacity\n", what, a->dropped);
        bad++;
    }
    for (int i = 0; i < a->n; i++) {
        const GfxTextRec *r = &a->rec[i];
        if (r->hidden)
            continue;
        if (!text_audit_inside(r->box, r->room)) {
            if (bad < 400)
                fprintf(stderr, "%s: '%s' at %d,%d %dx%d leaves its room %d,%d %dx%d\n", what, r->text, r->box.x,
                        r->box.y, r->box.w, r->box.h, r->room.x, r->room.y, r->room.w, r->room.h);
            bad++;
        }
        for (int j = i + 1; j < a->n; j++) {
            const GfxTextRec *o = &a->rec[j];
            if (o->hidden || !text_audit_overlap(r->box, o->box))
                continue;
            if (bad < 400)
                fprintf(stderr, "%s: '%s' at %d,%d %dx%d overlaps '%s' at %d,%d %dx%d\n", what, r->text, r->box.x,
                        r->box.y, r->box.w, r->box.h, o->text, o->box.x, o->box.y, o->box.w, o->box.h);
            bad++;
        }
    }
    return bad;
}

#endif
