/* Encoding and the one validating decoder of network packets (wire.h). */
#include "wire.h"
#include "recording.h"
#include "wire_cursor.h"

#include <string.h>

/* Payload sizes (docs/wire.md); the header is WIRE_HEADER_BYTES. */
enum {
    HELLO_BYTES = 4 + 4 + 8 + WIRE_TEXT,
    WELCOME_BYTES = 8 + 8 * 4 + 8 * 4 + WIRE_SCHEMES_TEXT + WIRE_TEXT + WIRE_SCHEMES_TEXT + 4 + 4 + 4,
    TRACK_BYTES = 4 * 4 + WIRE_TRACK_CHUNK,
    MU_BYTES = 6 * 4 + 8 + 12 * 8,
    SYNC_REQ_BYTES = 4 + 4 + 8,
    SYNC_RESP_BYTES = 4 + 4 + 3 * 8,
    CONTROL_BYTES = 4 + 4 + 8,
    VIEW_CAR_BYTES = 8 + 8 + 4 + 4,
    VIEW_BYTES = 4 + 4 + 8 + 8 + 4 + 4 + WIRE_VIEW_ENTRIES * VIEW_CAR_BYTES,
    PEERS_ENTRY_BYTES = 4 + 2 + 2 + 8,
    PEERS_BYTES = 1 + 1 + 2 + 4 + WIRE_MAX_CARS * PEERS_ENTRY_BYTES,
    PEER_BYTES = 1 + 1 + 1 + 1 + 4 + 8 + 8,
    STUDY_BYTES = 4 + 4 + 8 + WIRE_STUDY_ID + WIRE_STUDY_TEXT,
};

#define VIEW_MAX_PROGRESS 1e9 /* cw: far beyond any race, below overflow */

#define TRACK_MAX_BYTES (64u << 20) /* the track loader's own limit */
_Static_assert(TRACK_MAX_BYTES == WIRE_LOG_MAX_BYTES, "LOG has TRACK's layout and limit");

static bool finite_in(double v, double lo, double hi)
{
    return v >= lo && v <= hi; /* false for NaN */
}

/* ---- one encoder and one decoder per kind ------------------------------- */

/* Each writes or reads its kind's payload after the header (docs/wire.md),
 * field by field in wire order. An encoder returns false when a field
 * cannot be encoded; a decoder stops at the first failure, which it
 * returns (wire.h), so reserved bytes are checked before the fields that
 * follow them, as the table of docs/wire.md "Validation" orders them. */

static bool encode_hello(Cur *c, const WirePacket *p)
{
    const WireHello *h = &p->u.hello;
    if (strnlen(h->name, WIRE_TEXT) >= WIRE_TEXT)
        return false;
    put(c, h->proto, 4);
    put(c, 0, 4);
    put(c, h->nonce, 8);
    put_text(c, h->name, WIRE_TEXT);
    return true;
}

static WireResult decode_hello(Cur *c, const WireCheck *chk, WirePacket *out)
{
    (void)chk;
    WireHello *h = &out->u.hello;
    h->proto = (uint32_t)get(c, 4);
    if (get(c, 4) != 0)
        return WIRE_BAD_RESERVED;
    h->nonce = get(c, 8);
    if (!get_text(c, h->name, WIRE_TEXT) || h->proto != WIRE_VERSION)
        return WIRE_BAD_FIELD;
    return WIRE_OK;
}

static bool encode_welcome(Cur *c, const WirePacket *p)
{
    const WireWelcome *w = &p->u.welcome;
    if (strnlen(w->schemes, WIRE_SCHEMES_TEXT) >= WIRE_SCHEMES_TEXT || strnlen(w->track_file, WIRE_TEXT) >= WIRE_TEXT ||
        strnlen(w->peer_link, WIRE_SCHEMES_TEXT) >= WIRE_SCHEMES_TEXT)
        return false;
    put(c, w->nonce, 8);
    put(c, (uint32_t)w->car, 4);
    put(c, (uint32_t)w->ncars, 4);
    put(c, (uint32_t)w->period_ms, 4);
    put(c, (uint32_t)w->laps, 4);
    put(c, (uint32_t)w->seconds_ms, 4);
    put(c, (uint32_t)w->shown_scheme, 4);
    put(c, w->track_bytes, 4);
    put(c, w->topology, 1);
    put(c, w->server, 1);
    put(c, 0, 2);
    put(c, (uint64_t)w->delta_us, 8);
    put_f64(c, w->tdr_cw);
    put(c, (uint64_t)w->converge_us, 8);
    put(c, w->seed, 8);
    put_text(c, w->schemes, WIRE_SCHEMES_TEXT);
    put_text(c, w->track_file, WIRE_TEXT);
    put_text(c, w->peer_link, WIRE_SCHEMES_TEXT);
    put(c, (uint32_t)w->study_race, 4);
    put(c, (uint32_t)w->study_races, 4);
    put(c, w->study_flags, 1);
    put(c, w->study_nq, 1);
    put(c, w->study_given, 1);
    put(c, 0, 1);
    return true;
}

static WireResult decode_welcome(Cur *c, const WireCheck *chk, WirePacket *out)
{
    (void)chk;
    WireWelcome *w = &out->u.welcome;
    w->nonce = get(c, 8);
    w->car = (int32_t)get(c, 4);
    w->ncars = (int32_t)get(c, 4);
    w->period_ms = (int32_t)get(c, 4);
    w->laps = (int32_t)get(c, 4);
    w->seconds_ms = (int32_t)get(c, 4);
    w->shown_scheme = (int32_t)get(c, 4);
    w->track_bytes = (uint32_t)get(c, 4);
    w->topology = (uint8_t)get(c, 1);
    w->server = (uint8_t)get(c, 1);
    if (get(c, 2) != 0)
        return WIRE_BAD_RESERVED;
    w->delta_us = (int64_t)get(c, 8);
    w->tdr_cw = get_f64(c);
    w->converge_us = (int64_t)get(c, 8);
    w->seed = get(c, 8);
    bool ok = get_text(c, w->schemes, WIRE_SCHEMES_TEXT) && w->schemes[0] != '\0';
    /* the track file's name, as a recording names it (no folder) */
    ok = ok && get_text(c, w->track_file, WIRE_TEXT) && !strchr(w->track_file, '/');
    ok &= w->ncars >= 2 && w->ncars <= WIRE_MAX_CARS && w->car >= 0 && w->car < w->ncars;
    ok &= w->topology <= 1 && w->server <= 1 && (w->topology == 1 || w->server == 0);
    ok &= w->period_ms >= 1 && w->period_ms <= 1000;
    ok &= w->laps >= 0 && w->laps <= 1000 && w->seconds_ms >= 0 && w->seconds_ms <= 3600 * 1000;
    ok &= w->laps > 0 || w->seconds_ms > 0;
    ok &= w->shown_scheme >= 0 && w->shown_scheme < SCHEME_MAX;
    ok &= w->track_bytes >= 1 && w->track_bytes <= TRACK_MAX_BYTES;
    ok &= w->delta_us >= 0 && w->delta_us <= SCHEME_DELTA_MAX_US;
    ok &= finite_in(w->tdr_cw, 0.0, 1000.0);
    ok &= w->converge_us >= 0 && w->converge_us <= 10 * NR_US_PER_S;
    ok = ok && get_text(c, w->peer_link, WIRE_SCHEMES_TEXT);
    w->study_race = (int32_t)get(c, 4);
    w->study_races = (int32_t)get(c, 4);
    w->study_flags = (uint8_t)get(c, 1);
    w->study_nq = (uint8_t)get(c, 1);
    w->study_given = (uint8_t)get(c, 1);
    if (get(c, 1) != 0)
        return WIRE_BAD_RESERVED;
    ok &= wire_welcome_study_ok(w);
    return ok ? WIRE_OK : WIRE_BAD_FIELD;
}

static bool encode_track(Cur *c, const WirePacket *p)
{
    const WireTrack *t = &p->u.track;
    if (t->n > WIRE_TRACK_CHUNK)
        return false;
    put(c, t->offset, 4);
    put(c, t->total, 4);
    put(c, t->n, 4);
    put(c, 0, 4);
    memcpy(c->w + c->pos, t->data, t->n);
    memset(c->w + c->pos + t->n, 0, WIRE_TRACK_CHUNK - t->n);
    c->pos += WIRE_TRACK_CHUNK;
    return true;
}

uint32_t wire_chunk_bytes(uint32_t total, uint32_t offset)
{
    return total - offset < WIRE_TRACK_CHUNK ? total - offset : WIRE_TRACK_CHUNK;
}

void wire_chunk(WirePacket *p, WireKind kind, const char *text, uint32_t total, uint32_t offset)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->u.track.offset = offset;
    p->u.track.total = total;
    p->u.track.n = wire_chunk_bytes(total, offset);
    memcpy(p->u.track.data, text + offset, p->u.track.n);
}

static WireResult decode_track(Cur *c, const WireCheck *chk, WirePacket *out)
{
    (void)chk;
    WireTrack *t = &out->u.track;
    t->offset = (uint32_t)get(c, 4);
    t->total = (uint32_t)get(c, 4);
    t->n = (uint32_t)get(c, 4);
    if (get(c, 4) != 0)
        return WIRE_BAD_RESERVED;
    const uint8_t *d = c->r + c->pos;
    c->pos += WIRE_TRACK_CHUNK;
    if (t->n < 1 || t->n > WIRE_TRACK_CHUNK || t->total < 1 || t->total > TRACK_MAX_BYTES ||
        t->offset > t->total - t->n || memchr(d, 0, t->n))
        return WIRE_BAD_FIELD;
    for (size_t i = t->n; i < WIRE_TRACK_CHUNK; i++)
        if (d[i] != 0)
            return WIRE_BAD_RESERVED;
    memcpy(t->data, d, t->n);
    return WIRE_OK;
}

static bool encode_mu(Cur *c, const WirePacket *p)
{
    const Mu *m = &p->u.mu.mu;
    put(c, (uint32_t)m->car, 4);
    put(c, (uint32_t)m->seq, 4);
    put(c, (uint32_t)m->kind, 4);
    put(c, (uint32_t)m->nbytes, 4);
    put(c, p->u.mu.schemes, 4);
    put(c, 0, 4);
    put(c, (uint64_t)m->gen_us, 8);
    const double v[6] = {m->x, m->y, m->heading, m->speed, m->vx, m->vy};
    for (int i = 0; i < 6; i++)
        put_f64(c, v[i]);
    for (int i = 0; i < 6; i++)
        put_f64(c, m->aux[i]);
    return true;
}

static WireResult decode_mu(Cur *c, const WireCheck *chk, WirePacket *out)
{
    Mu *m = &out->u.mu.mu;
    m->car = (int32_t)get(c, 4);
    m->seq = (int32_t)get(c, 4);
    m->kind = (int32_t)get(c, 4);
    m->nbytes = (int32_t)get(c, 4);
    out->u.mu.schemes = (uint32_t)get(c, 4);
    if (get(c, 4) != 0)
        return WIRE_BAD_RESERVED;
    m->gen_us = (int64_t)get(c, 8);
    m->x = get_f64(c);
    m->y = get_f64(c);
    m->heading = get_f64(c);
    m->speed = get_f64(c);
    m->vx = get_f64(c);
    m->vy = get_f64(c);
    for (int i = 0; i < 6; i++)
        m->aux[i] = get_f64(c);
    uint32_t all = chk->nschemes >= 32 ? UINT32_MAX : (UINT32_C(1) << chk->nschemes) - 1;
    if (out->u.mu.schemes == 0 || (out->u.mu.schemes & ~all) != 0)
        return WIRE_BAD_FIELD;
    int64_t window = chk->window_us > 0 ? chk->window_us : MU_WINDOW_DEFAULT_US;
    out->mu_check = mu_validate(m, chk->ncars, chk->own_car, chk->now_us, window);
    return out->mu_check == MU_OK ? WIRE_OK : WIRE_BAD_MU;
}

/* SYNC_REQ and SYNC_RESP: the response adds the server's two stamps. */
static bool encode_sync(Cur *c, const WirePacket *p)
{
    put(c, p->u.sync.id, 4);
    put(c, 0, 4);
    put(c, (uint64_t)p->u.sync.t1_us, 8);
    if (p->kind == WIRE_SYNC_RESP) {
        put(c, (uint64_t)p->u.sync.t2_us, 8);
        put(c, (uint64_t)p->u.sync.t3_us, 8);
    }
    return true;
}

static WireResult decode_sync(Cur *c, const WireCheck *chk, WirePacket *out)
{
    (void)chk;
    WireSync *s = &out->u.sync;
    s->id = (uint32_t)get(c, 4);
    if (get(c, 4) != 0)
        return WIRE_BAD_RESERVED;
    s->t1_us = (int64_t)get(c, 8);
    s->t2_us = s->t3_us = 0;
    if (out->kind == WIRE_SYNC_RESP) {
        s->t2_us = (int64_t)get(c, 8);
        s->t3_us = (int64_t)get(c, 8);
        /* The server's turnaround: not negative, under ten seconds
         * (the difference taken unsigned: t3 - t2 of far-apart stamps
         * overflowed int64, found by the fuzzer). */
        if (s->t3_us < s->t2_us || (uint64_t)s->t3_us - (uint64_t)s->t2_us > (uint64_t)(10 * NR_US_PER_S))
            return WIRE_BAD_FIELD;
    }
    return WIRE_OK;
}

static bool encode_control(Cur *c, const WirePacket *p)
{
    put(c, (uint32_t)p->u.control.code, 4);
    put(c, 0, 4);
    put(c, (uint64_t)p->u.control.arg_us, 8);
    return true;
}

static WireResult decode_control(Cur *c, const WireCheck *chk, WirePacket *out)
{
    (void)chk;
    WireControl *k = &out->u.control;
    k->code = (int32_t)get(c, 4);
    if (get(c, 4) != 0)
        return WIRE_BAD_RESERVED;
    k->arg_us = (int64_t)get(c, 8);
    return k->code >= 1 && k->code < WIRE_CONTROL_END ? WIRE_OK : WIRE_BAD_FIELD;
}

/* The entries a VIEW part carries: count schemes of ncars cars. */
static int view_entries(const WireView *v)
{
    return (int)v->count * (int)v->ncars;
}

/* VIEW: the entries after the part's are all zero. */
static bool encode_view(Cur *c, const WirePacket *p)
{
    const WireView *v = &p->u.view;
    int used = view_entries(v);
    if (v->nschemes < 1 || v->nschemes > SCHEME_MAX || used < 1 || used > WIRE_VIEW_ENTRIES)
        return false;
    put(c, (uint32_t)v->seq, 4);
    put(c, (uint32_t)v->nschemes, 4);
    put(c, (uint64_t)v->t_us, 8);
    put_f64(c, v->progress);
    put(c, v->mu_sent, 4);
    put(c, v->car, 1);
    put(c, v->ncars, 1);
    put(c, v->first, 1);
    put(c, v->count, 1);
    for (int i = 0; i < WIRE_VIEW_ENTRIES; i++) {
        put_f64(c, i < used ? v->e[i].x : 0.0);
        put_f64(c, i < used ? v->e[i].y : 0.0);
        put(c, i < used ? (uint32_t)v->e[i].seq : 0, 4);
        put(c, 0, 4);
    }
    return true;
}

/* VIEW: the scheme count and cars are the session's, the viewing car
 * another's than the receiver's, the part within the scheme list, the
 * instant within the MU window of the receiver's clock, positions as
 * mu_validate bounds them, a shown sample not after the view's own;
 * entries after the part's are zero. */
static WireResult decode_view(Cur *c, const WireCheck *chk, WirePacket *out)
{
    WireView *v = &out->u.view;
    v->seq = (int32_t)get(c, 4);
    v->nschemes = (int32_t)get(c, 4);
    v->t_us = (int64_t)get(c, 8);
    v->progress = get_f64(c);
    v->mu_sent = (uint32_t)get(c, 4);
    v->car = (uint8_t)get(c, 1);
    v->ncars = (uint8_t)get(c, 1);
    v->first = (uint8_t)get(c, 1);
    v->count = (uint8_t)get(c, 1);
    int64_t window = chk->window_us > 0 ? chk->window_us : MU_WINDOW_DEFAULT_US;
    bool ok = v->seq >= 0 && v->nschemes == chk->nschemes && v->nschemes >= 1 && v->nschemes <= SCHEME_MAX;
    ok &= v->ncars == chk->ncars && v->car < v->ncars && (int)v->car != chk->own_car;
    ok &= v->count >= 1 && v->first + v->count <= v->nschemes && view_entries(v) <= WIRE_VIEW_ENTRIES;
    /* unsigned distance: t_us - now_us of far-apart stamps would overflow */
    uint64_t dt = v->t_us >= chk->now_us ? (uint64_t)v->t_us - (uint64_t)chk->now_us
                                         : (uint64_t)chk->now_us - (uint64_t)v->t_us;
    ok &= dt <= (uint64_t)window && finite_in(v->progress, -VIEW_MAX_PROGRESS, VIEW_MAX_PROGRESS);
    int used = ok ? view_entries(v) : 0;
    bool zero = true;
    for (int i = 0; i < WIRE_VIEW_ENTRIES; i++) {
        WireViewCar *w = &v->e[i];
        w->x = get_f64(c);
        w->y = get_f64(c);
        w->seq = (int32_t)get(c, 4);
        uint64_t pad = get(c, 4);
        if (i >= used) {
            uint64_t xb, yb;
            memcpy(&xb, &w->x, 8);
            memcpy(&yb, &w->y, 8);
            zero &= xb == 0 && yb == 0 && w->seq == 0 && pad == 0;
            continue;
        }
        zero &= pad == 0;
        ok &= finite_in(w->x, -RECORDING_MAX_POS, RECORDING_MAX_POS) &&
              finite_in(w->y, -RECORDING_MAX_POS, RECORDING_MAX_POS) && w->seq >= -1 && w->seq <= v->seq;
    }
    if (!ok)
        return WIRE_BAD_FIELD;
    return zero ? WIRE_OK : WIRE_BAD_RESERVED;
}

/* PEERS: each entry the address (4 bytes of IPv4 and 2 of port, network
 * order, as the socket layer keeps them), 2 zero bytes, the nonce. */
static bool encode_peers(Cur *c, const WirePacket *p)
{
    const WirePeers *w = &p->u.peers;
    put(c, w->go, 1);
    put(c, w->ncars, 1);
    put(c, 0, 2);
    put(c, 0, 4);
    for (int k = 0; k < WIRE_MAX_CARS; k++) {
        memcpy(c->w + c->pos, &w->addr[k].host, 4);
        memcpy(c->w + c->pos + 4, &w->addr[k].port, 2);
        c->pos += 6;
        put(c, 0, 2);
        put(c, w->nonce[k], 8);
    }
    return true;
}

/* PEERS: a race of 3 to 8 cars; every joiner's entry an address (host and
 * port not 0, each once) and a nonce (not 0); the host's entry and those
 * past the race's cars zero. */
static WireResult decode_peers(Cur *c, const WireCheck *chk, WirePacket *out)
{
    (void)chk;
    WirePeers *w = &out->u.peers;
    w->go = (uint8_t)get(c, 1);
    w->ncars = (uint8_t)get(c, 1);
    if (get(c, 2) != 0 || get(c, 4) != 0)
        return WIRE_BAD_RESERVED;
    bool ok = w->go <= 1 && w->ncars >= 3 && w->ncars <= WIRE_MAX_CARS, zero = true;
    for (int k = 0; k < WIRE_MAX_CARS; k++) {
        memcpy(&w->addr[k].host, c->r + c->pos, 4);
        memcpy(&w->addr[k].port, c->r + c->pos + 4, 2);
        c->pos += 6;
        zero &= get(c, 2) == 0;
        w->nonce[k] = get(c, 8);
        bool joiner = ok && k >= 1 && k < w->ncars;
        if (!joiner) {
            zero &= w->addr[k].host == 0 && w->addr[k].port == 0 && w->nonce[k] == 0;
            continue;
        }
        ok &= w->addr[k].host != 0 && w->addr[k].port != 0 && w->nonce[k] != 0;
        for (int j = 1; j < k; j++)
            ok &= !netaddr_equal(&w->addr[j], &w->addr[k]);
    }
    if (!ok)
        return WIRE_BAD_FIELD;
    return zero ? WIRE_OK : WIRE_BAD_RESERVED;
}

static bool encode_peer(Cur *c, const WirePacket *p)
{
    const WirePeer *w = &p->u.peer;
    put(c, w->step, 1);
    put(c, w->from, 1);
    put(c, w->to, 1);
    put(c, 0, 1);
    put(c, 0, 4);
    put(c, w->challenge, 8);
    put(c, w->cookie, 8);
    return true;
}

/* PEER: a step 1-4 between two joiners (cars 1..WIRE_MAX_CARS-1, not the
 * same), a challenge, a cookie in steps 2 and 3 only. */
static WireResult decode_peer(Cur *c, const WireCheck *chk, WirePacket *out)
{
    (void)chk;
    WirePeer *w = &out->u.peer;
    w->step = (uint8_t)get(c, 1);
    w->from = (uint8_t)get(c, 1);
    w->to = (uint8_t)get(c, 1);
    if (get(c, 1) != 0 || get(c, 4) != 0)
        return WIRE_BAD_RESERVED;
    w->challenge = get(c, 8);
    w->cookie = get(c, 8);
    bool ok = w->step >= 1 && w->step <= 4 && w->from >= 1 && w->from < WIRE_MAX_CARS && w->to >= 1 &&
              w->to < WIRE_MAX_CARS && w->from != w->to && w->challenge != 0;
    ok &= (w->step == 2 || w->step == 3) == (w->cookie != 0);
    return ok ? WIRE_OK : WIRE_BAD_FIELD;
}

/* The kinds, indexed by WireKind: payload size, encoder, decoder. */
typedef struct KindCodec {
    size_t payload; /* bytes after the header */
    bool (*encode)(Cur *c, const WirePacket *p);
    WireResult (*decode)(Cur *c, const WireCheck *chk, WirePacket *out);
} KindCodec;

static const KindCodec codecs[WIRE_KIND_END] = {
    [WIRE_HELLO] = {HELLO_BYTES, encode_hello, decode_hello},
    [WIRE_WELCOME] = {WELCOME_BYTES, encode_welcome, decode_welcome},
    [WIRE_TRACK] = {TRACK_BYTES, encode_track, decode_track},
    [WIRE_MU] = {MU_BYTES, encode_mu, decode_mu},
    [WIRE_SYNC_REQ] = {SYNC_REQ_BYTES, encode_sync, decode_sync},
    [WIRE_SYNC_RESP] = {SYNC_RESP_BYTES, encode_sync, decode_sync},
    [WIRE_CONTROL] = {CONTROL_BYTES, encode_control, decode_control},
    [WIRE_VIEW] = {VIEW_BYTES, encode_view, decode_view},
    [WIRE_PEERS] = {PEERS_BYTES, encode_peers, decode_peers},
    [WIRE_PEER] = {PEER_BYTES, encode_peer, decode_peer},
    [WIRE_STUDY] = {STUDY_BYTES, wire_study_encode, wire_study_decode},
    [WIRE_LOG] = {TRACK_BYTES, encode_track, decode_track}, /* a text in chunks, as the track: p->u.track */
};

/* The kind's codec; NULL for a value that is not a kind. */
static const KindCodec *codec_of(WireKind kind)
{
    if (kind < 1 || kind >= WIRE_KIND_END)
        return NULL;
    return &codecs[kind];
}

size_t wire_size(WireKind kind)
{
    const KindCodec *k = codec_of(kind);
    return k ? WIRE_HEADER_BYTES + k->payload : 0;
}

/* ---- the packet ---------------------------------------------------------- */

size_t wire_encode(const WirePacket *p, uint8_t *buf, size_t cap)
{
    const KindCodec *k = codec_of(p->kind);
    size_t size = wire_size(p->kind);
    if (!k || cap < size)
        return 0;
    Cur c = {buf, NULL, 0};
    memcpy(buf, WIRE_MAGIC, 4);
    c.pos = 4;
    put(&c, WIRE_VERSION, 1);
    put(&c, (uint64_t)p->kind, 1);
    put(&c, size, 2);
    put(&c, p->token, 8);
    put(&c, p->pkt_seq, 4);
    put(&c, 0, 4);
    return k->encode(&c, p) ? c.pos : 0;
}

WireResult wire_decode(const uint8_t *buf, size_t n, const WireCheck *chk, WirePacket *out)
{
    memset(out, 0, sizeof *out);
    if (n < WIRE_HEADER_BYTES)
        return WIRE_SHORT;
    if (n > WIRE_MAX_BYTES)
        return WIRE_OVERSIZED;
    if (memcmp(buf, WIRE_MAGIC, 4) != 0)
        return WIRE_BAD_MAGIC;
    Cur c = {NULL, buf, 4};
    if (get(&c, 1) != WIRE_VERSION)
        return WIRE_BAD_VERSION;
    uint64_t kind = get(&c, 1);
    if (kind < 1 || kind >= WIRE_KIND_END)
        return WIRE_BAD_KIND;
    out->kind = (WireKind)kind;
    size_t len = (size_t)get(&c, 2);
    if (len != n || len != wire_size(out->kind))
        return WIRE_BAD_LENGTH;
    out->token = get(&c, 8);
    out->pkt_seq = (uint32_t)get(&c, 4);
    if (get(&c, 4) != 0)
        return WIRE_BAD_RESERVED;
    bool token_ok = out->kind == WIRE_HELLO ? (chk->accept_hello && out->token == 0)
                                            : (chk->token != 0 && out->token == chk->token);
    if (!token_ok)
        return WIRE_BAD_TOKEN;
    return codec_of(out->kind)->decode(&c, chk, out);
}

const char *wire_result_name(WireResult r)
{
    static const char *const names[WIRE_RESULT_COUNT] = {
        "ok", "short", "oversized", "magic", "version", "kind", "length", "reserved", "token", "field", "mu",
    };
    return r >= 0 && r < WIRE_RESULT_COUNT ? names[r] : "?";
}
