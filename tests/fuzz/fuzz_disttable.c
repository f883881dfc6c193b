/* Fuzz harness: the netem distribution-table reader; a table written back
 * one entry per line reads back to the same entries. */
#include "link.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 1 << 20)
        return 0;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    DistTable t;
    NrError err;
    bool ok = disttable_read(&t, f, "fuzz.dist", &err);
    fclose(f);
    if (!ok) {
        if (err.msg[0] == '\0')
            abort();
        return 0;
    }
    if (t.n < 1 || t.n > LINK_DIST_MAX)
        abort();
    char *buf = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&buf, &len);
    if (!w)
        abort();
    fprintf(w, "# written back\n");
    for (int i = 0; i < t.n; i++)
        fprintf(w, "%d\n", t.v[i]);
    fclose(w);
    FILE *r = fmemopen(buf, len, "rb");
    DistTable back;
    if (!r || !disttable_read(&back, r, "back.dist", &err) || back.n != t.n ||
        memcmp(back.v, t.v, (size_t)t.n * sizeof *t.v) != 0)
        abort();
    fclose(r);
    free(buf);
    disttable_free(&back);
    disttable_free(&t);
    return 0;
}
