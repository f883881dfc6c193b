/* Fuzz harness: input scripts (t_ms,player,throttle,brake,steer). What
 * parses is written back through the inputs writer and read again: the same
 * input for every player at every line's time. */
#include "inputs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 1 << 16)
        return 0;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    InputScript s;
    NrError err;
    bool ok = inputs_read(&s, f, "fuzz.inputs", &err);
    fclose(f);
    if (!ok) {
        if (err.msg[0] == '\0')
            abort();
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/netrace-fuzz-%ld.inputs", (long)getpid());
    remove(path);
    char part[80];
    snprintf(part, sizeof part, "%s.part", path);
    remove(part);
    InputsWriter *w = inputs_writer_open(path, &err);
    if (!w)
        abort();
    /* Lines in time order across players, as a live race writes them. */
    int32_t t = -1;
    for (;;) {
        int32_t next = INT32_MAX;
        for (int i = 0; i < s.n; i++)
            if (s.lines[i].t_ms > t && s.lines[i].t_ms < next)
                next = s.lines[i].t_ms;
        if (next == INT32_MAX)
            break;
        for (int i = 0; i < s.n; i++)
            if (s.lines[i].t_ms == next && !inputs_writer_add(w, next, s.lines[i].player, &s.lines[i].in, &err))
                abort();
        t = next;
        if (s.n > 2000)
            break; /* quadratic loop: keep executions fast */
    }
    if (!inputs_writer_close(w, &err))
        abort();
    InputScript back;
    if (s.n <= 2000) {
        if (!inputs_load(&back, path, &err))
            abort();
        for (int i = 0; i < s.n; i++) {
            CarInput a, b;
            inputs_at(&s, s.lines[i].player, s.lines[i].t_ms, &a);
            inputs_at(&back, s.lines[i].player, s.lines[i].t_ms, &b);
            if (memcmp(&a, &b, sizeof a) != 0)
                abort();
        }
        inputs_free(&back);
    }
    remove(path);
    inputs_free(&s);
    return 0;
}
