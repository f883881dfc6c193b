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
    m->line = 0;
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
    size_t kl = strnlen(m->kind, sizeof m->kind), nl = strnlen(m->note, sizeof m->note);
    return m->t_ms >= 0 && m->t_ms <= RECORDING_MARK_MAX_MS && m->player >= 0 && m->player <= ncars && kl > 0 &&
           kl < sizeof m->kind && strspn(m->kind, "abcdefghijklmnopqrstuvwxyz_") == kl && nl < sizeof m->note &&
           nr_text_is_printable(m->note) && (nl == 0 || (m->note[0] != ' ' && m->note[nl - 1] != ' '));
}

bool recording_mark_add(Recording *rec, const RecMark *m)
{
    if (rec->nmarks >= RECORDING_MAX_MARKS || !recmark_valid(m, rec->ncars > 0 ? rec->ncars : RECORDING_MAX_CARS))
        return false;
    if (rec->nmarks == rec->marks_cap) {
        int cap = rec->marks_cap ? rec->marks_cap * 2 : 16;
        RecMark *grown = realloc(rec->marks, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        rec->marks = grown;
        rec->marks_cap = cap;
    }
    int i = rec->nmarks; /* after every mark not later: equal times keep their order */
    while (i > 0 && rec->marks[i - 1].t_ms > m->t_ms) {
        rec->marks[i] = rec->marks[i - 1];
        i--;
    }
    rec->marks[i] = *m;
    rec->nmarks++;
    return true;
}

int recmark_format(char *buf, size_t n, const RecMark *m)
{
    int len = snprintf(buf, n, "# mark: %lld,%d,%s%s%s\n", (long long)m->t_ms, m->player, m->kind,
                       m->note[0] ? "," : "", m->note);
    return len < 0 || (size_t)len >= n ? -1 : len;
}

/* The first release's "T_MS [LABEL]" (the lagometer's key, labelled by the
 * terminal in merged races): kind "mark"; host, joiner and carN name the
 * player, any other label stays as the note. */
static bool parse_labelled(RecMark *m, const char *text, size_t digits, int ncars)
{
    const char *label = text + digits + strspn(text + digits, " \t");
    int64_t car = 0;
    snprintf(m->kind, sizeof m->kind, "%s", RECORDING_MARK_KEY);
    if (strcmp(label, "host") == 0)
        m->player = 1;
    else if (strcmp(label, "joiner") == 0)
        m->player = 2;
    else if (strncmp(label, "car", 3) == 0 && nr_parse_int64(label + 3, &car) && car >= 1 && car <= ncars)
        m->player = (int)car;
    else if (strlen(label) < sizeof m->note)
        snprintf(m->note, sizeof m->note, "%s", label);
    else
        return false;
    return recmark_valid(m, ncars);
}

/* "T_MS,PLAYER,KIND[,NOTE]": the note is the rest of the line (commas and
 * all); surrounding blanks of the value are not part of it. */
bool recmark_parse(RecMark *m, const char *text, int ncars)
{
    memset(m, 0, sizeof *m);
    char buf[RECORDING_MARK_KIND + RECORDING_MARK_NOTE + 64];
    size_t len = strlen(text), digits = strspn(text, "0123456789");
    if (len >= sizeof buf || digits == 0 || digits > 13)
        return false;
    memcpy(buf, text, len + 1);
    buf[digits] = '\0';
    int64_t t, p;
    if (!nr_parse_int64(buf, &t))
        return false;
    m->t_ms = t;
    if (text[digits] != ',')
        return (text[digits] == '\0' || text[digits] == ' ' || text[digits] == '\t') &&
               parse_labelled(m, text, digits, ncars);
    char *f1 = buf + digits + 1, *c = strchr(f1, ',');
    if (!c)
        return false;
    *c = '\0';
    char *f2 = c + 1, *note = strchr(f2, ',');
    if (note)
        *note++ = '\0';
    if (!nr_parse_int64(f1, &p) || p < 0 || p > ncars || strlen(f2) >= sizeof m->kind ||
        (note && strlen(note) >= sizeof m->note))
        return false;
    m->player = (int)p;
    snprintf(m->kind, sizeof m->kind, "%s", f2);
    snprintf(m->note, sizeof m->note, "%s", note ? note : "");
    return recmark_valid(m, ncars);
}

bool recording_mark_read(Recording *rec, const char *value, const char *path, int line, NrError *err)
{
    RecMark m;
    int ncars = rec->ncars > 0 ? rec->ncars : RECORDING_MAX_CARS; /* a header's mark may come before cars */
    if (!recmark_parse(&m, value, ncars))
        return nr_error_set(err, "%s:%d: mark '%.40s': expected T_MS,PLAYER,KIND[,NOTE] (T_MS 0 to %lld, player "
                            "0..%d, kind [a-z_]+ of at most %d bytes, a printable note of at most %d) or T_MS "
                            "[LABEL]", path, line, value, (long long)RECORDING_MARK_MAX_MS, ncars,
                            RECORDING_MARK_KIND - 1, RECORDING_MARK_NOTE - 1);
    if (rec->nmarks >= RECORDING_MAX_MARKS)
        return nr_error_set(err, "%s:%d: more than %d marks", path, line, RECORDING_MAX_MARKS);
    if (!recording_mark_add(rec, &m))
        return nr_error_set(err, "%s:%d: out of memory", path, line);
    return true;
}
