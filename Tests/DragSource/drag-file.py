#!/usr/bin/python3
"""A small window offering one file to drag, as a file manager does, for the reader's tests.

Usage: drag-file.py URI TITLE. The window is TITLE, undecorated, 200x120, the file's name in
it; dragging from anywhere in it offers the file (text/uri-list). Prints "ready" once the window
is drawn, "drag-end" when a drag ends and "drag-cancel REASON" when one fails.

A URI, not a path: a file name need not be UTF-8, and a URI carries its bytes percent-encoded.
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GLib, GObject, Gtk  # noqa: E402


def main():
    uri, title = sys.argv[1], sys.argv[2]
    file = Gio.File.new_for_uri(uri)
    window = Gtk.Window(title=title, decorated=False, default_width=200, default_height=120)
    label = Gtk.Label(label=GLib.filename_display_basename(file.get_path()), hexpand=True, vexpand=True)
    window.set_child(label)
    source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
    source.set_content(Gdk.ContentProvider.new_for_value(GObject.Value(Gio.File, file)))
    source.connect("drag-end", lambda _source, _drag, _delete: print("drag-end", flush=True))
    source.connect("drag-cancel", lambda _source, _drag, reason: print("drag-cancel", int(reason), flush=True) or False)
    label.add_controller(source)
    def painted(clock):
        clock.disconnect_by_func(painted)
        print("ready", flush=True)

    # Ready once the first frame is drawn: then the window is on screen to be dragged from.
    window.connect("map", lambda window: window.get_frame_clock().connect("after-paint", painted))
    loop = GLib.MainLoop()
    window.connect("close-request", lambda _window: loop.quit() or False)
    window.present()
    loop.run()


if __name__ == "__main__":
    main()
