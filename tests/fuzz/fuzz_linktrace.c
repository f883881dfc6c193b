/* Fuzz harness: the delays-file reader of `trace FILE`; the slots it builds
 * are sorted and in range, and written back as rows they read back the same. */
#include "link.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put(FILE *w, int dir, int32_t seq, const char *kind, int32_t us)
{
    if (us != LINK_TRACE_NONE)
        fprintf(w, "%s,%d,%s,%d\n", dir ? "21" : "12", seq, kind, us);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 1 << 20)
        return 0;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    LinkTrace t;
    NrError err;
    bool ok = linktrace_read(&t, f, "fuzz.csv", &err);
    fclose(f);
    if (!ok) {
        if (err.msg[0] == '\0' || t.on || t.slot[0] || t.slot[1])
            abort();
        return 0;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&buf, &len);
    if (!w)
        abort();
    fprintf(w, "direction,seq,kind,delay_us\n");
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < t.n[d]; i++) {
            const LinkTraceSlot *s = &t.slot[d][i];
            if (s->seq < 0 || (i > 0 && s->seq <= t.slot[d][i - 1].seq))
                abort(); /* by strictly increasing seq */
            const int32_t v[4] = {s->delay_us, s->dup_us, s->aux_us, s->aux_dup_us};
            for (int k = 0; k < 4; k++)
                if (v[k] < LINK_TRACE_NONE)
                    abort(); /* never negative: clamped at 0 */
            if ((s->delay_us == LINK_TRACE_NONE && s->dup_us != LINK_TRACE_NONE) ||
                (s->aux_us == LINK_TRACE_NONE && s->aux_dup_us != LINK_TRACE_NONE) ||
                (s->dup_us != LINK_TRACE_NONE && s->dup_us < s->delay_us) ||
                (s->aux_dup_us != LINK_TRACE_NONE && s->aux_dup_us < s->aux_us))
                abort(); /* a copy only after its packet, never earlier */
            put(w, d, s->seq, "update", s->delay_us);
            put(w, d, s->seq, "update", s->dup_us);
            put(w, d, s->seq, "parity", s->aux_us);
            put(w, d, s->seq, "parity", s->aux_dup_us);
        }
    fclose(w);
    FILE *r = fmemopen(buf, len, "rb");
    LinkTrace back;
    if (!r || !linktrace_read(&back, r, "back.csv", &err))
        abort();
    fclose(r);
    for (int d = 0; d < 2; d++)
        if (back.n[d] != t.n[d] || back.parity[d] != t.parity[d] ||
            (t.n[d] && memcmp(back.slot[d], t.slot[d], (size_t)t.n[d] * sizeof *t.slot[d]) != 0))
            abort();
    free(buf);
    linktrace_free(&back);
    linktrace_free(&t);
    return 0;
}
