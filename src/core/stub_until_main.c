/* TEMPORARY (branch fair only): minimal stand-ins for link.c and
 * recording.c until their implementations land on main. Delete on merge.
 * Link: "delay TIME [JITTER] [distribution NAME]" with uniform jitter. */
#include "link.h"
#include "recording.h"

#include <stdlib.h>
#include <string.h>

static bool parse_time(const char *tok, int64_t *us)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", tok);
    size_t n = strlen(buf);
    double mul = 0;
    if (n > 2 && strcmp(buf + n - 2, "ms") == 0) {
        mul = 1000;
        buf[n - 2] = 0;
    } else if (n > 2 && strcmp(buf + n - 2, "us") == 0) {
        mul = 1;
        buf[n - 2] = 0;
    } else if (n > 1 && buf[n - 1] == 's') {
        mul = 1e6;
        buf[n - 1] = 0;
    } else {
        return false;
    }
    double v;
    if (!nr_parse_double(buf, &v))
        return false;
    *us = (int64_t)(v * mul);
    return true;
}

bool linkspec_parse(LinkSpec *out, const char *text, const char *table_dir, NrError *err)
{
    (void)table_dir;
    memset(out, 0, sizeof *out);
    snprintf(out->text, sizeof out->text, "%s", text);
    char buf[LINK_TEXT_MAX];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    char *tok = strtok_r(buf, " \t", &save);
    while (tok) {
        if (strcmp(tok, "delay") == 0) {
            tok = strtok_r(NULL, " \t", &save);
            if (!tok || !parse_time(tok, &out->delay_us))
                return nr_error_set(err, "link spec '%s': expected a time after 'delay'", text);
            char *nx = strtok_r(NULL, " \t", &save);
            if (nx && parse_time(nx, &out->jitter_us)) {
                tok = strtok_r(NULL, " \t", &save);
                continue;
            }
            tok = nx;
            continue;
        }
        if (strcmp(tok, "distribution") == 0) {
            tok = strtok_r(NULL, " \t", &save);
            if (!tok)
                return nr_error_set(err, "link spec '%s': expected a name after 'distribution'", text);
            tok = strtok_r(NULL, " \t", &save);
            continue;
        }
        return nr_error_set(err, "link spec '%s': unexpected '%s'", text, tok);
    }
    return true;
}

bool linkspec_copy(LinkSpec *dst, const LinkSpec *src)
{
    *dst = *src;
    return true;
}

void linkspec_free(LinkSpec *s) { (void)s; }

double linkspec_mean_ms(const LinkSpec *s) { return (double)s->delay_us / 1000.0; }

void link_init(Link *l, const LinkSpec *spec, uint64_t seed, uint64_t stream)
{
    memset(l, 0, sizeof *l);
    l->spec = *spec;
    rng_seed(&l->rng, seed, stream);
}

void link_set_spec(Link *l, const LinkSpec *spec) { l->spec = *spec; }

void link_draw(Link *l, LinkDraw *out)
{
    memset(out, 0, sizeof *out);
    double j = (double)l->spec.jitter_us;
    out->delay_us = l->spec.delay_us + (int64_t)((rng_uniform(&l->rng) * 2.0 - 1.0) * j);
}

void link_free(Link *l) { (void)l; }

bool recording_load(Recording *rec, const char *path, NrError *err)
{
    memset(rec, 0, sizeof *rec);
    return nr_error_set(err, "%s: recordings cannot be read yet (recording.c not merged)", path);
}

void recording_free(Recording *rec)
{
    if (!rec)
        return;
    free(rec->samples);
    rec->samples = NULL;
    rec->nsamples = 0;
}

const RecSample *recording_at(const Recording *rec, int car, int i)
{
    return &rec->samples[(size_t)car * (size_t)rec->nsamples + (size_t)i];
}
