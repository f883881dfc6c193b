/* Input scripts: the text format `t_ms,player,throttle,brake,steer` that
 * drives cars without a person (tests, experiments) and that every driven
 * race records, so the race is re-simulated bit for bit from it.
 *
 * Format (docs/formats.md): optional header line exactly
 * `t_ms,player,throttle,brake,steer`; blank lines and lines starting with
 * '#' are skipped; every other line holds five comma-separated fields:
 * t_ms a whole number 0..2^31-1 (ms of race time), player 1..8, throttle and
 * brake in [0, 1], steer in [-1, 1]. Lines of one player are in strictly
 * increasing time order;
 * a player's input holds from its t_ms until that player's next line (before
 * the first, the car gets no input). Numbers are written so they read back
 * to the same doubles.
 *
 * Contracts:
 *   inputs_load(s, path, err) / inputs_read(s, f, name, err)  parse; false +
 *        err "FILE:LINE: reason" (zeroed s) on bad input. A last line
 *        without a newline that does not parse (cut by a killed writer) is
 *        dropped and s->truncated set.
 *   inputs_free(s)                NULL-safe; s reusable.
 *   inputs_at(s, player, t_ms, out)  the input player (0-based) holds at
 *        t_ms; zero input before its first line. Returns false when the
 *        script has no line for that player at all.
 *   inputs_controller(s)          a Controller that plays s: car c takes
 *        player c's input at w->t_us.
 *   inputs_end_ms(s)              time of the last line (-1 when empty).
 *   InputsWriter: inputs_writer_open(path, err) writes PATH.part (refusing
 *        an existing one), inputs_writer_add(w, t_ms, player, in, err) writes
 *        a line when the player's input changed since its previous line
 *        (flushed at least once per second of race time),
 *        inputs_writer_close(w, err) renames PATH.part to PATH.
 */
#ifndef NR_INPUTS_H
#define NR_INPUTS_H

#include "controller.h"

#include <stdio.h>

#define INPUTS_COLUMNS "t_ms,player,throttle,brake,steer"

typedef struct InputLine {
    int32_t t_ms;
    int32_t player; /* 0-based */
    CarInput in;
} InputLine;

typedef struct InputScript {
    InputLine *lines; /* sorted by (player, t_ms) */
    int n;
    int first[WORLD_MAX_CARS + 1]; /* lines of player p: first[p] .. first[p+1]-1 */
    bool truncated; /* the last line had no newline (a killed writer): dropped */
} InputScript;

bool inputs_load(InputScript *s, const char *path, NrError *err);
bool inputs_read(InputScript *s, FILE *f, const char *name, NrError *err);
void inputs_free(InputScript *s);
bool inputs_at(const InputScript *s, int player, int32_t t_ms, CarInput *out);
int32_t inputs_end_ms(const InputScript *s);
Controller inputs_controller(const InputScript *s);

typedef struct InputsWriter InputsWriter;
InputsWriter *inputs_writer_open(const char *path, NrError *err);
bool inputs_writer_add(InputsWriter *w, int32_t t_ms, int player, const CarInput *in, NrError *err);
bool inputs_writer_close(InputsWriter *w, NrError *err);

#endif
