/* fuzz-sources: src/app/play_input.c */
/* fuzz-pkgs: sdl2 */
/* Fuzz harness: the gamepad mappings file (pads_load_mappings, issue 24:
 * quadratic and uncapped before). Whatever the file: a bounded time (the
 * cap), at most 4,096 mappings added, and a refusal says where. SDL's
 * mapping list is global: it is emptied every 256 inputs (the game
 * controller subsystem restarted) so that it does not grow run-long. */
#include "play_input.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static unsigned runs;
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/fuzz-padmap-%d", (int)getpid());
        if (SDL_Init(SDL_INIT_GAMECONTROLLER) != 0)
            abort();
    }
    if (++runs % 256 == 0) {
        SDL_QuitSubSystem(SDL_INIT_GAMECONTROLLER);
        if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0)
            abort();
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    PlayPads p;
    pads_init(&p);
    int added = -1;
    NrError err = {{0}};
    bool ok = pads_load_mappings(&p, path, &added, &err);
    if (added < 0 || added > 4096 || (!ok && strstr(err.msg, path) == NULL))
        abort();
    return 0;
}
