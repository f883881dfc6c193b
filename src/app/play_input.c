/* Keyboard map and gamepads: the players' controls on the SDL side. */
#include "play_input.h"

#include "nr_file.h"
#include "palette.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ACTION_NAME[PK_ACTIONS] = {"throttle", "brake", "left", "right", "mark"};

void playkeys_default(PlayKeys *k)
{
    memset(k, 0, sizeof *k);
    k->key[0][PK_THROTTLE][0] = SDL_SCANCODE_W;
    k->key[0][PK_BRAKE][0] = SDL_SCANCODE_S;
    k->key[0][PK_LEFT][0] = SDL_SCANCODE_A;
    k->key[0][PK_RIGHT][0] = SDL_SCANCODE_D;
    k->key[1][PK_THROTTLE][0] = SDL_SCANCODE_UP;
    k->key[1][PK_BRAKE][0] = SDL_SCANCODE_DOWN;
    k->key[1][PK_LEFT][0] = SDL_SCANCODE_LEFT;
    k->key[1][PK_RIGHT][0] = SDL_SCANCODE_RIGHT;
    k->key[0][PK_MARK][0] = SDL_SCANCODE_LSHIFT;
    k->key[1][PK_MARK][0] = SDL_SCANCODE_RSHIFT;
}

/* A default mark key (its action not named in the file) that the file
 * gives to another action is dropped, not an error: key maps from before
 * the mark key keep working. */
static void marks_give_way(PlayKeys *t, bool named[PLAYKEYS_PLAYERS][PK_ACTIONS])
{
    for (int p = 0; p < PLAYKEYS_PLAYERS; p++) {
        if (named[p][PK_MARK])
            continue;
        SDL_Scancode *mk = t->key[p][PK_MARK];
        for (int i = 0; i < PLAYKEYS_PER_ACTION; i++)
            for (int q = 0; q < PLAYKEYS_PLAYERS && mk[i]; q++)
                for (int a = 0; a < PK_ACTIONS && mk[i]; a++)
                    for (int j = 0; j < PLAYKEYS_PER_ACTION && mk[i]; j++)
                        if (named[q][a] && t->key[q][a][j] == mk[i])
                            mk[i] = SDL_SCANCODE_UNKNOWN;
    }
}

/* Next token of a line: a bare word or a "quoted name"; NULL at the end.
 * *bad is set for an unterminated quote. */
static char *next_token(char **p, bool *bad)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0' || *s == '#')
        return NULL;
    char *start;
    if (*s == '"') {
        start = ++s;
        while (*s && *s != '"')
            s++;
        if (*s != '"') {
            *bad = true;
            return NULL;
        }
        *s++ = '\0';
    } else {
        start = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '#')
            s++;
        if (*s == '#') {
            *s = '\0';
            *p = s;
            return start;
        }
        if (*s)
            *s++ = '\0';
    }
    *p = s;
    return start;
}

static bool parse_action(const char *w, int *player, int *action)
{
    if ((w[0] != 'p' && w[0] != 'P') || w[1] < '1' || w[1] >= '1' + PLAYKEYS_PLAYERS || w[2] != '.')
        return false;
    *player = w[1] - '1';
    for (int a = 0; a < PK_ACTIONS; a++)
        if (SDL_strcasecmp(w + 3, ACTION_NAME[a]) == 0) {
            *action = a;
            return true;
        }
    return false;
}

/* Where key sc is bound other than (player, action): false when nowhere. */
static bool bound_elsewhere(const PlayKeys *k, SDL_Scancode sc, int player, int action, int *op, int *oa)
{
    for (int p = 0; p < PLAYKEYS_PLAYERS; p++)
        for (int a = 0; a < PK_ACTIONS; a++) {
            if (p == player && a == action)
                continue;
            for (int i = 0; i < PLAYKEYS_PER_ACTION; i++)
                if (k->key[p][a][i] == sc) {
                    *op = p;
                    *oa = a;
                    return true;
                }
        }
    return false;
}

static bool parse_line(PlayKeys *k, char *line, const char *name, int ln, bool named[PLAYKEYS_PLAYERS][PK_ACTIONS],
                       NrError *err)
{
    bool bad = false;
    char *p = line;
    char *w = next_token(&p, &bad);
    if (bad)
        return nr_error_set(err, "%s:%d: unterminated quote", name, ln);
    if (!w)
        return true; /* blank or comment */
    int player, action;
    if ((w[0] == 'p' || w[0] == 'P') && w[1] > '0' + PLAYKEYS_PLAYERS && w[1] <= '0' + PLAY_PLAYERS && w[2] == '.')
        return nr_error_set(err, "%s:%d: '%.40s': the keyboard drives players 1 and 2 (players 3 and 4 play "
                                 "with pads, bots or scripts)", name, ln, w);
    if (!parse_action(w, &player, &action))
        return nr_error_set(err,
                            "%s:%d: unknown action '%.40s' (expected p1.throttle, p1.brake, p1.left, p1.right, "
                            "p1.mark or the same for p2)",
                            name, ln, w);
    if (named[player][action])
        return nr_error_set(err, "%s:%d: p%d.%s is given twice", name, ln, player + 1, ACTION_NAME[action]);
    named[player][action] = true;
    SDL_Scancode keys[PLAYKEYS_PER_ACTION] = {0};
    int n = 0;
    for (;;) {
        char *kn = next_token(&p, &bad);
        if (bad)
            return nr_error_set(err, "%s:%d: unterminated quote", name, ln);
        if (!kn)
            break;
        SDL_Scancode sc = SDL_GetScancodeFromName(kn);
        if (sc == SDL_SCANCODE_UNKNOWN)
            return nr_error_set(err, "%s:%d: unknown key '%.40s' (SDL scancode names: W, Up, \"Left Shift\", Keypad 8 ...)",
                                name, ln, kn);
        static const SDL_Scancode reserved[] = PLAYKEYS_RESERVED;
        for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
            if (reserved[i] == sc)
                return nr_error_set(err, "%s:%d: key '%s' is one of the game's own keys (docs/play.md)", name, ln,
                                    SDL_GetScancodeName(sc));
        if (n == PLAYKEYS_PER_ACTION)
            return nr_error_set(err, "%s:%d: at most %d keys per action", name, ln, PLAYKEYS_PER_ACTION);
        keys[n++] = sc;
    }
    if (n == 0)
        return nr_error_set(err, "%s:%d: p%d.%s needs at least one key", name, ln, player + 1, ACTION_NAME[action]);
    memcpy(k->key[player][action], keys, sizeof keys);
    return true;
}

bool playkeys_parse(PlayKeys *k, const char *text, const char *name, NrError *err)
{
    PlayKeys t;
    playkeys_default(&t);
    bool named[PLAYKEYS_PLAYERS][PK_ACTIONS] = {{false}};
    char line[512];
    int ln = 0;
    const char *s = text;
    while (*s) {
        ln++;
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (len >= sizeof line)
            return nr_error_set(err, "%s:%d: line longer than %zu characters", name, ln, sizeof line - 1);
        memcpy(line, s, len);
        line[len] = '\0';
        if (len > 0 && line[len - 1] == '\r')
            line[len - 1] = '\0';
        for (size_t i = 0; line[i]; i++)
            if ((unsigned char)line[i] < 32 && line[i] != '\t')
                return nr_error_set(err, "%s:%d: control character in the line", name, ln);
        if (!parse_line(&t, line, name, ln, named, err))
            return false;
        s += len + (nl ? 1 : 0);
    }
    marks_give_way(&t, named);
    /* every key once: defaults not replaced may collide with a new binding */
    for (int p = 0; p < PLAYKEYS_PLAYERS; p++)
        for (int a = 0; a < PK_ACTIONS; a++)
            for (int i = 0; i < PLAYKEYS_PER_ACTION; i++) {
                SDL_Scancode sc = t.key[p][a][i];
                int op, oa;
                if (sc && bound_elsewhere(&t, sc, p, a, &op, &oa))
                    return nr_error_set(err, "%s: key '%s' is bound to both p%d.%s and p%d.%s", name,
                                        SDL_GetScancodeName(sc), p + 1, ACTION_NAME[a], op + 1, ACTION_NAME[oa]);
                for (int j = 0; j < i; j++)
                    if (sc && t.key[p][a][j] == sc)
                        return nr_error_set(err, "%s: key '%s' listed twice for p%d.%s", name,
                                            SDL_GetScancodeName(sc), p + 1, ACTION_NAME[a]);
            }
    *k = t;
    return true;
}

bool playkeys_load(PlayKeys *k, const char *path, NrError *err)
{
    FILE *f = nr_file_open(path, "a key map", err);
    if (!f)
        return false;
    char *buf = malloc(65537);
    if (!buf) {
        fclose(f);
        return nr_error_set(err, "%s: out of memory", path);
    }
    size_t n = fread(buf, 1, 65537, f);
    bool rd = !ferror(f);
    fclose(f);
    bool ok;
    if (!rd)
        ok = nr_error_set(err, "%s: read error", path);
    else if (n > 65536)
        ok = nr_error_set(err, "%s: a key map is a few lines; this file is over 64 KiB", path);
    else if (memchr(buf, '\0', n))
        ok = nr_error_set(err, "%s: not a text file (NUL byte)", path);
    else {
        buf[n] = '\0';
        ok = playkeys_parse(k, buf, path, err);
    }
    free(buf);
    return ok;
}

static bool any_down(const SDL_Scancode *keys, const Uint8 *state)
{
    for (int i = 0; i < PLAYKEYS_PER_ACTION; i++)
        if (keys[i] && state[keys[i]])
            return true;
    return false;
}

void playkeys_read(const PlayKeys *k, int player, const Uint8 *state, PlayControl *out)
{
    const SDL_Scancode(*a)[PLAYKEYS_PER_ACTION] = k->key[player];
    out->throttle = any_down(a[PK_THROTTLE], state) ? 1.0 : 0.0;
    out->brake = any_down(a[PK_BRAKE], state) ? 1.0 : 0.0;
    out->steer = (any_down(a[PK_LEFT], state) ? 1.0 : 0.0) - (any_down(a[PK_RIGHT], state) ? 1.0 : 0.0);
}

/* Short key names for the HUD: the arrow keys as arrows. */
static const char *short_name(SDL_Scancode sc)
{
    switch (sc) {
    case SDL_SCANCODE_UP:
        return "↑";
    case SDL_SCANCODE_DOWN:
        return "↓";
    case SDL_SCANCODE_LEFT:
        return "←";
    case SDL_SCANCODE_RIGHT:
        return "→";
    default:
        return sc ? SDL_GetScancodeName(sc) : "-";
    }
}

const char *playkeys_key_name(const PlayKeys *k, int player, int action)
{
    return short_name(k->key[player][action][0]);
}

bool playkeys_find(const PlayKeys *k, SDL_Scancode sc, int *player, int *action)
{
    for (int p = 0; p < PLAYKEYS_PLAYERS; p++)
        for (int a = 0; a < PK_ACTIONS; a++)
            for (int i = 0; i < PLAYKEYS_PER_ACTION; i++)
                if (sc && k->key[p][a][i] == sc) {
                    *player = p;
                    *action = a;
                    return true;
                }
    return false;
}

bool playkeys_drives(const PlayKeys *k, SDL_Scancode sc)
{
    int player, action;
    return playkeys_find(k, sc, &player, &action);
}

/* The modifier bit of a modifier key's scancode (0 for another key). */
static Uint16 own_mod(SDL_Scancode sc)
{
    static const Uint16 MOD[8] = {KMOD_LCTRL, KMOD_LSHIFT, KMOD_LALT, KMOD_LGUI,
                                  KMOD_RCTRL, KMOD_RSHIFT, KMOD_RALT, KMOD_RGUI};
    return sc >= SDL_SCANCODE_LCTRL && sc <= SDL_SCANCODE_RGUI ? MOD[sc - SDL_SCANCODE_LCTRL] : 0;
}

/* A player's key acts only alone: never in a combination with Ctrl, Alt or
 * GUI (Ctrl + on a US keyboard is Ctrl+Shift+=, and Shift is a mark key),
 * and a modifier key bound to a player (Shift) on its release, when no
 * Ctrl, Alt, GUI or key of the game's went down while it was held. */
bool playkeys_gate(PlayKeyGate *g, const PlayKeys *k, const SDL_KeyboardEvent *ev, int *player, int *action)
{
    SDL_Scancode sc = ev->keysym.scancode;
    Uint16 own = own_mod(sc);
    bool combo = (own & (KMOD_CTRL | KMOD_ALT | KMOD_GUI)) != 0;
    bool mine = playkeys_find(k, sc, player, action);
    int slot = own ? (int)(sc - SDL_SCANCODE_LCTRL) : -1;
    if (ev->type == SDL_KEYUP) {
        bool act = slot >= 0 && g->alone[slot] && mine;
        if (slot >= 0)
            g->alone[slot] = false;
        return act;
    }
    if (ev->type != SDL_KEYDOWN || ev->repeat)
        return false;
    if (combo || !mine)
        memset(g->alone, 0, sizeof g->alone); /* Shift+Ctrl..., Shift+= : not the player's */
    bool held = (ev->keysym.mod & ~own & (KMOD_CTRL | KMOD_ALT | KMOD_GUI)) != 0;
    if (!mine || held)
        return false;
    if (slot >= 0) {
        g->alone[slot] = true; /* it acts when released */
        return false;
    }
    return true;
}

void playkeys_describe(const PlayKeys *k, int player, char *buf, size_t n)
{
    const int order[PK_DRIVE] = {PK_THROTTLE, PK_LEFT, PK_BRAKE, PK_RIGHT};
    size_t w = 0;
    buf[0] = '\0';
    for (int i = 0; i < PK_DRIVE && w < n; i++) {
        SDL_Scancode sc = k->key[player][order[i]][0];
        int m = snprintf(buf + w, n - w, "%s%s", i ? "/" : "", short_name(sc));
        if (m < 0)
            break;
        w += (size_t)m;
    }
}

/* ---- gamepads ---------------------------------------------------------- */

void pads_init(PlayPads *p)
{
    memset(p, 0, sizeof *p);
}

/* SDL looks each added mapping's GUID up in its list (linear), so n
 * mappings cost n^2 / 2 comparisons: 10^5 lines took 191 s (issue 24).
 * Capped, the worst file costs PADS_MAPPINGS_MAX^2 / 2 (8 M, well under a
 * second); SDL's own database has about 2,000 lines, 600 KB. */
#define PADS_MAPPINGS_MAX 4096
#define PADS_MAPPINGS_BYTES (4L << 20)

bool pads_load_mappings(PlayPads *p, const char *path, int *added, NrError *err)
{
    (void)p;
    *added = 0;
    FILE *f = nr_file_open(path, "gamepad mappings", err);
    if (!f)
        return false;
    /* the size first: a huge file is refused before a line is read */
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size < 0 || size > PADS_MAPPINGS_BYTES || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return nr_error_set(err, "%s: %ld bytes, more than the %ld a gamepad mappings file may have", path, size,
                            PADS_MAPPINGS_BYTES);
    }
    char line[NR_LINE_MAX];
    int ln = 0;
    bool ok = true;
    for (;;) {
        size_t len;
        NrLine got = nr_line_read(f, line, sizeof line, &len);
        if (got == NR_LINE_EOF)
            break;
        ln++;
        if (got != NR_LINE_OK) {
            ok = nr_error_set(err, "%s:%d: %s", path, ln,
                              got == NR_LINE_LONG  ? "line too long"
                              : got == NR_LINE_NUL ? "NUL byte (not a text file)"
                                                   : "read error");
            break;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        const char *plat = strstr(s, "platform:");
        if (plat && strncmp(plat + 9, SDL_GetPlatform(), strlen(SDL_GetPlatform())) != 0)
            continue; /* another system's mapping: not an error */
        if (*added == PADS_MAPPINGS_MAX) {
            ok = nr_error_set(err, "%s:%d: more than %d gamepad mappings", path, ln, PADS_MAPPINGS_MAX);
            break;
        }
        if (SDL_GameControllerAddMapping(s) < 0) {
            ok = nr_error_set(err, "%s:%d: not a gamepad mapping (GUID,name,a:b0,... expected): %s", path, ln,
                              SDL_GetError());
            break;
        }
        (*added)++;
    }
    fclose(f);
    return ok;
}

void pads_want(PlayPads *p, int player, bool on)
{
    if (player >= 0 && player < PLAY_PLAYERS)
        p->want[player] = on;
}

static Pad *find_pad(PlayPads *p, SDL_JoystickID id)
{
    for (int i = 0; i < p->npads; i++)
        if (p->pad[i].id == id)
            return &p->pad[i];
    return NULL;
}

static const Pad *player_pad(const PlayPads *p, int player)
{
    for (int i = 0; i < p->npads; i++)
        if (p->pad[i].player == player)
            return &p->pad[i];
    return NULL;
}

/* The player's car colour of the window (pal_car) on the pad's light. */
static void light_up(Pad *pad, int player)
{
    SDL_Color c = pal_car(player);
    SDL_GameControllerSetPlayerIndex(pad->gc, player);
    if (SDL_GameControllerHasLED(pad->gc))
        SDL_GameControllerSetLED(pad->gc, c.r, c.g, c.b);
}

static void news(PadEvent *out, PadNews what, int player, const Pad *pad)
{
    out->news = what;
    out->player = player;
    const char *nm = pad && pad->gc ? SDL_GameControllerName(pad->gc) : NULL;
    snprintf(out->name, sizeof out->name, "%s", nm ? nm : "gamepad");
}

bool pads_event(PlayPads *p, const SDL_Event *ev, PadEvent *out)
{
    if (ev->type == SDL_CONTROLLERDEVICEADDED) {
        if (p->npads == PADS_MAX)
            return false;
        SDL_GameController *gc = SDL_GameControllerOpen(ev->cdevice.which);
        if (!gc)
            return false;
        SDL_JoystickID id = SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(gc));
        if (find_pad(p, id)) { /* already open (the added event of a pad seen at start) */
            SDL_GameControllerClose(gc);
            return false;
        }
        Pad *pad = &p->pad[p->npads++];
        pad->gc = gc;
        pad->id = id;
        pad->player = -1;
        SDL_GameControllerSetPlayerIndex(gc, -1);
        return false;
    }
    if (ev->type == SDL_CONTROLLERDEVICEREMOVED) {
        Pad *pad = find_pad(p, ev->cdevice.which);
        if (!pad)
            return false;
        int player = pad->player;
        if (player >= 0)
            news(out, PAD_LOST, player, pad);
        SDL_GameControllerClose(pad->gc);
        *pad = p->pad[--p->npads];
        return player >= 0;
    }
    if (ev->type == SDL_CONTROLLERBUTTONDOWN) {
        Pad *pad = find_pad(p, ev->cbutton.which);
        if (!pad || pad->player >= 0)
            return false;
        for (int j = 0; j < PLAY_PLAYERS; j++)
            if (p->want[j] && !player_pad(p, j)) {
                pad->player = j;
                light_up(pad, j);
                news(out, PAD_JOINED, j, pad);
                return true;
            }
    }
    return false;
}

int pads_player_of(const PlayPads *p, SDL_JoystickID id)
{
    for (int i = 0; i < p->npads; i++)
        if (p->pad[i].id == id)
            return p->pad[i].player;
    return -1;
}

bool pads_has(const PlayPads *p, int player)
{
    return player_pad(p, player) != NULL;
}

static double axis01(SDL_GameController *gc, SDL_GameControllerAxis a)
{
    double v = SDL_GameControllerGetAxis(gc, a) / 32767.0;
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

void pads_read(const PlayPads *p, int player, PlayControl *out)
{
    memset(out, 0, sizeof *out);
    const Pad *pad = player_pad(p, player);
    if (!pad)
        return;
    SDL_GameController *gc = pad->gc;
    double x = SDL_GameControllerGetAxis(gc, SDL_CONTROLLER_AXIS_LEFTX) / 32767.0;
    x = x < -1 ? -1 : x > 1 ? 1 : x;
    /* rescale outside the dead zone so full travel is still full lock */
    double ax = x < 0 ? -x : x;
    double st = ax <= PADS_DEADZONE ? 0.0 : (ax - PADS_DEADZONE) / (1.0 - PADS_DEADZONE);
    st = x < 0 ? st : -st; /* stick right = steer right = negative (left > 0) */
    if (SDL_GameControllerGetButton(gc, SDL_CONTROLLER_BUTTON_DPAD_LEFT))
        st = 1.0;
    if (SDL_GameControllerGetButton(gc, SDL_CONTROLLER_BUTTON_DPAD_RIGHT))
        st = -1.0;
    out->steer = st;
    out->throttle = axis01(gc, SDL_CONTROLLER_AXIS_TRIGGERRIGHT);
    if (SDL_GameControllerGetButton(gc, SDL_CONTROLLER_BUTTON_A))
        out->throttle = 1.0;
    out->brake = axis01(gc, SDL_CONTROLLER_AXIS_TRIGGERLEFT);
    if (SDL_GameControllerGetButton(gc, SDL_CONTROLLER_BUTTON_B) || SDL_GameControllerGetButton(gc, SDL_CONTROLLER_BUTTON_X))
        out->brake = 1.0;
}

const char *pads_name(const PlayPads *p, int player)
{
    const Pad *pad = player_pad(p, player);
    const char *n = pad ? SDL_GameControllerName(pad->gc) : NULL;
    return n ? n : "";
}

void pads_free(PlayPads *p)
{
    for (int i = 0; i < p->npads; i++)
        SDL_GameControllerClose(p->pad[i].gc);
    p->npads = 0;
}
