/* Real input for the Wayland tests: a wlroots virtual pointer and a virtual keyboard driven by
 * commands on standard input, one a line, each answered "ok" once the compositor has taken it.
 *
 *   move X Y        the pointer to X,Y in the output layout (absolute, no acceleration)
 *   press | release the left button
 *   press right | release right   the right button
 *   scroll DX DY    one touchpad frame: axis_source(finger), axis values, frame
 *   stop            the fingers lift: axis_source(finger), axis_stop on both axes, frame
 *   wheel N         N mouse-wheel clicks (negative: up), one frame each
 *   key COMBO       press and release keys named as XKB keysyms, joined by '+' ("F5", "ctrl+r")
 *   keydown COMBO   press them and keep them held (a modifier held while the wheel turns)
 *   keyup COMBO     release keys held by keydown
 *   wait MS         nothing for MS milliseconds
 *
 * Event times are CLOCK_MONOTONIC milliseconds, as libinput stamps them.
 * Usage: virtual-input WIDTH HEIGHT (the layout's extent), with WAYLAND_DISPLAY set. */
#define _GNU_SOURCE
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>
#include "virtual-keyboard-v1-client-protocol.h"
#include "virtual-pointer-v1-client-protocol.h"

static struct wl_seat *seat;
static struct zwlr_virtual_pointer_manager_v1 *manager;
static struct zwp_virtual_keyboard_manager_v1 *keyboard_manager;
static struct zwp_virtual_keyboard_v1 *keyboard;
static struct xkb_keymap *keymap;
static struct xkb_state *key_state;

static void global_added(void *data, struct wl_registry *registry, uint32_t name,
                         const char *interface, uint32_t version) {
    (void)data;
    (void)version;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !seat) {
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0) {
        manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    } else if (strcmp(interface, zwp_virtual_keyboard_manager_v1_interface.name) == 0) {
        keyboard_manager = wl_registry_bind(registry, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
    }
}

static void global_removed(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {global_added, global_removed};

static uint32_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

static void sleep_ms(long ms) {
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&pause, NULL);
}

/* Gives the virtual keyboard the default XKB keymap (evdev rules, us layout); keys are sent as
 * evdev codes, found from keysyms in the same keymap. */
static int setup_keyboard(void) {
    struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    keymap = context ? xkb_keymap_new_from_names(context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
    if (!keymap) return -1;
    key_state = xkb_state_new(keymap);
    char *text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
    size_t size = strlen(text) + 1;
    int fd = memfd_create("keymap", MFD_CLOEXEC);
    if (fd < 0 || write(fd, text, size) != (ssize_t)size) return -1;
    free(text);
    keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(keyboard_manager, seat);
    zwp_virtual_keyboard_v1_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, (uint32_t)size);
    close(fd);
    return 0;
}

/* The XKB keycode that gives `sym`, on the first level if any key does there, else on the
 * second (Shift) level, as xdotool finds "question"; XKB_KEYCODE_INVALID when none does. */
static xkb_keycode_t keycode_for(xkb_keysym_t sym, int *shifted) {
    for (xkb_level_index_t level = 0; level < 2; level++) {
        for (xkb_keycode_t code = xkb_keymap_min_keycode(keymap); code <= xkb_keymap_max_keycode(keymap); code++) {
            const xkb_keysym_t *syms;
            int count = xkb_keymap_key_get_syms_by_level(keymap, code, 0, level, &syms);
            for (int i = 0; i < count; i++) {
                if (syms[i] == sym) {
                    *shifted = level == 1;
                    return code;
                }
            }
        }
    }
    return XKB_KEYCODE_INVALID;
}

/* Sends one key to the virtual keyboard, with the modifier state it leads to. */
static void send_key(xkb_keycode_t code, int pressed) {
    zwp_virtual_keyboard_v1_key(keyboard, now_ms(), code - 8,
                                pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
    xkb_state_update_key(key_state, code, pressed ? XKB_KEY_DOWN : XKB_KEY_UP);
    zwp_virtual_keyboard_v1_modifiers(keyboard, xkb_state_serialize_mods(key_state, XKB_STATE_MODS_DEPRESSED),
                                      xkb_state_serialize_mods(key_state, XKB_STATE_MODS_LATCHED),
                                      xkb_state_serialize_mods(key_state, XKB_STATE_MODS_LOCKED),
                                      xkb_state_serialize_layout(key_state, XKB_STATE_LAYOUT_EFFECTIVE));
}

enum combo_action { COMBO_PRESS_RELEASE, COMBO_PRESS, COMBO_RELEASE };

/* Presses each key of "ctrl+r" in order and releases them in reverse (or only presses, or only
 * releases); 0 when all were known. */
static int press_combo(const char *combo, enum combo_action action) {
    xkb_keycode_t codes[8];
    int count = 0;
    char names[256];
    snprintf(names, sizeof names, "%s", combo);
    for (char *name = strtok(names, "+"); name && count < 8; name = strtok(NULL, "+")) {
        const char *alias = strcasecmp(name, "ctrl") == 0 ? "Control_L"
                          : strcasecmp(name, "shift") == 0 ? "Shift_L"
                          : strcasecmp(name, "alt") == 0 ? "Alt_L" : name;
        int shifted = 0;
        xkb_keycode_t code = keycode_for(xkb_keysym_from_name(alias, XKB_KEYSYM_CASE_INSENSITIVE), &shifted);
        if (code == XKB_KEYCODE_INVALID || count + shifted >= 8) return -1;
        if (shifted) codes[count++] = keycode_for(XKB_KEY_Shift_L, &shifted);
        codes[count++] = code;
    }
    if (action != COMBO_RELEASE)
        for (int i = 0; i < count; i++) send_key(codes[i], 1);
    if (action != COMBO_PRESS)
        for (int i = count - 1; i >= 0; i--) send_key(codes[i], 0);
    return 0;
}

/* wlroots applies axis_source to the axis named by the request before it, so the source
 * follows each axis value; a frame whose axes disagree on their source aborts the compositor. */
static void finger_axis(struct zwlr_virtual_pointer_v1 *pointer, uint32_t time, uint32_t axis, double value) {
    zwlr_virtual_pointer_v1_axis(pointer, time, axis, wl_fixed_from_double(value));
    zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_FINGER);
}

/* Runs one command line; returns 0 when it was understood. */
static int run(struct zwlr_virtual_pointer_v1 *pointer, const char *line, uint32_t width, uint32_t height) {
    double a = 0, b = 0;
    long n = 0;
    if (sscanf(line, "move %lf %lf", &a, &b) == 2) {
        if (a < 0 || b < 0 || a >= width || b >= height) return -1;
        zwlr_virtual_pointer_v1_motion_absolute(pointer, now_ms(), (uint32_t)a, (uint32_t)b, width, height);
        zwlr_virtual_pointer_v1_frame(pointer);
    } else if (strcmp(line, "press") == 0 || strcmp(line, "release") == 0
               || strcmp(line, "press right") == 0 || strcmp(line, "release right") == 0) {
        uint32_t state = line[0] == 'p' ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED;
        zwlr_virtual_pointer_v1_button(pointer, now_ms(), strstr(line, "right") ? BTN_RIGHT : BTN_LEFT, state);
        zwlr_virtual_pointer_v1_frame(pointer);
    } else if (sscanf(line, "scroll %lf %lf", &a, &b) == 2) {
        uint32_t time = now_ms();
        if (a != 0) finger_axis(pointer, time, WL_POINTER_AXIS_HORIZONTAL_SCROLL, a);
        if (b != 0) finger_axis(pointer, time, WL_POINTER_AXIS_VERTICAL_SCROLL, b);
        zwlr_virtual_pointer_v1_frame(pointer);
    } else if (strcmp(line, "stop") == 0) {
        uint32_t time = now_ms();
        zwlr_virtual_pointer_v1_axis_stop(pointer, time, WL_POINTER_AXIS_HORIZONTAL_SCROLL);
        zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_FINGER);
        zwlr_virtual_pointer_v1_axis_stop(pointer, time, WL_POINTER_AXIS_VERTICAL_SCROLL);
        zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_FINGER);
        zwlr_virtual_pointer_v1_frame(pointer);
    } else if (sscanf(line, "wheel %ld", &n) == 1) {
        int step = n < 0 ? -1 : 1;
        for (long i = 0; i < labs(n); i++) {
            zwlr_virtual_pointer_v1_axis_discrete(pointer, now_ms(), WL_POINTER_AXIS_VERTICAL_SCROLL,
                                                  wl_fixed_from_int(15 * step), step);
            zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_WHEEL);
            zwlr_virtual_pointer_v1_frame(pointer);
        }
    } else if (strncmp(line, "key ", 4) == 0) {
        if (!keyboard || press_combo(line + 4, COMBO_PRESS_RELEASE) != 0) return -1;
    } else if (strncmp(line, "keydown ", 8) == 0) {
        if (!keyboard || press_combo(line + 8, COMBO_PRESS) != 0) return -1;
    } else if (strncmp(line, "keyup ", 6) == 0) {
        if (!keyboard || press_combo(line + 6, COMBO_RELEASE) != 0) return -1;
    } else if (sscanf(line, "wait %ld", &n) == 1) {
        sleep_ms(n);
    } else {
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s WIDTH HEIGHT\n", argv[0]);
        return 2;
    }
    uint32_t width = (uint32_t)strtoul(argv[1], NULL, 10), height = (uint32_t)strtoul(argv[2], NULL, 10);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "virtual-input: cannot connect to the Wayland display\n");
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!manager) {
        fprintf(stderr, "virtual-input: the compositor offers no zwlr_virtual_pointer_manager_v1\n");
        return 1;
    }
    struct zwlr_virtual_pointer_v1 *pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, seat);
    if (keyboard_manager && seat && setup_keyboard() != 0) {
        fprintf(stderr, "virtual-input: no XKB keymap for the virtual keyboard\n");
        return 1;
    }
    wl_display_roundtrip(display);
    setvbuf(stdout, NULL, _IOLBF, 0);
    puts("ready");

    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (run(pointer, line, width, height) != 0) {
            printf("error: %s\n", line);
            continue;
        }
        if (wl_display_roundtrip(display) < 0) {
            fprintf(stderr, "virtual-input: the compositor closed the connection\n");
            return 1;
        }
        puts("ok");
    }
    zwlr_virtual_pointer_v1_destroy(pointer);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
