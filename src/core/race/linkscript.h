/* Scripted link changes: a file of `TIME_S LINE SPEC` lines applied to a
 * race at their race times (lag spikes, outages, a delay that grows), for
 * classroom demonstrations and experiments. The same script drives replay,
 * sweep, the window and live play, of two cars or N, p2p or cs.
 *
 * Format (untrusted input; every error names FILE:LINE and what is wrong):
 *   # comment                      '#' to the end of a line is ignored
 *   10   12   delay 200ms 30ms     from t = 10 s, link 1->2 is this spec
 *   12.5 both loss 100%            both directions (an outage)
 *   13.5 both delay 75ms 10ms      and back
 *   5    3-1  loss 100%            the p2p line from terminal 3 to 1
 *   6    2-s  delay 150ms          cs: the uplink of client 2 (s-3: the
 *                                  downlink to client 3)
 *   7    all  delay 75ms           every line of the race
 *   TIME_S: seconds from the race start, finite, 0 .. 86400, never before
 *   the previous line's; LINE: 12 (terminal 1 -> 2), 21, both (the two),
 *   I-J (terminals 1..8 or s, the server, as in a link matrix,
 *   linkmatrix.h), or all; SPEC: the whole spec of that line from then on,
 *   in netem's grammar (link.h), parsed when the script is read. At most
 *   LINKSCRIPT_MAX changes, lines of at most LINKSCRIPT_LINE_MAX bytes.
 *
 * A change at time T applies to every MU sent at or after T (the engine is
 * stepped to just before T, then engine_set_link); the random streams
 * continue, as for any live change.
 *
 * Contracts:
 *   linkscript_parse(ls, text, name, table_dir, err)  parse text (name is
 *        used in messages); false + err "NAME:LINE: ..." and *ls empty.
 *        On success the caller owns *ls (linkscript_free).
 *   linkscript_load(ls, path, table_dir, err)  read and parse a file.
 *   linkscript_free(ls)            NULL-safe; leaves an empty script.
 *   linkscript_next_us(ls, cursor) time of change number cursor, INT64_MAX
 *        when there is none (cursor starts at 0).
 *   linkscript_check(ls, name, ncars, topology, err)  every line the
 *        script names is one of a race of ncars terminals over topology
 *        (12 / 21 / both: p2p only; I-J: p2p two terminals, cs I-s or
 *        s-J); false + err "NAME:LINE: ..." naming the first that is not.
 *   linkscript_apply(ls, i, e, err)  hands change i to engine_set_line for
 *        each line it names; false + err when the engine refuses.
 *   linkscript_run_to(ls, &cursor, e, t_us, step, ctx, &last, err)  steps to
 *        t_us with step(ctx, t) (linkscript_step_replay, or a live race's),
 *        applying each change due at or before t_us at its own time: step to
 *        T - 1 us, apply, go on. Returns the number of changes applied (and
 *        *last, when not NULL, the last of them), or -1 + err when the engine
 *        refused one (the cursor stays on it). Call it with the cursor at 0
 *        after a restart. ls may be NULL (no script: only the step).
 *   linkscript_line_name(c, buf, n)  the line(s) of a change as the tables
 *        print them: "12", "21", "12+21", "3-1", "2-s", "s-3", "all".
 *   linkscript_describe(c, buf, n)  one line for the screen: "t 10.0 s: link
 *        1→2 now 'delay 200ms 30ms' (script line 3)" (2→s, every link, ...);
 *        returns buf.
 *   linkscript_step_replay(r, t_us)  replay_step_to as a LinkScriptStep
 *        (ctx = the Replay, e = replay_engine(r)). A live race passes its
 *        own step (push what the physics produced up to t, step the engine).
 */
#ifndef NR_LINKSCRIPT_H
#define NR_LINKSCRIPT_H

#include "engine.h"
#include "replay.h"
#include "nr_file.h"

#define LINKSCRIPT_MAX 4096
#define LINKSCRIPT_LINE_MAX NR_LINE_MAX
#define LINKSCRIPT_BOTH 2
#define LINKSCRIPT_LINE 3 /* the line from -> to */
#define LINKSCRIPT_ALL 4  /* every line of the race */

typedef struct LinkChange {
    int64_t t_us;
    int dir;      /* 0 = 1->2, 1 = 2->1, LINKSCRIPT_BOTH, LINKSCRIPT_LINE, LINKSCRIPT_ALL */
    int from, to; /* LINKSCRIPT_LINE: 0-based terminals, ENGINE_SERVER the server */
    int line;     /* line number in the script, for messages */
    LinkSpec spec;
} LinkChange;

typedef struct LinkScript {
    LinkChange *ch;
    int n;
} LinkScript;

typedef void (*LinkScriptStep)(void *ctx, int64_t t_us);

void linkscript_step_replay(void *replay, int64_t t_us);
const char *linkscript_describe(const LinkChange *c, char *buf, size_t n);
const char *linkscript_line_name(const LinkChange *c, char *buf, size_t n);
bool linkscript_parse(LinkScript *ls, const char *text, const char *name, const char *table_dir, NrError *err);
bool linkscript_load(LinkScript *ls, const char *path, const char *table_dir, NrError *err);
void linkscript_free(LinkScript *ls);
int64_t linkscript_next_us(const LinkScript *ls, int cursor);
bool linkscript_check(const LinkScript *ls, const char *name, int ncars, RouteTopology topology, NrError *err);
bool linkscript_apply(const LinkScript *ls, int i, Engine *e, NrError *err);
int linkscript_run_to(const LinkScript *ls, int *cursor, Engine *e, int64_t t_us, LinkScriptStep step, void *ctx,
                      const LinkChange **last, NrError *err);

#endif
