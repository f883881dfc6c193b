/* Fuzz harness: the netem link-spec parser; the canonical text of an
 * accepted spec parses back to a link that behaves the same. */
#include "link.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    LinkSpec a, b;
    NrError err;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    /* No table folder: user .dist paths in the input are read as given;
     * the fuzzer may name any file, which the parser must survive. */
    bool ok = linkspec_parse(&a, text, NULL, &err);
    free(text);
    if (!ok) {
        if (err.msg[0] == '\0')
            abort();
        return 0;
    }
    /* The canonical text of an accepted spec parses, describes a link that
     * draws the same delays and losses, and is a fixed point from then on
     * (its numbers are printed so they read back to the same values). */
    LinkSpec c;
    memset(&c, 0, sizeof c);
    if (!linkspec_parse(&b, a.text, NULL, &err) || !linkspec_parse(&c, b.text, NULL, &err) ||
        strcmp(b.text, c.text) != 0)
        abort();
    Link la, lb;
    link_init(&la, &a, 1, 0);
    link_init(&lb, &b, 1, 0);
    for (int i = 0; i < 64; i++) {
        LinkDraw da, db;
        link_draw(&la, &da);
        link_draw(&lb, &db);
        if (da.lost != db.lost || da.delay_us != db.delay_us || da.dup != db.dup ||
            (da.dup && da.dup_delay_us != db.dup_delay_us))
            abort();
        if (da.delay_us < 0 || (da.dup && da.dup_delay_us < 0)) /* link.h: never negative */
            abort();
    }
    link_free(&la);
    link_free(&lb);
    linkspec_free(&c);
    linkspec_free(&a);
    linkspec_free(&b);
    return 0;
}
