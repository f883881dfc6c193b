/* `netrace study --report DIR...` (filled in below). */
#include "study_cli.h"

int study_report(char **dirs, int n, const char *csv, const char *plot)
{
    (void)dirs;
    (void)n;
    (void)csv;
    (void)plot;
    return CLI_FAIL;
}
