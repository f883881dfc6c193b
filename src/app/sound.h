/* The game's sound through SDL's audio: the synthesiser (synth.h) rendered
 * on the window's loop and queued on the default output device
 * (SDL_QueueAudio: no audio thread, no lock), SOUND_QUEUE_MS ahead. Silent
 * and harmless when muted, when the audio driver lists no output device
 * (a machine without sound: nothing is opened, nothing printed; ALSA's
 * library would print its failure on stderr) or when the device does not
 * open (one line on stderr). SDL_AUDIODRIVER=dummy opens a device that
 * plays nothing (tests).
 *
 * Contracts:
 *   sound_open(snd, muted)  the synthesiser at SOUND_RATE_HZ; the device is
 *        opened now unless muted (then at the first unmute). Returns
 *        whether a device plays.
 *   sound_close(snd)        the device, the audio subsystem if it started
 *        it. Safe on a zeroed or closed snd.
 *   sound_set_muted(snd, m) muting stops the queue at once (what is queued
 *        is dropped); unmuting opens the device if needed.
 *   sound_pump(snd)         renders and queues what keeps the device
 *        SOUND_QUEUE_MS ahead; nothing (no work) while muted or closed;
 *        an unmute silences the crashes and beeps asked while muted.
 *   sound_playing(snd)      a device is open and not muted.
 */
#ifndef NR_SOUND_H
#define NR_SOUND_H

#include <SDL.h>
#include <stdbool.h>

#include "synth.h"

#define SOUND_RATE_HZ 48000
#define SOUND_QUEUE_MS 50
#define SOUND_CHUNK 1024 /* frames rendered at a time */

typedef struct Sound {
    Synth synth;
    SDL_AudioDeviceID dev;
    bool muted;
    bool audio_here; /* sound_open started SDL's audio subsystem */
    bool tried;      /* the device was tried (and failed: not again) */
    float buf[2 * SOUND_CHUNK];
} Sound;

bool sound_open(Sound *snd, bool muted);
void sound_close(Sound *snd);
void sound_set_muted(Sound *snd, bool muted);
void sound_pump(Sound *snd);
bool sound_playing(const Sound *snd);

#endif
