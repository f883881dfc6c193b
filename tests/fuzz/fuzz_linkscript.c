/* Fuzz harness: link scripts (TIME_S DIRECTION SPEC lines); an accepted
 * script holds at least one change, in time order, each direction valid and
 * each spec's canonical text parsing back; a refused one says why. */
#include "linkscript.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0'; /* a NUL inside ends the text, as a C string */
    LinkScript ls;
    NrError err;
    err.msg[0] = '\0';
    bool ok = linkscript_parse(&ls, text, "fuzz", NULL, &err);
    free(text);
    if (!ok) {
        if (err.msg[0] == '\0' || ls.n != 0 || ls.ch != NULL)
            abort();
        return 0;
    }
    if (ls.n < 1 || ls.n > LINKSCRIPT_MAX)
        abort();
    for (int i = 0; i < ls.n; i++) {
        const LinkChange *c = &ls.ch[i];
        if (c->t_us < 0 || (i > 0 && c->t_us < ls.ch[i - 1].t_us) || c->dir < 0 || c->dir > LINKSCRIPT_BOTH ||
            c->line < 1 || (i > 0 && c->line <= ls.ch[i - 1].line))
            abort();
        LinkSpec back;
        memset(&back, 0, sizeof back);
        if (!linkspec_parse(&back, c->spec.text, NULL, &err))
            abort();
        linkspec_free(&back);
    }
    if (linkscript_next_us(&ls, 0) != ls.ch[0].t_us || linkscript_next_us(&ls, ls.n) != INT64_MAX)
        abort();
    linkscript_free(&ls);
    return 0;
}
