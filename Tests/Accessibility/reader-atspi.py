#!/usr/bin/python3
"""Drives the feed reader's window through AT-SPI alone, as a screen reader user would.

Usage: reader-atspi.py WINDOW_TITLE SEARCH_TEXT RESULT_COUNT
       reader-atspi.py --pane WINDOW_TITLE PANE [--back]

Fails (exit status 1) when a focusable or clickable element has no name, in each state the
window goes through; then selects the second entry of the list, stars it with the Star button
and searches for SEARCH_TEXT, which must list RESULT_COUNT entries, the starred one among them;
each result is asserted through AT-SPI.

With --pane, for a narrow window showing one pane at a time: fails when a focusable or clickable
element of the window showing PANE (a word for the output) has no name; with --back, then
clicks the Back button (the test running the script checks which pane shows next).

Run with Debian's /usr/bin/python3 and python3-pyatspi, on the session bus of the app's
accessibility bus.
"""
import os
import re
import sys
import time

import pyatspi

# GTK 4.8 names an unlabelled widget after its type ("GtkPaned"): that is no name to a person.
TYPE_NAME = re.compile(r"^(Gtk|Gdk|Adw|WebKit|RefreshGtk)[A-Za-z]*$")
# The actions that make an element clickable; GTK also lists every window action on a label.
CLICK_ACTIONS = {"click", "activate", "press", "toggle", "jump", "open"}


def fail(message):
    print("reader-atspi: FAIL: " + message)
    sys.exit(1)


def wait_for(description, condition, timeout=10.0, on_timeout=None):
    """Polls `condition` until it returns something true; fails after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except Exception:  # the tree changes under us: try again
            value = None
        if value:
            return value
        if time.monotonic() > end:
            fail("timed out waiting for " + description + (" (seen: %s)" % on_timeout() if on_timeout else ""))
        time.sleep(0.05)


def children(accessible):
    return [child for child in accessible if child is not None]


def descendants(accessible):
    for child in children(accessible):
        yield child
        yield from descendants(child)


def actions(accessible):
    try:
        action = accessible.queryAction()
    except NotImplementedError:
        return []
    return [action.getName(index) for index in range(action.nActions)]


def has_name(accessible):
    name = (accessible.name or "").strip()
    return bool(name) and not TYPE_NAME.match(name)


def describe(accessible):
    path = []
    node = accessible
    while node is not None and node.getRole() != pyatspi.ROLE_FRAME:
        path.append("%s %r" % (node.getRoleName(), node.name))
        node = node.parent
    return " < ".join(path)


def unnamed(frame):
    """Every focusable or clickable element under `frame` without a name."""
    found = []
    for accessible in descendants(frame):
        focusable = accessible.getState().contains(pyatspi.STATE_FOCUSABLE)
        clickable = bool(CLICK_ACTIONS.intersection(actions(accessible)))
        if (focusable or clickable) and not has_name(accessible):
            found.append(describe(accessible))
    return found


def check_names(frame, state):
    missing = unnamed(frame)
    if missing:
        fail("%d element(s) without a name %s:\n  %s" % (len(missing), state, "\n  ".join(missing)))
    print("reader-atspi: every focusable or clickable element is named " + state)


def find(frame, role, name=None, where=None):
    for accessible in descendants(frame):
        if accessible.getRole() == role and (name is None or accessible.name == name) and (where is None or where(accessible)):
            return accessible
    return None


def click(accessible):
    names = actions(accessible)
    if "click" not in names:
        fail("%s offers no click action: %s" % (describe(accessible), names))
    accessible.queryAction().doAction(names.index("click"))


def entry_items(entries):
    return [item for item in children(entries) if item.getRole() == pyatspi.ROLE_LIST_ITEM]


def find_window(title):
    desktop = pyatspi.Registry.getDesktop(0)
    # The reader is the test process that started this script. Only its frames are asked for:
    # another application on the bus that is slow to answer (a web process, a stopped program)
    # would hold up each look at the desktop for D-Bus's timeout.
    reader = os.getppid()

    def window():
        for application in children(desktop):
            if application.get_process_id() != reader:
                continue
            for frame in children(application):
                if frame.getRole() == pyatspi.ROLE_FRAME and frame.name == title:
                    return frame
        return None

    def seen():
        try:
            return "; ".join("%s (%d): %s" % (application.name, application.get_process_id(),
                                              [frame.name for frame in children(application)])
                             for application in children(desktop))
        except Exception as error:  # the tree changes under us
            return repr(error)

    found = wait_for("the window titled " + title, window, on_timeout=seen)
    return found


def walk_pane(title, pane, back):
    frame = find_window(title)
    check_names(frame, "with the " + pane + " shown")
    if not back:
        return
    back_button = find(frame, pyatspi.ROLE_PUSH_BUTTON, "Back")
    if back_button is None:
        fail("no Back button; the buttons: " + ", ".join(describe(button) for button in descendants(frame)
                                                          if button.getRole() == pyatspi.ROLE_PUSH_BUTTON))
    click(back_button)
    print("reader-atspi: clicked Back on the " + pane)


def main():
    if sys.argv[1] == "--pane":
        walk_pane(sys.argv[2], sys.argv[3], back="--back" in sys.argv[4:])
        return
    title, search_text, result_count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    frame = find_window(title)
    check_names(frame, "at start")

    entries = wait_for("the entry list", lambda: find(frame, pyatspi.ROLE_LIST, "Entries"))
    items = wait_for("two entries", lambda: entry_items(entries) if len(entry_items(entries)) >= 2 else None)
    chosen = items[1].name
    if not entries.querySelection().selectChild(1):
        fail("the entry list refused to select its second entry")
    wait_for("the second entry selected", lambda: entry_items(entries)[1].getState().contains(pyatspi.STATE_SELECTED))
    print("reader-atspi: selected " + chosen)

    star = wait_for("the Star button", lambda: find(frame, pyatspi.ROLE_PUSH_BUTTON, "Star"))
    click(star)
    starred = wait_for("the entry read as starred",
                       lambda: entry_items(entries)[1].name if entry_items(entries)[1].name.endswith(", starred") else None)
    wait_for("the button offering to unstar", lambda: find(frame, pyatspi.ROLE_PUSH_BUTTON, "Unstar"))
    print("reader-atspi: starred, now read as " + starred)

    click(wait_for("the Search button", lambda: find(frame, pyatspi.ROLE_PUSH_BUTTON, "Search")))
    field = wait_for("the search field", lambda: find(frame, pyatspi.ROLE_ENTRY, "Search all entries"))
    if not field.queryEditableText().setTextContents(search_text):
        fail("the search field refused its text")

    def results():
        found = [item.name for item in entry_items(entries)]
        return found if len(found) == result_count and starred in found else None

    found = wait_for("the search to list %d entries, the starred one among them" % result_count, results)
    print("reader-atspi: the search for %r lists %s" % (search_text, "; ".join(found)))
    check_names(frame, "with an article shown and the search open")


if __name__ == "__main__":
    main()
