/* Fuzz harness: delays files for `netrace fit` (one value per line or a
 * merge --delays CSV); an accepted file has at least one delivered slot,
 * every slot a finite delay >= 0 or lost, and fits; a refused one says why. */
#include "linkfit.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    FILE *f = fmemopen((void *)data, size ? size : 1, "rb");
    if (!f)
        return 0;
    if (size == 0)
        fgetc(f); /* an empty file: fmemopen needs one byte of buffer */
    DelaySeries s;
    NrError err;
    err.msg[0] = '\0';
    bool ok = delays_read(f, "fuzz", 12, &s, &err);
    fclose(f);
    if (!ok) {
        if (err.msg[0] == '\0' || s.ms != NULL || s.n != 0)
            abort();
        return 0;
    }
    int64_t delivered = 0;
    for (int64_t i = 0; i < s.n; i++) {
        if (!isnan(s.ms[i]) && !(isfinite(s.ms[i]) && s.ms[i] >= 0))
            abort();
        delivered += !isnan(s.ms[i]);
    }
    if (delivered == 0)
        abort();
    LinkFit fit;
    if (delivered >= 2 && !linkfit_run(&s, NULL, &fit, &err))
        abort();
    delays_free(&s);
    return 0;
}
