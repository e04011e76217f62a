// The GTK probes the tests share with refresh-bench (event controller lookup, the list layout
// counter) live in Sources/GtkInspection; every test importing TestSupport sees them.
@_exported import GtkInspection
