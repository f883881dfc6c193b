/* The link presets and their sources (one-way delays; linkpreset.h). */
#include "linkpreset.h"

#include <stdio.h>
#include <string.h>

/* Physics used below: light in optical fibre travels at about 2e8 m/s (the
 * glass's refractive index of about 1.5), in vacuum at 3e8 m/s. */
static const LinkPreset presets[] = {
    {"lan", "delay 200us 50us distribution normal",
     "illustrative: a switched Ethernet LAN, sub-millisecond round trips"},
    {"wifi", "delay 3ms 2ms distribution paretonormal loss 0.5%",
     "illustrative: a home 802.11 hop, a few ms with a heavy tail from contention and retries"},
    {"fiber", "delay 5ms 1ms distribution normal",
     "illustrative: the order of the fibre latencies (about 10 ms round trip) of the FCC's Measuring Broadband "
     "America reports"},
    {"cable", "delay 10ms 3ms distribution normal",
     "illustrative: the order of the cable latencies (about 20 ms round trip) of the FCC's Measuring Broadband "
     "America reports"},
    {"dsl", "delay 15ms 3ms distribution normal",
     "illustrative: the order of the DSL latencies (about 30 ms round trip) of the FCC's Measuring Broadband "
     "America reports"},
    {"4g", "delay 30ms 10ms distribution paretonormal loss 0.5%",
     "illustrative: 3GPP TR 36.913 sets LTE-Advanced's radio user-plane latency target under 10 ms; the core "
     "network and the path beyond add the rest"},
    {"intercontinental", "delay 40ms 3ms distribution normal",
     "physics plus illustrative routing: London-New York is about 5,570 km great circle, 28 ms one way in "
     "fibre at 2e8 m/s; cables and routes are longer"},
    {"satellite", "delay 280ms 10ms distribution normal",
     "physics plus illustrative ground segments: a geostationary satellite is 35,786 km up, ground-satellite-"
     "ground at least 71,572 km = 239 ms at 3e8 m/s"},
    {"g114", "delay 150ms",
     "ITU-T G.114: up to 150 ms one way is acceptable for most interactive applications"},
    {"racing-paper", "delay 75ms 10ms distribution paretonormal",
     "the racing paper's Section 4: the terminal 2 -> 1 link of its Figs. 6-7"},
    {NULL, NULL, NULL},
};

const LinkPreset *linkpreset_table(void)
{
    return presets;
}

const LinkPreset *linkpreset_find(const char *name)
{
    for (const LinkPreset *p = presets; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

bool linkpreset_expand(const char *text, char *out, size_t cap, NrError *err)
{
    const char *name = text + strlen("preset:");
    size_t len = strcspn(name, " \t\r\n");
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return nr_error_set(err, "'%.*s': expected preset:NAME", (int)(len < 40 ? len + 7 : 47), text);
    memcpy(buf, name, len);
    buf[len] = '\0';
    const LinkPreset *p = linkpreset_find(buf);
    if (!p) {
        char known[256] = "";
        size_t used = 0;
        for (const LinkPreset *q = presets; q->name && used < sizeof known; q++) {
            int w = snprintf(known + used, sizeof known - used, "%s%s", used ? ", " : "", q->name);
            used += w > 0 ? (size_t)w : 0;
        }
        return nr_error_set(err, "unknown link preset '%s' (known: %s)", buf, known);
    }
    int w = snprintf(out, cap, "%s%s", p->spec, name + len);
    if (w < 0 || (size_t)w >= cap)
        return nr_error_set(err, "preset:%s and the rest of the spec are too long", buf);
    return true;
}
