/* The wire format of network play: every packet two terminals exchange,
 * encoded and decoded in one place (DESIGN.md "Network play"; byte by byte
 * in docs/wire.md).
 *
 * A packet is a 24-byte header and a fixed-size payload per kind, all
 * little-endian. Header: magic "NRC1", version, kind, total length, the
 * session token (0 only in HELLO), the sender's packet counter, four
 * reserved zero bytes. Doubles travel as their IEEE-754 bits.
 *
 * Received bytes are hostile. wire_decode checks, in this order: the size
 * (at least a header, at most WIRE_MAX_BYTES), the magic, the version, the
 * kind, that the length field equals both the datagram's size and the
 * kind's size, the reserved bytes, the token, then every payload field: text
 * fields NUL-terminated and printable, numbers finite and in range, car ids
 * in range; an MU payload passes mu_validate (mu.h), the one boundary every
 * received MU crosses. The first failed check is the result; nothing is
 * read past n bytes and nothing of a rejected packet is trusted.
 *
 * Contracts:
 *   wire_encode(p, buf, cap)  writes p (its kind, token, pkt_seq and payload)
 *        into buf; returns the byte count (the kind's fixed size), 0 when cap
 *        is too small, the kind unknown, or a text field does not fit.
 *   wire_decode(buf, n, chk, out)  WIRE_OK and *out filled, or the reason
 *        (out->mu_check says which MU check failed for WIRE_BAD_MU).
 *   wire_result_name(r)       short name ("magic", "token", ...) for logs.
 *   wire_size(kind)           a kind's packet size in bytes, 0 if unknown.
 *   wire_chunk(p, kind, text, total, offset)  p made the TRACK or LOG
 *        packet (kind) of a text of total bytes that carries its chunk at
 *        offset (a multiple of WIRE_TRACK_CHUNK below total): the track a
 *        host sends, the log a study's joiner sends; token and pkt_seq 0.
 *   wire_chunk_bytes(total, offset)  that chunk's size: the rest of the
 *        text, at most WIRE_TRACK_CHUNK.
 */
#ifndef NR_WIRE_H
#define NR_WIRE_H

#include "mu.h"
#include "netaddr.h"
#include "terminal.h"

#define WIRE_MAGIC "NRC1"
#define WIRE_VERSION 7 /* 2: PAUSE goes both ways and means "I stand at race time arg" (docs/netplay.md "Pause");
                          3: sealed datagrams (wirecrypt.h);
                          4: races of N cars (WELCOME's cars and topology, VIEW in parts, FULL);
                          5: the address cookie (key answer, sealed HELLO); peer-to-peer races of N cars
                             (PEERS, PEER, CONTROL INTRODUCED);
                          6: studies (WELCOME's study fields and the joiner's link, STUDY);
                          7: a study race's joiner log to the host (LOG, STUDY LOG_ACK / LOG_NONE,
                             WELCOME's study flag LOG) */
#define WIRE_HEADER_BYTES 24
#define WIRE_MAX_BYTES 1400 /* below every Ethernet path MTU */
#define WIRE_TEXT 64        /* name fields */
#define WIRE_SCHEMES_TEXT 256
#define WIRE_TRACK_CHUNK 1024
#define WIRE_MAX_CARS 8     /* cars of one race (SCHEME_MAX_CARS) */
#define WIRE_VIEW_ENTRIES 48 /* (scheme, car) entries in one VIEW: 24 schemes of 2 cars, 6 of 8 */
#define WIRE_STUDY_QUESTIONS 8 /* questions of a study race (STUDY_MAX_QUESTIONS) */
#define WIRE_STUDY_ID 24       /* a question's id (STUDY_LABEL_MAX) */
#define WIRE_STUDY_TEXT 160    /* a question's text (STUDY_TEXT_MAX) */
#define WIRE_STUDY_RACES 1024  /* races of one study session, at most */
#define WIRE_LOG_MAX_BYTES (64u << 20) /* a joiner's log sent to the host (LOG), at most */

typedef enum WireKind {
    WIRE_HELLO = 1,     /* joiner -> host: let me in */
    WIRE_WELCOME = 2,   /* host -> joiner: your car, the race settings */
    WIRE_TRACK = 3,     /* host -> joiner: a chunk of the track file */
    WIRE_MU = 4,        /* a media unit, tagged with the schemes that send it */
    WIRE_SYNC_REQ = 5,  /* clock probe: t1 */
    WIRE_SYNC_RESP = 6, /* clock reply: t1 echoed, t2, t3 */
    WIRE_CONTROL = 7,   /* ready, start, pause, resume, finish, bye */
    WIRE_VIEW = 8,      /* what each scheme displays at a sample: live metrics */
    WIRE_PEERS = 9,     /* host -> joiner of a p2p race of N: every joiner's address and nonce */
    WIRE_PEER = 10,     /* joiner <-> joiner: the pair's reachability proof (the cookie round trip) */
    WIRE_STUDY = 11,    /* a study race's questions and answers (docs/studies.md "Over the network") */
    WIRE_LOG = 12,      /* joiner -> host of a study race: a chunk of the joiner's terminal log (TRACK's layout) */
    WIRE_KIND_END
} WireKind;

typedef enum WireControlCode {
    WIRE_READY = 1,
    WIRE_START = 2, /* arg_us: the synchronised instant of the start */
    WIRE_PAUSE = 3,
    WIRE_RESUME = 4,
    WIRE_FINISH = 5, /* arg_us: the sender's race time at its finish */
    WIRE_BYE = 6,
    WIRE_FULL = 7, /* server / host -> a sealed HELLO: every seat taken; arg_us: the seats */
    WIRE_INTRODUCED = 8, /* joiner -> host of a p2p race of N: it has the PEERS table; arg_us 0 */
    WIRE_CONTROL_END
} WireControlCode;

/* WELCOME's study_flags. */
enum { WIRE_STUDY_PRACTICE = 1, WIRE_STUDY_RATED = 2, WIRE_STUDY_BLIND = 4, WIRE_STUDY_RATE_ONLY = 8,
       WIRE_STUDY_LOG = 16, /* the host wants the joiner's log of this race (LOG packets) */
       WIRE_STUDY_BREAK = 32 /* a plan's break before this race: it starts once both players rested */ };

typedef enum WireStudyOp {
    WIRE_STUDY_QUESTION = 1, /* host -> joiner, with WELCOME: question `index` of the race */
    WIRE_STUDY_ANSWER = 2,   /* joiner -> host: its player's answer to `index`, until acknowledged */
    WIRE_STUDY_ACK = 3,      /* host -> joiner: the answer to `index` is kept */
    WIRE_STUDY_DONE = 4,     /* joiner -> host: every answer given; value: its player's marks; until BYE */
    WIRE_STUDY_LOG_ACK = 5,  /* host -> joiner: value: the bytes of the joiner's log kept, in order */
    WIRE_STUDY_LOG_NONE = 6, /* joiner -> host: it has no log of this race to send; until BYE */
    WIRE_STUDY_OP_END
} WireStudyOp;

typedef enum WireResult {
    WIRE_OK = 0,
    WIRE_SHORT,        /* fewer bytes than a header */
    WIRE_OVERSIZED,    /* more than WIRE_MAX_BYTES */
    WIRE_BAD_MAGIC,
    WIRE_BAD_VERSION,
    WIRE_BAD_KIND,
    WIRE_BAD_LENGTH,   /* length field, datagram size and kind disagree */
    WIRE_BAD_RESERVED, /* a reserved byte is not zero */
    WIRE_BAD_TOKEN,
    WIRE_BAD_FIELD,    /* a payload field out of its range */
    WIRE_BAD_MU,       /* an MU that mu_validate refuses */
    WIRE_RESULT_COUNT
} WireResult;

typedef struct WireHello {
    uint32_t proto;       /* WIRE_VERSION the joiner speaks */
    uint64_t nonce;       /* the joiner's random number, echoed in WELCOME */
    char name[WIRE_TEXT]; /* the joiner's name, printable */
} WireHello;

typedef struct WireWelcome {
    uint64_t nonce;        /* HELLO's nonce */
    int32_t car;           /* the joiner's car (0-based) */
    int32_t ncars;         /* 2..WIRE_MAX_CARS */
    uint8_t topology;      /* 0 p2p (host and joiner), 1 cs (through `netrace serve`) */
    uint8_t server;        /* cs: 0 relay, 1 sync (route.h RouteServer) */
    int32_t period_ms;     /* 1..1000 */
    int64_t delta_us;      /* 0..SCHEME_DELTA_MAX_US */
    double tdr_cw;         /* finite, >= 0 */
    int64_t converge_us;   /* 0..10 s */
    uint64_t seed;
    int32_t laps;          /* 0 = a race of seconds_ms */
    int32_t seconds_ms;    /* 0 = a race of laps */
    int32_t shown_scheme;  /* index into schemes shown on the players' screens */
    uint32_t track_bytes;  /* size of the track text that follows in TRACK chunks */
    char schemes[WIRE_SCHEMES_TEXT]; /* comma list, the order of MU masks */
    char track_file[WIRE_TEXT]; /* the host's track file name, no folder ("" unknown): the logs' */
    /* the emulated link the joiner puts on what it sends, canonical netem
     * text ("": its own --link); a study gives each race's */
    char peer_link[WIRE_SCHEMES_TEXT];
    int32_t study_race;    /* a study's race 1..study_races; 0: not a study race (then every study field 0) */
    int32_t study_races;
    uint8_t study_flags;   /* WIRE_STUDY_PRACTICE or WIRE_STUDY_RATED, and WIRE_STUDY_BLIND; RATE_ONLY (rated):
                              the race was driven before (a resumed session): no race, its ratings only */
    uint8_t study_nq;      /* a rated race: the questions (STUDY packets) that follow, 1..WIRE_STUDY_QUESTIONS */
    uint8_t study_given;   /* bit i: the joiner's answer to question i is kept already (a resumed session) */
} WireWelcome;

typedef struct WireTrack {
    uint32_t offset, total; /* this chunk's place in the track text */
    uint32_t n;             /* bytes in data, 1..WIRE_TRACK_CHUNK */
    char data[WIRE_TRACK_CHUNK];
} WireTrack;

typedef struct WireMu {
    Mu mu;
    uint32_t schemes; /* bit k: scheme k of the session's list sends this MU */
} WireMu;

typedef struct WireSync {
    uint32_t id;     /* probe number */
    int64_t t1_us;   /* client clock at sending the probe */
    int64_t t2_us;   /* server clock at receiving it (reply only) */
    int64_t t3_us;   /* server clock at sending the reply (reply only) */
} WireSync;

/* A study race's question, answer, acknowledgement or end (WireStudyOp). */
typedef struct WireStudy {
    uint8_t op;
    uint8_t index;         /* QUESTION, ANSWER, ACK: the question, 0-based */
    uint8_t qkind;         /* QUESTION: 0 five-grade ACR (5 Excellent .. 1 Bad), 1 yes / no */
    int8_t score;          /* ANSWER: 1..5, or 1 yes / 0 no */
    int32_t race;          /* WELCOME's study_race */
    int64_t value;         /* ANSWER: response ms (-1: not measured, else up to a day); DONE: marks */
    char id[WIRE_STUDY_ID];     /* QUESTION: as in ratings.csv */
    char text[WIRE_STUDY_TEXT]; /* QUESTION: what the rating screen asks */
} WireStudy;

typedef struct WireControl {
    int32_t code;   /* WireControlCode */
    int64_t arg_us; /* see the codes */
} WireControl;

/* One displayed car in a VIEW: its position and the sample it shows
 * exactly (-1: a predicted or interpolated pose). */
typedef struct WireViewCar {
    double x, y;
    int32_t seq;
} WireViewCar;

/* What terminal `car` displays at its sample seq, per scheme, with its
 * own car's true progress then: the others compute the live metrics (d_ij,
 * the inconsistency need every terminal's displays at the same instant).
 * One VIEW carries the schemes first .. first + count - 1 of every car
 * (count x ncars entries, at most WIRE_VIEW_ENTRIES); a race of many cars
 * and schemes sends a sample's view in several parts. */
typedef struct WireView {
    int32_t seq;       /* the sender's sample index */
    int32_t nschemes;  /* the session's scheme count */
    int64_t t_us;      /* the sample's instant (synchronised race time) */
    double progress;   /* the viewing terminal's own car's true progress at seq (cw) */
    uint32_t mu_sent;  /* MU packets the viewing terminal has put on the wire so far */
    uint8_t car;       /* the viewing terminal's car (0-based) */
    uint8_t ncars;     /* the race's cars */
    uint8_t first, count; /* the schemes of this part */
    WireViewCar e[WIRE_VIEW_ENTRIES]; /* scheme first + k, car c at [k * ncars + c]; zero after */
} WireView;

/* The host's introduction of a p2p race of N cars (docs/netplay.md
 * "Peer-to-peer races of N"): car c's address as the host saw its sealed
 * HELLO come, and that HELLO's nonce (the pair keys: wirecrypt_link);
 * entry 0 (the host's own) and entries from ncars on are zero. */
typedef struct WirePeers {
    uint8_t go;                      /* 1: every joiner has the table: the pairs connect now */
    uint8_t ncars;                   /* the race's, 3..WIRE_MAX_CARS */
    NetAddr addr[WIRE_MAX_CARS];
    uint64_t nonce[WIRE_MAX_CARS];
} WirePeers;

/* One step of a pair's reachability proof, between the joiners of cars
 * from and to (1..ncars-1): 1 the lower car's hello (its challenge), 2 the
 * higher car's answer (the challenge echoed and the cookie of the lower
 * car's address), 3 the lower car's echo of the cookie, 4 the higher
 * car's acknowledgement. Every step has one size: an answer is never
 * larger than what it answers. */
typedef struct WirePeer {
    uint8_t step;       /* 1..4 */
    uint8_t from, to;   /* the sender's car and the receiver's (0-based, not the host's) */
    uint64_t challenge; /* the lower car's random number, not 0 */
    uint64_t cookie;    /* steps 2 and 3; 0 in 1 and 4 */
} WirePeer;

typedef struct WirePacket {
    WireKind kind;
    uint64_t token;   /* session token (0 in HELLO) */
    uint32_t pkt_seq; /* the sender's packet counter */
    union {
        WireHello hello;
        WireWelcome welcome;
        WireTrack track;
        WireMu mu;
        WireSync sync;
        WireControl control;
        WireView view;
        WirePeers peers;
        WirePeer peer;
        WireStudy study;
    } u;
    MuCheck mu_check; /* decode: why an MU was refused */
} WirePacket;

/* What the receiver knows when it decodes. */
typedef struct WireCheck {
    uint64_t token;     /* the session's token */
    bool accept_hello;  /* a host before the handshake: HELLO (token 0) allowed */
    int ncars, own_car; /* for mu_validate; own_car -1: a server (no car) */
    int64_t now_us;     /* receiver's clock, for mu_validate */
    int64_t window_us;  /* mu_validate's window; 0 = MU_WINDOW_DEFAULT_US */
    int nschemes;       /* MU masks may only name schemes 0..nschemes-1 */
} WireCheck;

size_t wire_size(WireKind kind);
size_t wire_encode(const WirePacket *p, uint8_t *buf, size_t cap);
WireResult wire_decode(const uint8_t *buf, size_t n, const WireCheck *chk, WirePacket *out);
const char *wire_result_name(WireResult r);
void wire_chunk(WirePacket *p, WireKind kind, const char *text, uint32_t total, uint32_t offset);
uint32_t wire_chunk_bytes(uint32_t total, uint32_t offset);

#endif
