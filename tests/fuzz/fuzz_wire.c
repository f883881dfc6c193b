/* Fuzz harness: the network packet decoder (wire_decode). A packet that
 * decodes re-encodes to exactly the bytes received (reserved bytes and the
 * padding of text fields must be zero, so there is one encoding per packet). */
#include "wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_TOKEN UINT64_C(0x0102030405060708)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The scheme count comes from the packet counter's first byte, so the
     * VIEW kind (whose count must equal the session's) decodes too. */
    int nschemes = size > 16 ? 1 + data[16] % SCHEME_MAX : 32;
    WireCheck chk = {.token = FUZZ_TOKEN, .accept_hello = true, .ncars = 2, .own_car = 1,
                     .now_us = INT64_C(5000000), .window_us = 0, .nschemes = nschemes};
    WirePacket p;
    WireResult r = wire_decode(data, size, &chk, &p);
    if (r < WIRE_OK || r >= WIRE_RESULT_COUNT)
        abort();
    if (r != WIRE_OK)
        return 0;
    uint8_t buf[WIRE_MAX_BYTES];
    size_t n = wire_encode(&p, buf, sizeof buf);
    if (n != size || memcmp(buf, data, size) != 0)
        abort();
    return 0;
}
