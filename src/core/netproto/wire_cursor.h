/* The wire codec's little-endian cursor, shared by wire.c and wire_study.c
 * (internal: not part of wire.h's contract).
 *   put, get, put_f64, get_f64: fixed-width little-endian fields;
 *   put_text: a text field, NUL-padded to its width;
 *   get_text: a text field, NUL-terminated in its width, printable, zero
 *   after the terminator; false otherwise.
 * The caller has checked the buffer's size (wire.c's payload sizes). */
#ifndef NR_WIRE_CURSOR_H
#define NR_WIRE_CURSOR_H

#include "wire.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- little-endian cursor ------------------------------------------------ */

typedef struct Cur {
    uint8_t *w;       /* writing, or NULL */
    const uint8_t *r; /* reading */
    size_t pos;
} Cur;

static inline void put(Cur *c, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        c->w[c->pos++] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t get(Cur *c, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)c->r[c->pos++] << (8 * i);
    return v;
}

static inline void put_f64(Cur *c, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    put(c, u, 8);
}

static inline double get_f64(Cur *c)
{
    uint64_t u = get(c, 8);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static inline void put_text(Cur *c, const char *s, size_t field)
{
    size_t n = strnlen(s, field);
    memcpy(c->w + c->pos, s, n);
    memset(c->w + c->pos + n, 0, field - n);
    c->pos += field;
}

/* A text field: NUL-terminated inside the field, printable, zero after the
 * terminator (no hidden bytes). */
static inline bool get_text(Cur *c, char *out, size_t field)
{
    const uint8_t *p = c->r + c->pos;
    c->pos += field;
    const uint8_t *nul = memchr(p, 0, field);
    if (!nul)
        return false;
    size_t n = (size_t)(nul - p);
    for (size_t i = n; i < field; i++)
        if (p[i] != 0)
            return false;
    memcpy(out, p, n + 1);
    return nr_text_is_printable(out);
}

/* wire_study.c: WELCOME's study fields valid; STUDY's codec. */
bool wire_welcome_study_ok(const WireWelcome *w);
bool wire_study_encode(Cur *c, const WirePacket *p);
WireResult wire_study_decode(Cur *c, const WireCheck *chk, WirePacket *out);

#endif
