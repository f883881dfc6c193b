/* fuzz-sources: src/app/play_input.c */
/* fuzz-pkgs: sdl2 */
/* Fuzz harness: the game's key map file (playkeys_parse). What parses keeps
 * the parser's promises: every bound key a real scancode, none bound twice,
 * none of the game's reserved keys. */
#include "play_input.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    PlayKeys k;
    NrError err;
    bool ok = playkeys_parse(&k, text, "fuzz.keys", &err);
    free(text);
    if (!ok) {
        if (err.msg[0] == '\0')
            abort();
        return 0;
    }
    static const SDL_Scancode reserved[] = PLAYKEYS_RESERVED;
    int seen[SDL_NUM_SCANCODES] = {0};
    for (int p = 0; p < PLAYKEYS_PLAYERS; p++)
        for (int a = 0; a < PK_ACTIONS; a++)
            for (int i = 0; i < PLAYKEYS_PER_ACTION; i++) {
                SDL_Scancode sc = k.key[p][a][i];
                if (sc == 0)
                    continue;
                if (sc < 0 || sc >= SDL_NUM_SCANCODES || seen[sc]++)
                    abort();
                for (size_t r = 0; r < sizeof reserved / sizeof reserved[0]; r++)
                    if (sc == reserved[r])
                        abort();
            }
    return 0;
}
