/* netem distribution tables: iproute2 .dist files, the system search and the
 * built-in normal / pareto / paretonormal tables generated at parse time. */
#include "link.h"
#include "nr_file.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Entries of a generated table: iproute2 samples its 16384-point inverse CDF
 * every 4th point, so the installed tables have 4096 entries. */
#define GEN_POINTS 16384
#define GEN_ENTRIES (GEN_POINTS / 4)

void disttable_free(DistTable *t)
{
    if (!t)
        return;
    free(t->v);
    t->v = NULL;
    t->n = 0;
    t->name[0] = '\0';
}

bool disttable_copy(DistTable *dst, const DistTable *src)
{
    *dst = (DistTable){0};
    if (src->n <= 0 || !src->v)
        return true;
    dst->v = malloc((size_t)src->n * sizeof *dst->v);
    if (!dst->v)
        return false;
    memcpy(dst->v, src->v, (size_t)src->n * sizeof *dst->v);
    dst->n = src->n;
    snprintf(dst->name, sizeof dst->name, "%s", src->name);
    return true;
}

/* The file format read by tc (iproute2 tc/q_netem.c get_distribution):
 * lines starting with '#' and empty lines are skipped; every other line holds
 * whitespace-separated integers (strtol base 0, as tc reads them). We are
 * stricter than tc, which silently stops a line at the first non-number:
 * anything but a '#' comment after the numbers is an error here. */
/* A table may hold all its entries on one line: room for LINK_DIST_MAX
 * numbers of up to 7 characters each plus separators. */
#define DIST_LINE_MAX (LINK_DIST_MAX * 8 + 2)

bool disttable_load(DistTable *t, const char *path, NrError *err)
{
    *t = (DistTable){0};
    FILE *f = nr_file_open(path, "a distribution table", err);
    if (!f)
        return false;
    bool ok = disttable_read(t, f, path, err);
    fclose(f);
    return ok;
}

/* The integers of one line (a '#' ends it) appended to v[*n]; false with
 * the line's error. */
static bool read_numbers(char *line, int16_t *v, int *n, const char *path, long lineno, NrError *err)
{
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\v' || *p == '\f')
            p++;
        if (*p == '\0' || *p == '#')
            return true;
        char *end = NULL;
        errno = 0;
        long x = strtol(p, &end, 0);
        bool sep = end != p && (*end == '\0' || *end == ' ' || *end == '\t' || *end == '\r' || *end == '\n' ||
                                *end == '#');
        if (end == p || !sep) {
            char tok[32];
            size_t k = strcspn(p, " \t\r\n");
            snprintf(tok, sizeof tok, "%.*s", (int)(k < 24 ? k : 24), p);
            return nr_error_set(err, "%s:%ld: expected integers from -32768 to 32767, got '%s'", path, lineno, tok);
        }
        if (errno == ERANGE || x < INT16_MIN || x > INT16_MAX)
            return nr_error_set(err, "%s:%ld: value %.*s out of range: expected -32768 to 32767", path, lineno,
                                (int)(end - p < 24 ? end - p : 24), p);
        if (*n >= LINK_DIST_MAX)
            return nr_error_set(err, "%s:%ld: more than %d entries: expected at most %d", path, lineno,
                                LINK_DIST_MAX, LINK_DIST_MAX);
        v[(*n)++] = (int16_t)x;
        p = end;
    }
}

/* The table's name: the file name without its directory and ".dist". */
static void table_name(DistTable *t, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    if (bl > 5 && strcmp(base + bl - 5, ".dist") == 0)
        bl -= 5;
    snprintf(t->name, sizeof t->name, "%.*s", (int)(bl < 63 ? bl : 63), base);
}

bool disttable_read(DistTable *t, FILE *f, const char *path, NrError *err)
{
    *t = (DistTable){0};
    int16_t *v = malloc(LINK_DIST_MAX * sizeof *v);
    char *line = malloc(DIST_LINE_MAX);
    if (!v || !line) {
        free(v);
        free(line);
        return nr_error_set(err, "%s: out of memory", path);
    }
    int n = 0;
    long lineno = 0;
    bool ok = true;
    errno = 0;
    size_t got;
    NrLine lr;
    while (ok && (lr = nr_line_read(f, line, DIST_LINE_MAX, &got)) != NR_LINE_EOF) {
        lineno++;
        if (lr == NR_LINE_LONG)
            ok = nr_error_set(err, "%s:%ld: line longer than %d bytes", path, lineno, DIST_LINE_MAX - 1);
        else if (lr == NR_LINE_ERROR)
            break; /* reported below */
        else if (lr == NR_LINE_NUL) /* strtol would stop at the NUL and drop the rest of the line */
            ok = nr_error_set(err, "%s:%ld: binary data (NUL byte): expected lines of integers", path, lineno);
        else if (line[0] != '#')
            ok = read_numbers(line, v, &n, path, lineno, err);
    }
    if (ok && ferror(f))
        ok = nr_error_set(err, "%s:%ld: cannot read: %s", path, lineno + 1, errno ? strerror(errno) : "read error");
    free(line);
    if (ok && n == 0)
        ok = nr_error_set(err, "%s:%ld: no table entries: expected lines of integers", path, lineno > 0 ? lineno : 1);
    if (!ok) {
        free(v);
        return false;
    }
    int16_t *shrunk = realloc(v, (size_t)n * sizeof *v);
    t->v = shrunk ? shrunk : v;
    t->n = n;
    table_name(t, path);
    return true;
}

/* ---- Built-in tables ------------------------------------------------------
 * iproute2's netem/normal.c (from NIST Net) walks x from -10 to 10.05 in steps
 * of 0.00005, files x under the point i = rint(16384 * Phi(x)) (the last x to
 * land on i wins) and prints rint(8192 * x) for every 4th point, clamped to
 * 16 bits. The largest grid x with rint(16384 * Phi(x)) <= i is found here by
 * bisection on the grid index, which gives the same x without 400,000 erf
 * calls (the grid is computed by multiplication instead of accumulation, so
 * an entry may differ by one where x sits on a rounding boundary). */
static double phi(double x)
{
    return 0.5 + 0.5 * erf(x / sqrt(2.0));
}

#define GRID_X0 (-10.0)
#define GRID_STEP 0.00005
#define GRID_LAST 401000L /* -10 + 401000 * 0.00005 = 10.05 */

static int grid_point(long k)
{
    return (int)rint(GEN_POINTS * phi(GRID_X0 + (double)k * GRID_STEP));
}

static int16_t clamp16(double v)
{
    if (v < INT16_MIN)
        return INT16_MIN;
    if (v > INT16_MAX)
        return INT16_MAX;
    return (int16_t)v;
}

/* rint(8192 * x) for the normal quantile at point i, not yet clamped. */
static double normal_point(int i)
{
    long lo = 0, hi = GRID_LAST - 1; /* grid_point(lo) <= i holds for lo = 0 */
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        if (grid_point(mid) <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return rint((GRID_X0 + (double)lo * GRID_STEP) * LINK_DIST_SCALE);
}

/* iproute2 netem/pareto.c: Pareto with shape a = 3 (mean 1.5, sd sqrt(3)/2),
 * shifted to mean 0 and scaled by 4/3, at u = j/65536 for j = 65536, 65520,
 * ..., 16 (j = 65536 - 4 i for point i), capped at 32767. */
static int pareto_point(int i)
{
    double u = (double)(65536 - 4 * i) / 65536.0;
    double v = (1.0 / pow(u, 1.0 / 3.0) - 1.5) * (4.0 / 3.0) * LINK_DIST_SCALE;
    if (v > 32767)
        v = 32767;
    return (int)rint(v);
}

bool disttable_generate(DistTable *t, const char *name)
{
    *t = (DistTable){0};
    int kind;
    if (strcmp(name, "normal") == 0)
        kind = 0;
    else if (strcmp(name, "pareto") == 0)
        kind = 1;
    else if (strcmp(name, "paretonormal") == 0)
        kind = 2;
    else
        return false;
    int16_t *v = malloc(GEN_ENTRIES * sizeof *v);
    if (!v)
        return false;
    for (int e = 0; e < GEN_ENTRIES; e++) {
        int i = 4 * e;
        if (kind == 0) {
            v[e] = clamp16(normal_point(i));
        } else if (kind == 1) {
            v[e] = clamp16(pareto_point(i));
        } else {
            /* netem/paretonormal.c: (normal + 3 * pareto) / 4 in C integer
             * arithmetic (truncation toward zero), then clamped. */
            int nv = (int)normal_point(i);
            int pv = pareto_point(i);
            v[e] = clamp16((double)((nv + 3 * pv) / 4));
        }
    }
    t->v = v;
    t->n = GEN_ENTRIES;
    snprintf(t->name, sizeof t->name, "%s", name);
    return true;
}

/* ---- Search ---------------------------------------------------------------- */

static bool is_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') != NULL || (n > 5 && strcmp(s + n - 5, ".dist") == 0);
}

/* Try DIR/NAME.dist: 1 loaded, 0 absent, -1 error (err filled). */
static int try_dir(DistTable *t, const char *dir, const char *name, NrError *err)
{
    char path[4096];
    size_t dl = strlen(dir);
    int w = snprintf(path, sizeof path, "%s%s%s.dist", dir, dl > 0 && dir[dl - 1] == '/' ? "" : "/", name);
    if (w < 0 || (size_t)w >= sizeof path)
        return 0;
    struct stat st;
    if (stat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
        return 0;
    if (!disttable_load(t, path, err))
        return -1;
    snprintf(t->name, sizeof t->name, "%s", name);
    return 1;
}

/* The system's iproute2 table directories, in search order: Debian's
 * multiarch dir for this machine first, then any other /usr/lib/<triplet>/tc, then
 * the classic locations. */
static int try_system(DistTable *t, const char *name, NrError *err)
{
    static const char *const first[] = {"/usr/lib/x86_64-linux-gnu/tc"};
    static const char *const last[] = {"/usr/lib/tc", "/usr/lib64/tc", "/usr/share/tc"};
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++) {
        int r = try_dir(t, first[i], name, err);
        if (r != 0)
            return r;
    }
    glob_t g;
    if (glob("/usr/lib/*/tc/", 0, NULL, &g) == 0) { /* trailing / : directories only */
        for (size_t i = 0; i < g.gl_pathc; i++) {
            if (strncmp(g.gl_pathv[i], first[0], strlen(first[0])) == 0 &&
                strlen(g.gl_pathv[i]) <= strlen(first[0]) + 1)
                continue;
            int r = try_dir(t, g.gl_pathv[i], name, err);
            if (r != 0) {
                globfree(&g);
                return r;
            }
        }
        globfree(&g);
    }
    for (size_t i = 0; i < sizeof last / sizeof last[0]; i++) {
        int r = try_dir(t, last[i], name, err);
        if (r != 0)
            return r;
    }
    return 0;
}

bool disttable_find(DistTable *t, const char *name_or_path, const char *table_dir, NrError *err)
{
    *t = (DistTable){0};
    if (!name_or_path || !*name_or_path)
        return nr_error_set(err, "distribution: expected a table name or a path to a .dist file");
    if (is_path(name_or_path))
        return disttable_load(t, name_or_path, err);
    for (const char *c = name_or_path; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-' || *c == '.'))
            return nr_error_set(err, "distribution '%s': expected a table name (letters, digits, _ - .) "
                                "or a path to a .dist file", name_or_path);
    int r = table_dir ? try_dir(t, table_dir, name_or_path, err) : try_system(t, name_or_path, err);
    if (r < 0)
        return false;
    if (r > 0)
        return true;
    if (disttable_generate(t, name_or_path))
        return true;
    return nr_error_set(err, "distribution '%s': no %s.dist in %s and no built-in table: expected "
                        "normal, pareto, paretonormal, an installed table or a path to a .dist file",
                        name_or_path, name_or_path, table_dir ? table_dir : "the iproute2 tc directories");
}
