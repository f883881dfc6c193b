/* Named link presets: `preset:NAME [MORE SPEC]` wherever a link spec goes
 * (linkspec_parse expands it), e.g. `preset:dsl` or `preset:4g loss 2%`.
 * Every number's source is written beside it in linkpreset.c and in
 * docs/link.md "Presets"; values no public report pins down are marked
 * illustrative.
 *
 * Contracts:
 *   linkpreset_table()     NULL-name-terminated table of every preset.
 *   linkpreset_find(name)  the preset, NULL when unknown.
 *   linkpreset_expand(text, out, cap, err)  text starts with "preset:NAME";
 *        out = the preset's spec followed by the rest of text. False + err
 *        (unknown name, listing the known ones; too long).
 */
#ifndef NR_LINKPRESET_H
#define NR_LINKPRESET_H

#include "nr_common.h"

#include <stddef.h>

typedef struct LinkPreset {
    const char *name;
    const char *spec;   /* netem grammar, one way */
    const char *source; /* where the numbers come from */
} LinkPreset;

const LinkPreset *linkpreset_table(void);
const LinkPreset *linkpreset_find(const char *name);
bool linkpreset_expand(const char *text, char *out, size_t cap, NrError *err);

#endif
