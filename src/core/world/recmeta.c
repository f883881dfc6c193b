/* A recording's extra lines (recording.h): its condition ("# key: value"
 * in the header) and its marks ("# mark: T_MS,PLAYER,KIND[,NOTE]" between
 * the rows). */
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

bool recmark_valid(const RecMark *m, int ncars)
{
    size_t kl = strnlen(m->kind, sizeof m->kind);
    return m->t_ms >= 0 && m->player >= 0 && m->player <= ncars && kl > 0 && kl < sizeof m->kind &&
           strspn(m->kind, "abcdefghijklmnopqrstuvwxyz_") == kl && strnlen(m->note, sizeof m->note) < sizeof m->note &&
           nr_text_is_printable(m->note);
}

bool recording_mark_add(Recording *rec, const RecMark *m)
{
    if (rec->nmarks >= RECORDING_MAX_MARKS || !recmark_valid(m, rec->ncars))
        return false;
    RecMark *grown = realloc(rec->marks, (size_t)(rec->nmarks + 1) * sizeof *grown);
    if (!grown)
        return false;
    rec->marks = grown;
    rec->marks[rec->nmarks++] = *m;
    return true;
}

int recmark_format(char *buf, size_t n, const RecMark *m)
{
    int len = snprintf(buf, n, "# mark: %ld,%d,%s%s%s\n", (long)m->t_ms, m->player, m->kind, m->note[0] ? "," : "",
                       m->note);
    return len < 0 || (size_t)len >= n ? -1 : len;
}

/* "T_MS,PLAYER,KIND[,NOTE]": the note is the rest of the line (commas and
 * all); surrounding blanks of the value are not part of it. */
bool recmark_parse(RecMark *m, const char *text, int ncars)
{
    memset(m, 0, sizeof *m);
    char buf[RECORDING_MARK_KIND + RECORDING_MARK_NOTE + 64];
    size_t len = strlen(text);
    if (len >= sizeof buf)
        return false;
    memcpy(buf, text, len + 1);
    char *f[3] = {buf, NULL, NULL}, *note = NULL;
    for (int k = 1; k <= 3; k++) {
        char *c = strchr(k == 3 ? f[2] : f[k - 1], ',');
        if (!c)
            break;
        *c = '\0';
        if (k == 3)
            note = c + 1;
        else
            f[k] = c + 1;
    }
    int64_t t, p;
    if (!f[1] || !f[2] || !nr_parse_int64(f[0], &t) || t < 0 || t > INT32_MAX || !nr_parse_int64(f[1], &p) ||
        p < 0 || p > ncars || strlen(f[2]) >= sizeof m->kind || (note && strlen(note) >= sizeof m->note))
        return false;
    m->t_ms = (int32_t)t;
    m->player = (int)p;
    snprintf(m->kind, sizeof m->kind, "%s", f[2]);
    snprintf(m->note, sizeof m->note, "%s", note ? note : "");
    return recmark_valid(m, ncars);
}
