/* The terminal-log reader and the merge of two logs into a race recording
 * and measured delays (docs/netlog.md, docs/link.md "Trace"). */
#include "netmerge.h"
#include "link.h"
#include "nr_file.h"
#include "nr_part.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TYPES_MAX 32
#define FIELDS_MAX 64
#define SYNC_LIMIT_US (INT64_C(1) << 53)

/* The row types this reader takes and the columns it needs of each. */
enum { T_OWN, T_RX, T_TX, T_METRIC, T_MARK, T_INPUT, T_KNOWN };
static const char *const type_name[T_KNOWN] = {"own", "rx", "tx", "metric", "mark", "input"};
#define COLS_MAX 8
static const char *const type_cols[T_KNOWN][COLS_MAX] = {
    {"seq", "t_sync_us", "x", "y", "heading", "speed", NULL},
    {"pkt_seq", "kind", "arr_sync_us", "send_sync_us", "car", "seq", "mu_kind", "schemes"},
    {"pkt_seq", "seq", "mu_kind", "send_sync_us", NULL},
    {"scheme", "key", "value", NULL},
    {"sync_us", NULL}, /* and kind, when the log has it (col[1], else -1) */
    {"t_ms", "throttle", "brake", "steer", NULL},
};

typedef struct RowType {
    char name[32];
    int nfields;
    int known;         /* T_* or -1 */
    int col[COLS_MAX]; /* field index of each needed column */
    int col_to;        /* tx: the optional `to` column (a p2p race of N), -1 when absent */
} RowType;

typedef struct Reader {
    const char *path;
    int64_t line;
    TermLog *log;
    RowType type[TYPES_MAX];
    int ntypes;
    bool rows_started;
    bool has[6]; /* header keys seen: netlog, role, car, session (or token), period_ms, track */
    int down_line;  /* the line of the first `link_s_J` (a server's key), 0: none */
    int64_t cap_own, cap_rx, cap_tx, cap_input;
} Reader;

void termlog_free(TermLog *log)
{
    if (!log)
        return;
    free(log->own);
    free(log->rx);
    free(log->tx);
    free(log->metrics);
    free(log->marks);
    free(log->inputs);
    memset(log, 0, sizeof *log);
}

static bool fail(Reader *r, NrError *err, const char *fmt, ...) NR_PRINTF(3, 4);

static bool fail(Reader *r, NrError *err, const char *fmt, ...)
{
    char msg[NR_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return nr_error_set(err, "%s:%lld: %s", r->path, (long long)r->line, msg);
}

/* A copy of a header value into a fixed field: printable, fits. */
static bool text_value(Reader *r, const char *key, const char *val, char *out, size_t n, NrError *err)
{
    if (strlen(val) >= n || !nr_text_is_printable(val))
        return fail(r, err, "%s: expected at most %zu printable characters", key, n - 1);
    memcpy(out, val, strlen(val) + 1);
    return true;
}

/* `# columns TYPE: a,b,c`: the row type's fields by name. */
static bool columns_line(Reader *r, char *spec, NrError *err)
{
    char *colon = strchr(spec, ':');
    if (!colon)
        return fail(r, err, "'# columns' line without ':': expected '# columns TYPE: row,name,...'");
    *colon = '\0';
    char *name = nr_trim(spec);
    if (!*name || strlen(name) >= sizeof r->type[0].name || !nr_text_is_printable(name))
        return fail(r, err, "'# columns' line: expected a row type name before ':'");
    for (int i = 0; i < r->ntypes; i++)
        if (strcmp(r->type[i].name, name) == 0)
            return fail(r, err, "columns of '%s' given twice", name);
    if (r->ntypes == TYPES_MAX)
        return fail(r, err, "more than %d row types", TYPES_MAX);
    char *f[FIELDS_MAX];
    int nf = nr_csv_split(colon + 1, f, FIELDS_MAX);
    if (nf < 0)
        return fail(r, err, "columns of '%s': more than %d", name, FIELDS_MAX);
    if (strcmp(f[0], "row") != 0)
        return fail(r, err, "columns of '%s': expected 'row' first", name);
    RowType *t = &r->type[r->ntypes];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->nfields = nf;
    t->known = -1;
    t->col_to = -1;
    for (int i = 1; i < nf && strcmp(name, "tx") == 0; i++)
        if (strcmp(f[i], "to") == 0)
            t->col_to = i;
    for (int k = 0; k < T_KNOWN; k++)
        if (strcmp(name, type_name[k]) == 0)
            t->known = k;
    if (t->known >= 0)
        for (int c = 0; c < COLS_MAX && type_cols[t->known][c]; c++) {
            t->col[c] = -1;
            for (int i = 1; i < nf; i++)
                if (strcmp(f[i], type_cols[t->known][c]) == 0)
                    t->col[c] = i;
            if (t->col[c] < 0)
                return fail(r, err, "columns of '%s' lack '%s'", name, type_cols[t->known][c]);
        }
    if (t->known == T_MARK) { /* logs of the first release have no kind */
        t->col[1] = -1;
        for (int i = 1; i < nf; i++)
            if (strcmp(f[i], "kind") == 0)
                t->col[1] = i;
    }
    r->ntypes++;
    return true;
}

/* The race's condition among the header's keys (kept as text for the
 * recording); other keys are informative. */
static bool condition_value(Reader *r, const char *key, const char *val, NrError *err)
{
    TermLog *log = r->log;
    struct {
        const char *key;
        char *out;
        size_t n;
    } cond[] = {{"shown", log->shown, sizeof log->shown},       {"link", log->link, sizeof log->link},
                {"delta_ms", log->delta_ms, sizeof log->delta_ms}, {"tdr_cw", log->tdr_cw, sizeof log->tdr_cw},
                {"converge_ms", log->converge_ms, sizeof log->converge_ms},
                {"seed", log->seed, sizeof log->seed},          {"clock", log->clock, sizeof log->clock},
                {"study", log->study, sizeof log->study},       {"pair", log->pair, sizeof log->pair},
                {"study_race", log->study_race, sizeof log->study_race},
                {"condition", log->condition, sizeof log->condition},
                {"race_kind", log->race_kind, sizeof log->race_kind},
                {"clock_offset_true_ms", log->offset_true_ms, sizeof log->offset_true_ms},
                {"clock_drift_true_ppm", log->drift_true_ppm, sizeof log->drift_true_ppm}};
    int a = 0, b = 0, used = 0;
    if (sscanf(key, "link_s_%d%n", &b, &used) == 1 && key[used] == '\0') { /* a server's downlink to b */
        if (b < 1 || b > TERMLOG_MAX_CARS)
            return fail(r, err, "%s: expected a downlink link_s_J, J a car 1 to %d", key, TERMLOG_MAX_CARS);
        r->down_line = r->down_line ? r->down_line : (int)r->line;
        return text_value(r, key, val, log->line_link[b - 1], sizeof log->line_link[b - 1], err);
    }
    if (sscanf(key, "link_%d_%d%n", &a, &b, &used) == 2 && key[used] == '\0') { /* a line's own spec */
        if (a != log->car || b < 1 || b > TERMLOG_MAX_CARS || b == a)
            return fail(r, err, "%s: expected a line out of this log's car %d (link_%d_J, J another car 1 to %d)", key,
                        log->car, log->car, TERMLOG_MAX_CARS);
        return text_value(r, key, val, log->line_link[b - 1], sizeof log->line_link[b - 1], err);
    }
    for (size_t i = 0; i < sizeof cond / sizeof cond[0]; i++)
        if (strcmp(key, cond[i].key) == 0)
            return text_value(r, key, val, cond[i].out, cond[i].n, err);
    return true;
}

/* A `# key: value` line of the header (before the first row). */
static bool header_line(Reader *r, char *text, NrError *err)
{
    TermLog *log = r->log;
    if (strncmp(text, "columns ", 8) == 0)
        return columns_line(r, text + 8, err);
    char *colon = strchr(text, ':');
    if (r->rows_started || !colon)
        return true; /* a comment */
    *colon = '\0';
    char *key = nr_trim(text), *val = nr_trim(colon + 1);
    int64_t v;
    if (r->line == 1 && strcmp(key, "netlog") != 0)
        return fail(r, err, "expected '# netlog: %d' first: not a terminal log", TERMLOG_VERSION);
    if (strcmp(key, "netlog") == 0) {
        if (r->line != 1)
            return fail(r, err, "'# netlog' must be the first line");
        if (!nr_parse_int64(val, &v) || v != TERMLOG_VERSION)
            return fail(r, err, "netlog version '%.16s': this netrace reads version %d", val, TERMLOG_VERSION);
        log->version = (int)v;
        r->has[0] = true;
    } else if (strcmp(key, "role") == 0) {
        if (strcmp(val, "host") != 0 && strcmp(val, "joiner") != 0 && strcmp(val, "client") != 0 &&
            strcmp(val, "server") != 0)
            return fail(r, err, "role '%.16s': expected host, joiner, client or server", val);
        log->host = strcmp(val, "host") == 0;
        log->server = strcmp(val, "server") == 0;
        snprintf(log->role, sizeof log->role, "%s", val);
        r->has[1] = true;
    } else if (strcmp(key, "car") == 0) {
        if (!nr_parse_int64(val, &v) || v < 0 || v > TERMLOG_MAX_CARS)
            return fail(r, err, "car '%.16s': expected 1 to %d (a server's log: 0)", val, TERMLOG_MAX_CARS);
        log->car = (int)v;
        r->has[2] = true;
    } else if (strcmp(key, "cars") == 0) { /* absent: 2 */
        if (!nr_parse_int64(val, &v) || v < 2 || v > TERMLOG_MAX_CARS)
            return fail(r, err, "cars '%.16s': expected 2 to %d", val, TERMLOG_MAX_CARS);
        log->ncars = (int)v;
    } else if (strcmp(key, "topology") == 0) {
        if (strcmp(val, "p2p") != 0 && strcmp(val, "cs relay") != 0 && strcmp(val, "cs sync") != 0)
            return fail(r, err, "topology '%.16s': expected p2p, cs relay or cs sync", val);
        return text_value(r, key, val, log->topology, sizeof log->topology, err);
    } else if (strcmp(key, "session") == 0 || strcmp(key, "token") == 0) { /* token: logs before the envelope */
        size_t n = strlen(val);
        bool hex = n >= 1 && n <= 16, zero = true;
        for (size_t i = 0; hex && i < n; i++) {
            hex = isxdigit((unsigned char)val[i]) != 0;
            zero = zero && val[i] == '0';
        }
        if (!hex || zero)
            return fail(r, err, "%s '%.24s': expected 1 to 16 hex digits, not 0", key, val);
        for (size_t i = 0; i <= n; i++)
            log->token[i] = (char)tolower((unsigned char)val[i]);
        r->has[3] = true;
    } else if (strcmp(key, "period_ms") == 0) {
        if (!nr_parse_int64(val, &v) || v < 1 || v > 1000)
            return fail(r, err, "period_ms '%.16s': expected 1 to 1000", val);
        log->period_ms = (int32_t)v;
        r->has[4] = true;
    } else if (strcmp(key, "track") == 0) {
        if (!text_value(r, key, val, log->track, sizeof log->track, err))
            return false;
        r->has[5] = true;
    } else if (strcmp(key, "track_file") == 0) {
        return text_value(r, key, val, log->track_file, sizeof log->track_file, err);
    } else if (strcmp(key, "created") == 0) {
        return text_value(r, key, val, log->created, sizeof log->created, err);
    } else if (strcmp(key, "schemes") == 0) {
        return text_value(r, key, val, log->schemes, sizeof log->schemes, err);
    }
    return condition_value(r, key, val, err); /* the condition; other keys are informative */
}

static bool grow(Reader *r, void **v, int64_t *cap, int64_t n, size_t size, const char *what, NrError *err)
{
    if (n < *cap)
        return true;
    if (n >= TERMLOG_ROWS_MAX)
        return fail(r, err, "more than %d %s rows", TERMLOG_ROWS_MAX, what);
    int64_t nc = *cap ? *cap * 2 : 1024;
    if (nc > TERMLOG_ROWS_MAX)
        nc = TERMLOG_ROWS_MAX;
    void *g = realloc(*v, (size_t)nc * size);
    if (!g)
        return fail(r, err, "out of memory");
    *v = g;
    *cap = nc;
    return true;
}

static bool int_at(Reader *r, const char *tname, const char *col, const char *s, int64_t lo, int64_t hi,
                   int64_t *out, NrError *err)
{
    if (!nr_parse_int64(s, out) || *out < lo || *out > hi)
        return fail(r, err, "%s %s '%.24s': expected an integer from %lld to %lld", tname, col, s, (long long)lo,
                    (long long)hi);
    return true;
}

static bool own_row(Reader *r, const RowType *t, char **f, NrError *err)
{
    TermLog *log = r->log;
    int64_t seq, ts;
    if (!int_at(r, "own", "seq", f[t->col[0]], 0, TERMLOG_ROWS_MAX, &seq, err) ||
        !int_at(r, "own", "t_sync_us", f[t->col[1]], -SYNC_LIMIT_US, SYNC_LIMIT_US, &ts, err))
        return false;
    if (seq != log->nown)
        return fail(r, err, "own seq %lld: expected %d (own samples in order from 0)", (long long)seq, log->nown);
    int64_t nominal = seq * log->period_ms * NR_US_PER_MS;
    if (ts != nominal)
        return fail(r, err, "own seq %lld: t_sync_us %lld, expected seq * period = %lld", (long long)seq,
                    (long long)ts, (long long)nominal);
    double v[4];
    const char *names[4] = {"x", "y", "heading", "speed"};
    for (int k = 0; k < 4; k++)
        if (!nr_parse_double(f[t->col[2 + k]], &v[k]))
            return fail(r, err, "own %s '%.24s': expected a finite number", names[k], f[t->col[2 + k]]);
    int64_t cap = r->cap_own;
    void *p = log->own;
    if (!grow(r, &p, &cap, log->nown, sizeof *log->own, "own", err))
        return false;
    log->own = p;
    r->cap_own = cap;
    log->own[log->nown++] = (RecSample){(int32_t)(nominal / NR_US_PER_MS), v[0], v[1], v[2], v[3]};
    return true;
}

/* rx and tx rows of MUs: the packet's sample, kind and times. */
static bool pkt_row(Reader *r, const RowType *t, char **f, bool rx, NrError *err)
{
    TermLog *log = r->log;
    const char *tn = rx ? "rx" : "tx";
    TermLogPkt p = {0};
    int64_t v;
    /* column indices: rx {pkt_seq, kind, arr, send, car, seq, mu_kind};
     * tx {pkt_seq, seq, mu_kind, send} */
    int c_seq = rx ? 5 : 1, c_kind = rx ? 6 : 2, c_send = 3;
    if (rx) {
        if (strcmp(f[t->col[1]], "mu") != 0)
            return true; /* clock, control and view packets: not MUs */
        int64_t car;
        if (!int_at(r, tn, "car", f[t->col[4]], 1, log->ncars, &car, err))
            return false;
        if (car == log->car)
            return fail(r, err, "rx of an MU of car %lld: that is this log's own car", (long long)car);
        p.from = (int32_t)car;
        if (!int_at(r, tn, "arr_sync_us", f[t->col[2]], -SYNC_LIMIT_US, SYNC_LIMIT_US, &p.arr_sync_us, err) ||
            !int_at(r, tn, "schemes", f[t->col[7]], 1, UINT32_MAX, &p.schemes, err))
            return false;
    }
    if (!int_at(r, tn, "pkt_seq", f[t->col[0]], 0, UINT32_MAX, &p.pkt_seq, err) ||
        !int_at(r, tn, "seq", f[t->col[c_seq]], 0, INT32_MAX, &v, err))
        return false;
    p.seq = (int32_t)v;
    if (!int_at(r, tn, "mu_kind", f[t->col[c_kind]], 0, 1, &v, err))
        return false;
    int64_t to = 0;
    if (!rx && t->col_to >= 0 && !int_at(r, tn, "to", f[t->col_to], 1, log->ncars, &to, err))
        return false;
    if (to > 0 && to == log->car)
        return fail(r, err, "tx to car %lld: that is this log's own car", (long long)to);
    p.to = (int32_t)to;
    p.parity = (int32_t)v;
    if (!int_at(r, tn, "send_sync_us", f[t->col[c_send]], -SYNC_LIMIT_US, SYNC_LIMIT_US, &p.send_sync_us, err))
        return false;
    /* An MU is sent at its sample's nominal instant (docs/netlog.md), the
     * instant a replay sends it at: the delay is measured from there. */
    int64_t nominal = (int64_t)p.seq * log->period_ms * NR_US_PER_MS;
    if (p.send_sync_us != nominal)
        return fail(r, err, "%s seq %d: send_sync_us %lld, expected seq * period = %lld", tn, p.seq,
                    (long long)p.send_sync_us, (long long)nominal);
    /* The delay must fit a trace (docs/link.md "Trace"): a packet 35 min
     * late is no network's delay but a broken clock or log. */
    int64_t delay = p.arr_sync_us - p.send_sync_us;
    if (rx && (delay > LINK_TIME_MAX_US || delay < -LINK_TIME_MAX_US))
        return fail(r, err, "rx seq %d: arr_sync_us %lld is %lld us after its sample: expected a one-way "
                    "delay within +-%lld us", p.seq, (long long)p.arr_sync_us, (long long)delay,
                    (long long)LINK_TIME_MAX_US);
    int64_t *n = rx ? &log->nrx : &log->ntx, *cap = rx ? &r->cap_rx : &r->cap_tx;
    void *arr = rx ? (void *)log->rx : (void *)log->tx;
    if (!grow(r, &arr, cap, *n, sizeof p, tn, err))
        return false;
    if (rx)
        log->rx = arr;
    else
        log->tx = arr;
    (rx ? log->rx : log->tx)[(*n)++] = p;
    return true;
}

static bool metric_row(Reader *r, const RowType *t, char **f, NrError *err)
{
    TermLog *log = r->log;
    if (log->nmetrics == TERMLOG_METRICS_MAX)
        return fail(r, err, "more than %d metric rows", TERMLOG_METRICS_MAX);
    if (!log->metrics && !(log->metrics = malloc(TERMLOG_METRICS_MAX * sizeof *log->metrics)))
        return fail(r, err, "out of memory");
    TermLogMetric *m = &log->metrics[log->nmetrics];
    const char *s = f[t->col[0]], *k = f[t->col[1]];
    if (strlen(s) >= sizeof m->scheme || strlen(k) >= sizeof m->key || !nr_text_is_printable(s) ||
        !nr_text_is_printable(k))
        return fail(r, err, "metric '%.32s' '%.32s': expected names of at most 31 printable characters", s, k);
    if (!nr_parse_double(f[t->col[2]], &m->value))
        return fail(r, err, "metric %s %s value '%.24s': expected a finite number", s, k, f[t->col[2]]);
    snprintf(m->scheme, sizeof m->scheme, "%s", s);
    snprintf(m->key, sizeof m->key, "%s", k);
    log->nmetrics++;
    return true;
}

/* A mark row (docs/netlog.md): this log's player's mark at race time
 * sync_us (0 for one in the countdown), of its kind (the first release's
 * logs have none: the key's, "mark"). */
static bool mark_row(Reader *r, const RowType *t, char **f, NrError *err)
{
    TermLog *log = r->log;
    int64_t ts;
    if (!int_at(r, "mark", "sync_us", f[t->col[0]], -SYNC_LIMIT_US, SYNC_LIMIT_US, &ts, err))
        return false;
    RecMark m;
    memset(&m, 0, sizeof m);
    m.t_ms = ts > 0 ? ts / NR_US_PER_MS : 0;
    m.player = log->car;
    const char *kind = t->col[1] >= 0 ? f[t->col[1]] : RECORDING_MARK_KEY;
    if (strlen(kind) >= sizeof m.kind)
        return fail(r, err, "mark '%.32s': expected a kind of [a-z_]+", kind);
    snprintf(m.kind, sizeof m.kind, "%s", kind);
    if (!recmark_valid(&m, TERMLOG_MAX_CARS))
        return fail(r, err, "mark '%.32s': expected a kind of [a-z_]+", kind);
    if (log->nmarks == TERMLOG_MARKS_MAX)
        return fail(r, err, "more than %d mark rows", TERMLOG_MARKS_MAX);
    if ((log->nmarks & (log->nmarks - 1)) == 0) { /* grows at 0, 1, 2, 4, ... */
        RecMark *g = realloc(log->marks, (size_t)(log->nmarks ? 2 * log->nmarks : 1) * sizeof *g);
        if (!g)
            return fail(r, err, "out of memory");
        log->marks = g;
    }
    log->marks[log->nmarks++] = m;
    return true;
}

/* An input row (docs/netlog.md): the own car's input from t_ms on, as an
 * input script holds it (inputs.h: ranges, a player's times increasing). */
static bool input_row(Reader *r, const RowType *t, char **f, NrError *err)
{
    TermLog *log = r->log;
    int64_t ms;
    if (!int_at(r, "input", "t_ms", f[t->col[0]], 0, INT32_MAX, &ms, err))
        return false;
    if (log->ninputs > 0 && ms <= log->inputs[log->ninputs - 1].t_ms)
        return fail(r, err, "input t_ms %lld: expected after the previous input's %ld", (long long)ms,
                    (long)log->inputs[log->ninputs - 1].t_ms);
    double v[3];
    const char *names[3] = {"throttle", "brake", "steer"};
    for (int k = 0; k < 3; k++)
        if (!nr_parse_double(f[t->col[1 + k]], &v[k]) || v[k] < (k == 2 ? -1.0 : 0.0) || v[k] > 1.0)
            return fail(r, err, "input %s '%.24s': expected a number from %d to 1", names[k], f[t->col[1 + k]],
                        k == 2 ? -1 : 0);
    void *p = log->inputs;
    if (!grow(r, &p, &r->cap_input, log->ninputs, sizeof *log->inputs, "input", err))
        return false;
    log->inputs = p;
    log->inputs[log->ninputs++] = (InputLine){(int32_t)ms, log->car - 1, {v[0], v[1], v[2]}};
    return true;
}

static bool data_row(Reader *r, char *line, NrError *err)
{
    char *f[FIELDS_MAX];
    int nf = nr_csv_split(line, f, FIELDS_MAX);
    if (nf < 0)
        return fail(r, err, "more than %d fields", FIELDS_MAX);
    const RowType *t = NULL;
    for (int i = 0; i < r->ntypes; i++)
        if (strcmp(r->type[i].name, f[0]) == 0)
            t = &r->type[i];
    if (!t)
        return fail(r, err, "row type '%.24s' has no '# columns %.24s:' line before it", f[0], f[0]);
    if (!r->rows_started) {
        const char *keys[6] = {"netlog", "role", "car", "session", "period_ms", "track"};
        for (int k = 0; k < 6; k++)
            if (!r->has[k])
                return fail(r, err, "no '# %s:' in the header", keys[k]);
        if (r->log->car > r->log->ncars)
            return fail(r, err, "car %d: the header's race has %d cars ('# cars:', 2 when absent)", r->log->car,
                        r->log->ncars);
        if ((strcmp(r->log->role, "client") == 0 || r->log->server) && strncmp(r->log->topology, "cs", 2) != 0)
            return fail(r, err, "role %s: a served race's, but its topology is '%s' (expected cs relay or "
                                "cs sync)", r->log->role, r->log->topology);
        if ((r->log->car == 0) != r->log->server)
            return fail(r, err, "car %d of role %s: a server's log has car 0, a terminal's 1 to %d", r->log->car,
                        r->log->role, TERMLOG_MAX_CARS);
        if (r->down_line && !r->log->server)
            return fail(r, err, "link_s_J (line %lld) in the log of a %s: the downlinks are the server's",
                        (long long)r->down_line, r->log->role);
        r->rows_started = true;
    }
    /* Rows this reader takes must match their columns; others (events
     * with free text) are skipped unread. */
    if (t->known >= 0 && nf != t->nfields)
        return fail(r, err, "%s row has %d fields: expected %d as its columns line says", t->name, nf, t->nfields);
    switch (t->known) {
    case T_OWN:
        if (r->log->server)
            return fail(r, err, "own row in a server's log: the server drives no car");
        return own_row(r, t, f, err);
    case T_RX:
        return pkt_row(r, t, f, true, err);
    case T_TX:
        return pkt_row(r, t, f, false, err);
    case T_METRIC:
        return metric_row(r, t, f, err);
    case T_MARK:
        return mark_row(r, t, f, err);
    case T_INPUT:
        return input_row(r, t, f, err);
    default:
        return true;
    }
}

bool termlog_load(TermLog *log, const char *path, NrError *err)
{
    memset(log, 0, sizeof *log);
    FILE *f = nr_file_open(path, "a terminal log", err);
    if (!f)
        return false;
    bool ok = termlog_read(log, f, path, err);
    fclose(f);
    if (ok && nr_part_named(path))
        log->cut = true;
    return ok;
}

bool termlog_read(TermLog *log, FILE *f, const char *path, NrError *err)
{
    memset(log, 0, sizeof *log);
    log->ncars = 2;
    snprintf(log->topology, sizeof log->topology, "p2p");
    Reader r = {.path = path, .log = log};
    char *line = malloc(NR_LINE_MAX);
    if (!line)
        return nr_error_set(err, "%s: out of memory", path);
    bool ok = true;
    size_t got;
    NrLine lr;
    errno = 0;
    while (ok && (lr = nr_line_read(f, line, NR_LINE_MAX, &got)) != NR_LINE_EOF) {
        r.line++;
        if (lr == NR_LINE_ERROR)
            break;
        if (lr == NR_LINE_LONG) {
            ok = fail(&r, err, "line longer than %d bytes", NR_LINE_MAX - 1);
            break;
        }
        if (lr == NR_LINE_NUL) {
            ok = fail(&r, err, "binary data (NUL byte): expected a text log");
            break;
        }
        if (got == 0 || line[got - 1] != '\n') {
            log->cut = true; /* the writer was killed mid-line: drop it */
            break;
        }
        /* line 1 decides: a file that does not start as a log is refused
         * before anything else is read (a 1 GB one took 8-13 s) */
        if (r.line == 1 && strncmp(line, "# netlog:", 9) != 0) {
            ok = fail(&r, err, "expected '# netlog: %d' first: not a terminal log", TERMLOG_VERSION);
            break;
        }
        if (line[0] == '#')
            ok = header_line(&r, line + 1 + (line[1] == ' '), err);
        else if (nr_trim(line)[0] != '\0')
            ok = data_row(&r, line, err);
    }
    if (ok && ferror(f))
        ok = nr_error_set(err, "%s:%lld: cannot read: %s", path, (long long)r.line + 1,
                          errno ? strerror(errno) : "read error");
    free(line);
    if (ok && !r.has[0])
        ok = nr_error_set(err, "%s:1: expected '# netlog: %d' first: not a terminal log", path, TERMLOG_VERSION);
    if (ok && log->server && !r.rows_started)
        ok = nr_error_set(err, "%s:%lld: a server's log without rows: expected its rx rows", path,
                          (long long)(r.line > 0 ? r.line : 1));
    if (ok && log->nown == 0 && !log->server)
        ok = nr_error_set(err, "%s:%lld: no own samples: expected 'own' rows from seq 0", path,
                          (long long)(r.line > 0 ? r.line : 1));
    if (!ok)
        termlog_free(log);
    return ok;
}

