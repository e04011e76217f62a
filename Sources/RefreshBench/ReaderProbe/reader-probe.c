/*
 * refresh-bench's probe: loaded into the release feed-reader with LD_PRELOAD, so the app itself
 * carries nothing for the bench. It watches the reader from outside through GTK's public API
 * and prints one line for the bench, then quits the application:
 *
 * REFRESH_BENCH_PROBE=first-frame: after the first painted frame in which the entry list (the
 *   GtkListView whose rows carry the "entry-row" style class) is mapped and holds entries,
 *   prints "feed-reader-bench first-frame-ns=N vmhwm-kb=N": CLOCK_MONOTONIC, the clock the
 *   bench started the process on, and the peak resident memory so far.
 * REFRESH_BENCH_PROBE=scroll-to-end REFRESH_BENCH_PROBE_ENTRIES=N: scrolls the list to its end
 *   as a touchpad flick would (a scroll sequence on RefreshView's scroll controller): again when
 *   a page arrived, or after a quarter second without one (a flick made while the last page was
 *   still being added loads nothing), until it holds N entries or stops growing for 30 s, then prints
 *   "feed-reader-bench vmhwm-kb=N entries=N".
 * REFRESH_BENCH_PROBE=search REFRESH_BENCH_PROBE_TYPED="refresh|gesture tou": once entries show,
 *   opens the search bar (the window's win.search action, as Ctrl+F does) and types each text a
 *   character at a time into its GtkSearchEntry, clearing it between texts. A keystroke lasts
 *   until the window has painted nothing for a quarter second (and at least 0.4 s: GTK waits
 *   150 ms before it reports a search); its cost is the main thread's CPU time over that span,
 *   its latency the time from the key to the last frame painted. Prints
 *   "feed-reader-bench search-cpu-us=A,B,... search-latency-us=A,B,...".
 *
 * REFRESH_BENCH_PROBE=article: once entries show, selects the first; when its article has loaded
 *   in the web view, shows its full article (the window's win.toggle-full-article, as F does),
 *   which fetches the entry's page and extracts it. Prints "feed-reader-bench plain-ns=N
 *   plain-rss-kb=N full-ns=N full-rss-kb=N": the time from the selection to the plain article's
 *   load, then from the button to the full article's, and the resident memory of the reader and
 *   the processes it started (WebKit's) at each.
 *
 * The bench compiles it with the system's C compiler (Sources/RefreshBench/ReaderProbe.swift).
 */
#include <dlfcn.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static gboolean scroll_to_end;
static guint expected_entries;
static GtkWidget *entry_list;
static guint last_count;
static gint64 last_growth_us;
static gint64 last_flick_us;
static gboolean finished;

static gboolean article_mode;
static GtkWidget *article_view;
static gboolean full_phase, full_load_started;
static guint plain_timer;
static guint64 article_started_ns, plain_ns;
static long plain_rss_kb;

static gboolean search_mode;
static char **typed_texts;
static guint typed_text;
static guint typed_length;
static GtkWidget *search_entry;
static guint64 key_cpu_ns, key_wall_ns, last_paint_ns;
static GString *cpu_list, *latency_list;

static guint64 monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (guint64)now.tv_sec * 1000000000u + (guint64)now.tv_nsec;
}

/* VmHWM: the most resident memory the process has had, in kB. */
static long peak_resident_kb(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kilobytes = 0;
    if (!status) return 0;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "VmHWM: %ld", &kilobytes) == 1) break;
    fclose(status);
    return kilobytes;
}

static guint64 thread_cpu_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (guint64)now.tv_sec * 1000000000u + (guint64)now.tv_nsec;
}

static void report_and_quit(const char *fields) {
    char line[256];
    int length = snprintf(line, sizeof line, "feed-reader-bench %s\n", fields);
    if (write(STDOUT_FILENO, line, (size_t)length) < 0) perror("reader-probe");
    finished = TRUE;
    g_application_quit(g_application_get_default());
}

static gboolean has_style_class_below(GtkWidget *widget, const char *style_class, int depth) {
    if (gtk_widget_has_css_class(widget, style_class)) return TRUE;
    if (depth == 0) return FALSE;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child))
        if (has_style_class_below(child, style_class, depth - 1)) return TRUE;
    return FALSE;
}

/* The mapped GtkListView below `widget` whose rows are entry rows. */
static GtkWidget *find_entry_list(GtkWidget *widget) {
    if (GTK_IS_LIST_VIEW(widget)) {
        return gtk_widget_get_mapped(widget) && has_style_class_below(widget, "entry-row", 4) ? widget : NULL;
    }
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        GtkWidget *found = find_entry_list(child);
        if (found) return found;
    }
    return NULL;
}

/* RefreshView's scroll controller ("refresh-pull-scroll"), on the list or one of its ancestors. */
static GtkEventController *pull_scroll_controller(GtkWidget *widget) {
    for (; widget; widget = gtk_widget_get_parent(widget)) {
        GListModel *controllers = gtk_widget_observe_controllers(widget);
        GtkEventController *found = NULL;
        for (guint index = 0; !found && index < g_list_model_get_n_items(controllers); index++) {
            GtkEventController *controller = g_list_model_get_item(controllers, index);
            const char *name = gtk_event_controller_get_name(controller);
            if (name && strcmp(name, "refresh-pull-scroll") == 0) found = controller;
            g_object_unref(controller);
        }
        g_object_unref(controllers);
        if (found) return found;
    }
    return NULL;
}

/* One flick to the end: a scroll sequence begins (new user input, so the footer may load a
 * page), the list moves a page back and then to its end (the footer loads when the list moves
 * towards it, which it cannot do from the end itself), the sequence ends. */
static void flick_to_end(void) {
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(entry_list));
    GtkEventController *scroll = pull_scroll_controller(entry_list);
    double end = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment);
    if (scroll) g_signal_emit_by_name(scroll, "scroll-begin");
    gtk_adjustment_set_value(adjustment, MAX(0, end - gtk_adjustment_get_page_size(adjustment)));
    gtk_adjustment_set_value(adjustment, end);
    if (scroll) g_signal_emit_by_name(scroll, "scroll-end");
}

static GtkWidget *find_search_entry(GtkWidget *widget) {
    if (GTK_IS_SEARCH_ENTRY(widget)) return widget;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        GtkWidget *found = find_search_entry(child);
        if (found) return found;
    }
    return NULL;
}

/* Types the next character (or clears the entry between texts); false when all is typed. */
static gboolean type_next_key(void) {
    const char *text = typed_texts[typed_text];
    if (!text) return FALSE;
    glong characters = g_utf8_strlen(text, -1);
    if (typed_length == (guint)characters) {
        typed_text++;
        typed_length = 0;
        gtk_editable_set_text(GTK_EDITABLE(search_entry), "");
        return typed_texts[typed_text] != NULL;
    }
    typed_length++;
    key_cpu_ns = thread_cpu_ns();
    key_wall_ns = last_paint_ns = monotonic_ns();
    /* Inserted at the end as a key press would: setting the whole text would empty the entry
     * first, and GTK reports an empty search at once. */
    const char *character = g_utf8_offset_to_pointer(text, typed_length - 1);
    int position = gtk_editable_get_position(GTK_EDITABLE(search_entry));
    gtk_editable_insert_text(GTK_EDITABLE(search_entry), character, (int)(g_utf8_next_char(character) - character), &position);
    gtk_editable_set_position(GTK_EDITABLE(search_entry), position);
    return TRUE;
}

/* Ends the keystroke once the window has been still long enough, and types the next. */
static gboolean search_tick(gpointer data) {
    (void)data;
    guint64 now = monotonic_ns();
    if (key_wall_ns != 0) {
        if (now - key_wall_ns < 400000000u || now - last_paint_ns < 250000000u) return G_SOURCE_CONTINUE;
        g_string_append_printf(cpu_list, "%s%" G_GUINT64_FORMAT, cpu_list->len ? "," : "", (thread_cpu_ns() - key_cpu_ns) / 1000);
        g_string_append_printf(latency_list, "%s%" G_GUINT64_FORMAT, latency_list->len ? "," : "",
                               (last_paint_ns - key_wall_ns) / 1000);
        key_wall_ns = 0;
    }
    if (type_next_key()) return G_SOURCE_CONTINUE;
    GString *fields = g_string_new(NULL);
    g_string_printf(fields, "search-cpu-us=%s search-latency-us=%s", cpu_list->str, latency_list->str);
    printf("feed-reader-bench %s\n", fields->str);
    fflush(stdout);
    g_string_free(fields, TRUE);
    finished = TRUE;
    g_application_quit(g_application_get_default());
    return G_SOURCE_REMOVE;
}

static void start_search(GtkWidget *window) {
    search_entry = find_search_entry(window);
    if (!search_entry || !gtk_widget_activate_action(window, "win.search", NULL)) {
        report_and_quit("search-error=no-search-entry");
        return;
    }
    /* A blinking cursor would paint forever: the keystrokes could never end. */
    g_object_set(gtk_widget_get_settings(window), "gtk-cursor-blink", FALSE, NULL);
    g_timeout_add(20, search_tick, NULL);
}

/* Resident memory now, in kB, of this process and of its children (WebKit's web processes). */
static long resident_with_children_kb(void) {
    long total = 0;
    GString *pids = g_string_new(NULL);
    g_string_append_printf(pids, "%d ", getpid());
    GDir *tasks = g_dir_open("/proc/self/task", 0, NULL);
    const char *task;
    while (tasks && (task = g_dir_read_name(tasks))) {
        char *path = g_strdup_printf("/proc/self/task/%s/children", task), *children = NULL;
        if (g_file_get_contents(path, &children, NULL, NULL)) g_string_append(pids, children);
        g_free(children);
        g_free(path);
    }
    if (tasks) g_dir_close(tasks);
    char **each = g_strsplit(pids->str, " ", -1);
    for (char **pid = each; *pid; pid++) {
        if (!**pid) continue;
        char *path = g_strdup_printf("/proc/%s/status", *pid), *status = NULL;
        if (g_file_get_contents(path, &status, NULL, NULL)) {
            const char *line = strstr(status, "VmRSS:");
            if (line) total += strtol(line + 6, NULL, 10);
        }
        g_free(status);
        g_free(path);
    }
    g_strfreev(each);
    g_string_free(pids, TRUE);
    return total;
}

static GtkWidget *find_web_view(GtkWidget *widget) {
    GType type = g_type_from_name("WebKitWebView");
    if (type && G_TYPE_CHECK_INSTANCE_TYPE(widget, type)) return widget;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        GtkWidget *found = find_web_view(child);
        if (found) return found;
    }
    return NULL;
}

/* The plain article is loaded once no load has started for half a second after one finished
 * (the view may load its first page twice: an empty one as it is made, then the article). */
static gboolean plain_settled(gpointer window) {
    plain_timer = 0;
    plain_rss_kb = resident_with_children_kb();
    full_phase = TRUE;
    article_started_ns = monotonic_ns();
    gtk_widget_activate_action(window, "win.toggle-full-article", NULL);
    return G_SOURCE_REMOVE;
}

/* WebKitLoadEvent: STARTED is 0, FINISHED 3. */
static void article_load_changed(GtkWidget *view, int event, gpointer window) {
    (void)view;
    if (!full_phase) {
        if (event == 0 && plain_timer) {
            g_source_remove(plain_timer);
            plain_timer = 0;
        } else if (event == 3) {
            plain_ns = monotonic_ns() - article_started_ns;
            if (plain_timer) g_source_remove(plain_timer);
            plain_timer = g_timeout_add(500, plain_settled, window);
        }
        return;
    }
    if (event == 0) full_load_started = TRUE;
    if (event == 3 && full_load_started) {
        char fields[160];
        snprintf(fields, sizeof fields, "plain-ns=%" G_GUINT64_FORMAT " plain-rss-kb=%ld full-ns=%" G_GUINT64_FORMAT " full-rss-kb=%ld",
                 plain_ns, plain_rss_kb, monotonic_ns() - article_started_ns, resident_with_children_kb());
        report_and_quit(fields);
    }
}

static void watch_article(GtkWidget *window) {
    if (article_started_ns == 0) {
        article_started_ns = monotonic_ns();
        gtk_selection_model_select_item(GTK_SELECTION_MODEL(gtk_list_view_get_model(GTK_LIST_VIEW(entry_list))), 0, TRUE);
    }
    if (!article_view) {
        article_view = find_web_view(window);
        if (article_view) g_signal_connect(article_view, "load-changed", G_CALLBACK(article_load_changed), window);
    }
    /* Keep frames coming until the web view exists. */
    if (!article_view) gtk_widget_queue_draw(entry_list);
}

static void after_paint(GdkFrameClock *clock, gpointer window) {
    (void)clock;
    if (search_entry) {
        last_paint_ns = monotonic_ns();
        return;
    }
    if (finished) return;
    if (!entry_list) entry_list = find_entry_list(window);
    if (!entry_list) return;
    guint count = g_list_model_get_n_items(G_LIST_MODEL(gtk_list_view_get_model(GTK_LIST_VIEW(entry_list))));
    if (count == 0) return;
    char fields[128];
    if (search_mode) {
        start_search(window);
        return;
    }
    if (article_mode) {
        watch_article(window);
        return;
    }
    if (!scroll_to_end) {
        snprintf(fields, sizeof fields, "first-frame-ns=%" G_GUINT64_FORMAT " vmhwm-kb=%ld", monotonic_ns(),
                 peak_resident_kb());
        report_and_quit(fields);
        return;
    }
    gint64 now = g_get_monotonic_time();
    if (last_growth_us == 0 || count != last_count) {
        last_count = count;
        last_growth_us = now;
    }
    if (count < expected_entries && (last_growth_us == now || now - last_flick_us > G_USEC_PER_SEC / 4)) {
        last_flick_us = now;
        flick_to_end();
    }
    if (count >= expected_entries || now - last_growth_us > 30 * G_USEC_PER_SEC) {
        snprintf(fields, sizeof fields, "vmhwm-kb=%ld entries=%u", peak_resident_kb(), count);
        report_and_quit(fields);
        return;
    }
    /* Keep frames coming while pages load. */
    gtk_widget_queue_draw(entry_list);
}

/* Waits for the first realized toplevel, then watches its frames. */
static gboolean watch_window(gpointer data) {
    (void)data;
    if (!gtk_is_initialized()) return G_SOURCE_CONTINUE;
    GListModel *toplevels = gtk_window_get_toplevels();
    for (guint index = 0; index < g_list_model_get_n_items(toplevels); index++) {
        GtkWidget *window = g_list_model_get_item(toplevels, index);
        g_object_unref(window);
        GdkFrameClock *clock = gtk_widget_get_realized(window) ? gtk_widget_get_frame_clock(window) : NULL;
        if (clock) {
            g_signal_connect(clock, "after-paint", G_CALLBACK(after_paint), window);
            return G_SOURCE_REMOVE;
        }
    }
    return G_SOURCE_CONTINUE;
}

__attribute__((constructor)) static void load(void) {
    const char *mode = getenv("REFRESH_BENCH_PROBE");
    if (!mode) return;
    /* feed-reader is a launcher without GTK that execs the window program: there the probe
     * waits, leaving its environment to the window program, which loads it again. */
    if (!dlsym(RTLD_DEFAULT, "gtk_init")) return;
    scroll_to_end = strcmp(mode, "scroll-to-end") == 0;
    search_mode = strcmp(mode, "search") == 0;
    article_mode = strcmp(mode, "article") == 0;
    const char *typed = getenv("REFRESH_BENCH_PROBE_TYPED");
    typed_texts = g_strsplit(typed ? typed : "", "|", -1);
    cpu_list = g_string_new(NULL);
    latency_list = g_string_new(NULL);
    const char *entries = getenv("REFRESH_BENCH_PROBE_ENTRIES");
    expected_entries = entries ? (guint)strtoul(entries, NULL, 10) : G_MAXUINT;
    /* Processes the reader starts (WebKit's) must not load the probe too. */
    unsetenv("LD_PRELOAD");
    unsetenv("REFRESH_BENCH_PROBE");
    unsetenv("REFRESH_BENCH_PROBE_TYPED");
    g_timeout_add(1, watch_window, NULL);
}
