/* A recording's condition (the extra "# key: value" header lines) and its
 * marks ("# mark: T_MS [LABEL]" lines), recording.h. */
#include "recording.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keys the format itself defines are never extra lines. */
static bool meta_key_ok(const char *k)
{
    static const char *const own[] = {"track", "period_ms", "cars", "source", "created", "netrace-recording", "mark"};
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

/* A label: printable, no space at either end, short. */
static bool label_ok(const char *s)
{
    size_t n = strlen(s);
    return n < RECORDING_MARK_LABEL && nr_text_is_printable(s) && (n == 0 || (s[0] != ' ' && s[n - 1] != ' '));
}

bool recording_mark_add(Recording *rec, int64_t t_ms, const char *label)
{
    if (t_ms < 0 || t_ms > RECORDING_MARK_MAX_MS || !label_ok(label) || rec->nmarks >= RECORDING_MAX_MARKS)
        return false;
    if (rec->nmarks == rec->marks_cap) {
        int cap = rec->marks_cap ? rec->marks_cap * 2 : 16;
        RecMark *m = realloc(rec->marks, sizeof *m * (size_t)cap);
        if (!m)
            return false;
        rec->marks = m;
        rec->marks_cap = cap;
    }
    int i = rec->nmarks; /* after every mark not later: the file's order among equal times */
    while (i > 0 && rec->marks[i - 1].t_ms > t_ms) {
        rec->marks[i] = rec->marks[i - 1];
        i--;
    }
    rec->marks[i].t_ms = t_ms;
    snprintf(rec->marks[i].label, sizeof rec->marks[i].label, "%s", label);
    rec->nmarks++;
    return true;
}

bool recording_mark_parse(const char *value, int64_t *t_ms, char label[RECORDING_MARK_LABEL])
{
    char num[24];
    size_t n = strcspn(value, " \t");
    if (n == 0 || n >= sizeof num)
        return false;
    memcpy(num, value, n);
    num[n] = '\0';
    if (!nr_parse_int64(num, t_ms) || *t_ms < 0 || *t_ms > RECORDING_MARK_MAX_MS)
        return false;
    const char *rest = value + n + strspn(value + n, " \t");
    if (!label_ok(rest))
        return false;
    snprintf(label, RECORDING_MARK_LABEL, "%s", rest);
    return true;
}

bool recording_mark_read(Recording *rec, const char *val, const char *path, int line, NrError *err)
{
    int64_t t;
    char label[RECORDING_MARK_LABEL];
    if (!recording_mark_parse(val, &t, label))
        return nr_error_set(err, "%s:%d: mark '%.40s': expected '# mark: T_MS [LABEL]', T_MS 0 to %lld, a label "
                            "of at most %d printable characters", path, line, val, (long long)RECORDING_MARK_MAX_MS,
                            RECORDING_MARK_LABEL - 1);
    if (rec->nmarks >= RECORDING_MAX_MARKS)
        return nr_error_set(err, "%s:%d: more than %d marks", path, line, RECORDING_MAX_MARKS);
    if (!recording_mark_add(rec, t, label))
        return nr_error_set(err, "%s:%d: out of memory", path, line);
    return true;
}
