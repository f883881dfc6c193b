/* A recording's condition: the extra "# key: value" header lines (recording.h). */
#include "recording.h"

#include <stdio.h>
#include <string.h>

/* Keys the format itself defines are never extra lines. */
static bool meta_key_ok(const char *k)
{
    static const char *const own[] = {"track", "period_ms", "cars", "source", "created", "netrace-recording"};
    size_t n = strlen(k);
    if (n == 0 || n >= RECORDING_META_KEY || strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
        return false;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strcmp(k, own[i]) == 0)
            return false;
    return true;
}

bool recording_meta_add(Recording *rec, const char *key, const char *value)
{
    if (rec->nmeta >= RECORDING_MAX_META || !meta_key_ok(key) || strlen(value) >= RECORDING_META_VALUE ||
        !nr_text_is_printable(value))
        return false;
    RecMeta *m = &rec->meta[rec->nmeta++];
    snprintf(m->key, sizeof m->key, "%s", key);
    snprintf(m->value, sizeof m->value, "%s", value);
    return true;
}

const char *recording_meta_get(const Recording *rec, const char *key)
{
    for (int i = 0; i < rec->nmeta; i++)
        if (strcmp(rec->meta[i].key, key) == 0)
            return rec->meta[i].value;
    return NULL;
}
