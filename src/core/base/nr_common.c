/* Error formatting and small numeric helpers shared by the core. */
#include "nr_common.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool nr_error_set(NrError *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* One line, safe for a terminal: the message often quotes bytes of an
         * untrusted file or flag, which may hold newlines or escape sequences. */
        for (char *p = err->msg; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
    }
    return false;
}

bool nr_text_is_printable(const char *s)
{
    for (; *s; s++)
        if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
            return false;
    return true;
}

double nr_wrap_angle(double a)
{
    a = fmod(a, 2.0 * NR_PI);
    if (a <= -NR_PI)
        a += 2.0 * NR_PI;
    else if (a > NR_PI)
        a -= 2.0 * NR_PI;
    return a;
}

/* strtod and strtoll skip leading white space and take a '+': a value is
 * written without either ("+5" and " 5" are refused, as a typo would be). */
static bool plain_start(const char *s)
{
    return s && (isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '.');
}

bool nr_parse_double(const char *s, double *out)
{
    if (!plain_start(s))
        return false;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool nr_parse_int64(const char *s, int64_t *out)
{
    if (!plain_start(s) || s[0] == '.')
        return false;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE)
        return false;
    *out = (int64_t)v;
    return true;
}

void nr_format_double(char *buf, size_t n, double v)
{
    for (int d = 0; d <= 17; d++) {
        snprintf(buf, n, "%.*f", d, v);
        if (strlen(buf) > 40)
            break;
        double back = strtod(buf, NULL);
        if (memcmp(&back, &v, sizeof v) == 0)
            return;
    }
    snprintf(buf, n, "%.17g", v);
}

double nr_unsigned_zero(double v, int places)
{
    return fabs(v) < 0.5 * pow(10.0, -places) ? 0.0 : v;
}
