/* Network play's driving window (`netrace host` / `netrace join` without
 * --headless): this terminal's screen only. The camera follows the own car
 * (drawn where the physics has it this frame); the peer's car is drawn where
 * the shown scheme displays it, from what really arrived over the network.
 * Start lights on the synchronised clock, so both machines light them
 * together; the clock estimate, its error bound and the round trip on
 * screen; a pause box while the peer is silent; the standings as this
 * terminal saw them (and the peer's, with a word when they differ). Tab
 * (or --watch) shows every scheme's live gauges beside the race: the
 * inconsistency rate over the race and the last 5 s, the mean d1 - d2
 * and the MUs sent and lost, the metrics both terminals compute from each
 * other's views (netplay.h).
 *
 * The window rides on the session's loop (session_set_frame): each frame
 * reads the keys or the pad, hands the input to the session and draws, so
 * an input read in frame n moves the car drawn in frame n + 1 at the
 * latest, as in `netrace play`.
 *
 * Contracts:
 *   netwin_run(s, cfg, stop)  opens the window and runs the session to its
 *        end (session_run), then shows the results until the player closes
 *        them (Q, Esc, Enter or the window) or *stop is set. Q or Esc during
 *        the race leaves it (the peer is told: BYE). Returns 0 when the race
 *        completed, 1 when it did not (session_error says why) and 3 when no
 *        window could be opened (one line on stderr; nothing was sent).
 */
#ifndef NR_NETWIN_H
#define NR_NETWIN_H

#include "play.h"
#include "session.h"

typedef struct NetWinConfig {
    PlayerKind kind;          /* who drives: keys and pads through the window, bots and scripts by themselves */
    const char *keys_path;    /* key map (docs/play.md); NULL = defaults */
    const char *pad_mappings; /* SDL gamecontroller mappings; NULL = none */
    const char *font_path;    /* NULL = gfx_default_font */
    const char *title;
    int width, height;        /* 0 = 1280 x 720 */
    bool fullscreen;
    bool watch;               /* the gauges of every scheme open at the start (Tab toggles) */
} NetWinConfig;

int netwin_run(Session *s, const NetWinConfig *cfg, volatile sig_atomic_t *stop);

#endif
