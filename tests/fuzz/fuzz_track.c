/* Fuzz harness: the track parser (track_parse) and the geometry of what it
 * accepts. */
#include "track.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    NrError err;
    Track *t = track_parse(text, "fuzz.track", &err);
    free(text);
    if (!t) {
        if (err.msg[0] == '\0')
            abort(); /* a refusal always says why */
        return 0;
    }
    double len = track_length(t), w = track_width(t);
    if (!(len > 0 && isfinite(len) && w > 0 && isfinite(w)))
        abort();
    /* The loader promises every grid slot lies on the track. */
    for (int c = 0; c < track_grid_slots(t); c++) {
        double x, y, h, s;
        track_grid(t, c, &x, &y, &h, &s);
        if (!track_on_track(t, x, y))
            abort();
    }
    /* A centre-line point projects to an arc length in [0, length). */
    for (int i = 0; i < 8; i++) {
        double x, y, h;
        track_point(t, len * i / 8, &x, &y, &h);
        double s = track_project(t, x, y);
        if (!(s >= 0 && s < len) || fabs(track_offset(t, x, y)) > 1e-6 * (1 + w))
            abort();
    }
    track_free(t);
    return 0;
}
