/* The synthesiser queued on SDL's audio device (sound.h). */
#include "sound.h"

#include <stdio.h>
#include <string.h>

/* Opens the default output device once; silent when there is none. */
static void open_device(Sound *snd)
{
    if (snd->dev || snd->tried)
        return;
    snd->tried = true;
    if (!SDL_WasInit(SDL_INIT_AUDIO)) {
        if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0)
            return; /* no audio driver at all: silence */
        snd->audio_here = true;
    }
    /* 0 listed devices: a machine without sound; opening would only make
     * ALSA print its failure. -1 (the driver cannot list): try. */
    if (SDL_GetNumAudioDevices(0) == 0)
        return;
    SDL_AudioSpec want, have;
    memset(&want, 0, sizeof want);
    want.freq = SOUND_RATE_HZ;
    want.format = AUDIO_F32SYS;
    want.channels = 2;
    want.samples = 1024; /* 21 ms: the audio thread wakes seldom, a crash is not late */
    snd->dev = SDL_OpenAudioDevice(NULL, 0, &want, &have, 0); /* SDL converts to what the device takes */
    if (!snd->dev) {
        fprintf(stderr, "netrace: no sound (%s)\n", SDL_GetError());
        return;
    }
    SDL_PauseAudioDevice(snd->dev, 0);
}

bool sound_open(Sound *snd, bool muted)
{
    memset(snd, 0, sizeof *snd);
    synth_init(&snd->synth, SOUND_RATE_HZ);
    snd->muted = muted;
    if (!muted)
        open_device(snd);
    return sound_playing(snd);
}

void sound_close(Sound *snd)
{
    if (snd->dev)
        SDL_CloseAudioDevice(snd->dev);
    if (snd->audio_here)
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
    snd->dev = 0;
    snd->audio_here = false;
}

void sound_set_muted(Sound *snd, bool muted)
{
    if (!muted && snd->muted) /* no crash or beep of the muted past bursts out */
        synth_quiet(&snd->synth);
    snd->muted = muted;
    if (muted && snd->dev)
        SDL_ClearQueuedAudio(snd->dev);
    if (!muted)
        open_device(snd);
}

bool sound_playing(const Sound *snd)
{
    return snd->dev != 0 && !snd->muted;
}

void sound_pump(Sound *snd)
{
    if (!sound_playing(snd))
        return;
    const Uint32 frame_bytes = 2 * sizeof(float);
    Uint32 want = (Uint32)(SOUND_RATE_HZ * SOUND_QUEUE_MS / 1000);
    Uint32 queued = SDL_GetQueuedAudioSize(snd->dev) / frame_bytes;
    while (queued < want) {
        int n = (int)(want - queued < SOUND_CHUNK ? want - queued : SOUND_CHUNK);
        synth_render(&snd->synth, snd->buf, n);
        if (SDL_QueueAudio(snd->dev, snd->buf, (Uint32)n * frame_bytes) != 0)
            return;
        queued += (Uint32)n;
    }
}
