/* Network play's driving window (`netrace host` / `netrace join` without
 * --headless): this terminal's screen, with the game's widgets (widgets.h).
 * The camera follows the own car (drawn where the physics has it this
 * frame); the peer's car is drawn where the shown scheme displays it, from
 * what really arrived over the network (late, predicted or Delta behind).
 * The camera, the speedometer, the arrow towards the peer's car off screen
 * with the time gap, the feedback of a wall hit and the sounds are the
 * game's (drivehud.h, sound.h). Car sprites, a minimap, the HUD (race clock
 * or lap, running and best lap, position, the clock estimate, its error
 * bound and the round trip); start
 * lights on the synchronised clock, so both machines light them together;
 * a pause box while the peer is silent; the results with lap times as this
 * terminal, the peer and the physics saw them. Tab (or --watch) opens the
 * replay window's overview of every scheme beside it (overwin.h), fed from
 * the live race: this terminal's screen under each scheme, the gauges and
 * charts of the metrics both terminals compute from each other's views.
 *
 * The window is a screen of the one window loop (winloop.h) whose frames the
 * session's loop calls (netwin_race.h, the window's only contact with the
 * session): each frame reads the keys or the pad, hands the input to the
 * session and draws, so an input read in frame n moves the car drawn in
 * frame n + 1 at the latest, as in `netrace play`.
 *
 * Contracts:
 *   netwin_run(s, cfg, stop)  opens the window and runs the session to its
 *        end (session_run), then shows the results until the player closes
 *        them (Q, Esc, Enter or the window) or *stop is set. Q or Esc during
 *        the race leaves it (the peer is told: BYE). Returns 0 when the race
 *        completed, 1 when it did not (session_error says why), 3 when no
 *        window could be opened (one line on stderr; nothing was sent) and
 *        4 when the key map or the pad mappings were refused (one line on
 *        stderr naming the file and line; nothing was sent).
 *        A race that did not complete (not left by the player) says why in
 *        the window (session_error, such as the give-up when the host never
 *        answered a wrong code) until closed, at most 18 s.
 *   netwin_open(cfg, stop, &rc) / netwin_attach(nw, s) / netwin_frame(nw) /
 *        netwin_close(nw)  the window in parts, for a study's many races in
 *        one window (docs/studies.md "Over the network"): open (NULL with
 *        rc 3 or 4 as netwin_run), attach each race's session (its frames
 *        then come from the session's loop: session_step; NULL between
 *        races, when the caller calls netwin_frame itself about every
 *        SESSION_FRAME_US; false once the player closed the window or
 *        *stop), close.
 *   netwin_closed(nw)      the player closed the window (or *stop).
 *   netwin_study_over(nw, complete, why)  the study's last screen: "Thank
 *        you", the session complete, or stopped (why, for the subject:
 *        "please call the experimenter"); netwin_frame until closed.
 *
 * A study (cfg->study): each race's session on the one window, blind unless
 * the plan says otherwise (no scheme, no link, no clock or round trip on
 * the screen: "race i of n" only); a card before the race, "Finished"
 * after it, then this terminal's player rates it on a rating screen
 * (studyrate.h: keys W / S or Up / Down choose, D / Right or the mark key
 * confirm; a pad's d-pad or stick and A), each answer to the hooks; Q, Esc,
 * Tab and H do nothing, the window's close or Ctrl-Q stops the study;
 * F11 (F unless a key drives), F12 and Ctrl + / - as in a race.
 *   netwin_ask_code(cfg, host, code, stop)  `join HOST` without --code: a
 *        window asks for the join code the host's window shows, typed by
 *        netwin_code_key's rules. 0 with the canonical code in code, 1 when
 *        the player left (Esc, the window closed, *stop), 3 when no window
 *        could be opened (one line on stderr).
 *   netwin_draw_frame(r, cfg, nr, look, w, h, audit)  one frame of the
 *        window from nr alone (no session, no loop) on renderer r, with
 *        the help, a message, the failure box or the lagometer (its
 *        clock sync history copied) as look says; audit
 *        (NULL = none) records its text (the tests' text audit).
 *   netwin_code_draw(g, host, typed, bad, scale, w, h)  the prompt's frame
 *        (what netwin_ask_code shows) on g's renderer.
 *   netwin_help_lines(&n)  the H overlay's n lines: every key the window
 *        takes (the join code is added below them when drawn).
 *   netwin_code_key(typed, cap, key, code)  one key (an SDL keycode) into
 *        the text typed so far (cap bytes with the NUL): A-Z (lower case
 *        too, kept upper), 0-9 and '-' appended while it fits, Backspace
 *        drops the last; Enter returns NETWIN_CODE_DONE with the canonical
 *        code (wirecrypt_code_normalise) or NETWIN_CODE_BAD when the text is
 *        not a code; every other key NETWIN_CODE_TYPING.
 */
#ifndef NR_NETWIN_H
#define NR_NETWIN_H

#include "gfx.h"
#include "lagometer.h"
#include "netwin_race.h"
#include "play.h"
#include "session.h"
#include "studyplan.h"

/* A study's hooks (src/cli keeps the answers). */
typedef struct NetWinStudy {
    void *ctx;
    /* this end's player may rate the attached race now (the host: once its
     * metrics are kept); given[q]: this player's answers kept before */
    bool (*can_rate)(void *ctx, Session *s, bool given[STUDY_MAX_QUESTIONS]);
    /* this end's player answered question q (score as ratings.csv has it:
     * 1..5, 1 yes / 0 no) after response_ms; false stops the study (said) */
    bool (*answer)(void *ctx, Session *s, int q, int score, int64_t response_ms);
    /* every question of the race answered */
    void (*done)(void *ctx, Session *s);
} NetWinStudy;

typedef struct NetWinConfig {
    PlayerKind kind;          /* who drives: keys and pads through the window, bots and scripts by themselves */
    const char *keys_path;    /* key map (docs/play.md); NULL = defaults */
    const char *pad_mappings; /* SDL gamecontroller mappings; NULL = none */
    const char *font_path;    /* NULL = gfx_default_font */
    const char *title;
    int width, height;        /* 0 = 1280 x 720 */
    bool fullscreen;
    bool watch;               /* the gauges of every scheme open at the start (Tab toggles) */
    double scale;             /* text scale (--scale, Ctrl +/-); 0 = 1 */
    const char *shot_dir;     /* F12 screenshots; NULL = winloop_default_shot_dir */
    const NetWinStudy *study; /* a study's races (NULL: one race) */
    int64_t frame_dt_us;      /* > 0: every frame's screen time (tests on simulated time) */
    bool camera_rotate;       /* the screen turns with the car (C toggles) */
    bool mute;                /* no sound (M toggles) */
    bool lagometer;           /* the lagometer shown at the start (F2 toggles; the session's
                               * engine keeps its rings: SessionConfig.lagometer) */
} NetWinConfig;

/* What the keys and messages put over the race, for netwin_draw_frame. */
typedef struct NetWinLook {
    bool help;       /* the H box */
    bool failed;     /* the failure box, msg saying why */
    const char *msg; /* a transient message (a screenshot's path); NULL = none */
    bool lag;        /* the lagometer (F2) */
    const LagNetHist *net; /* its clock sync history; NULL = none */
} NetWinLook;

typedef struct NetWin NetWin;

#define NETWIN_CODE_TYPED 32 /* the prompt's text: a code with dashes and room for slips */
enum { NETWIN_CODE_TYPING = 0, NETWIN_CODE_DONE = 1, NETWIN_CODE_BAD = 2 };

int netwin_code_key(char *typed, size_t cap, int key, char code[WIRECRYPT_CODE_CHARS + 1]);
void netwin_code_draw(Gfx *g, const char *host, const char *typed, bool bad, double scale, int w, int h);
int netwin_ask_code(const NetWinConfig *cfg, const char *host, char code[WIRECRYPT_CODE_CHARS + 1],
                    volatile sig_atomic_t *stop);
int netwin_run(Session *s, const NetWinConfig *cfg, volatile sig_atomic_t *stop);
void netwin_draw_frame(SDL_Renderer *r, const NetWinConfig *cfg, const NetRace *nr, const NetWinLook *look, int w,
                       int h, GfxAudit *audit);
NetWin *netwin_open(const NetWinConfig *cfg, volatile sig_atomic_t *stop, int *rc);
void netwin_attach(NetWin *nw, Session *s);
bool netwin_frame(NetWin *nw);
bool netwin_closed(const NetWin *nw);
void netwin_study_over(NetWin *nw, bool complete, const char *why);
void netwin_close(NetWin *nw);
const char *const *netwin_help_lines(int *n);

#endif
