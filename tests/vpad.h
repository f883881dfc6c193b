/* Virtual gamepads for the tests (SDL >= 2.0.14 SDL_JoystickAttachVirtualEx):
 * no pad is attached to the test machine. Include after cmocka.h.
 *   vpad_attach(name, set_led, userdata)  plugs in a pad with the standard
 *        gamecontroller layout (SDL maps it automatically); returns the
 *        test's handle to press its buttons and move its axes.
 *   vpad_detach(j)  unplugs it (device indices shift as pads come and go,
 *        so it is found by instance id). */
#ifndef NR_TEST_VPAD_H
#define NR_TEST_VPAD_H

#include <SDL.h>

static inline SDL_Joystick *vpad_attach(const char *name, int (*set_led)(void *, Uint8, Uint8, Uint8), void *userdata)
{
    SDL_VirtualJoystickDesc d;
    SDL_zero(d);
    d.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
    d.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
    d.naxes = SDL_CONTROLLER_AXIS_MAX;
    d.nbuttons = SDL_CONTROLLER_BUTTON_MAX;
    d.name = name;
    d.userdata = userdata;
    d.SetLED = set_led;
    int idx = SDL_JoystickAttachVirtualEx(&d);
    assert_true(idx >= 0);
    SDL_Joystick *j = SDL_JoystickOpen(idx);
    assert_non_null(j);
    return j;
}

static inline void vpad_detach(SDL_Joystick *j)
{
    SDL_JoystickID id = SDL_JoystickInstanceID(j);
    SDL_JoystickClose(j);
    for (int i = 0; i < SDL_NumJoysticks(); i++)
        if (SDL_JoystickGetDeviceInstanceID(i) == id) {
            assert_int_equal(SDL_JoystickDetachVirtual(i), 0);
            return;
        }
    fail_msg("virtual pad %d not found", (int)id);
}

#endif
