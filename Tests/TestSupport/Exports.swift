// The GTK probes the tests share with refresh-bench (event controller lookup, the list layout
// counter) live in Sources/GtkInspection; every test importing TestSupport sees them.
@_exported import GtkInspection
// Child programs run and reaped by the tests themselves (Subprocess), for tests without GTK too.
@_exported import TestProcesses
