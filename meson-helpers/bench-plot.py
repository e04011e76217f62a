"""Draws refresh-bench's chart: every pull frame, ours against the height-request baseline for
each kind of content, the refresh of many feeds against newsboat, and the sync of an account
(tt-rss against newsboat, the Google Reader API against its floor) when the run measured it.

Usage: bench-plot.py PLOT_DATA.json OUTPUT.png [SUBTITLE]
PLOT_DATA.json is what `refresh-bench --plot-data=FILE` writes; ./meson-helpers/bench --plot
runs this with the bench's virtual environment, where matplotlib is installed.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend is chosen first)

CONTENT_NAMES = {"listview": "GtkListView\n10,000 rows", "listbox": "GtkListBox\n2,000 rows",
                 "textview": "GtkTextView\n1 MB"}
FRAME_240_HZ_US = 1_000_000 / 240


def main(data_path, output_path, subtitle):
    with open(data_path) as source:
        data = json.load(source)
    frames, refresh = data.get("frames_us", {}), data.get("refresh_s", {})
    feeds = data.get("refresh_feeds", 0)
    sync = data.get("sync_s", {})
    columns = 3 if sync else 2
    figure, axes = plt.subplots(1, columns, figsize=(6 * columns, 5),
                                gridspec_kw={"width_ratios": [3, 2, 2][:columns]})
    left, right = axes[0], axes[1]

    kinds = [kind for kind in CONTENT_NAMES if kind in frames]
    series, positions, colours = [], [], []
    for index, kind in enumerate(kinds):
        for offset, (who, colour) in enumerate((("ours", "#3584e4"), ("baseline", "#e66100"))):
            series.append(frames[kind][who])
            positions.append(index * 3 + offset)
            colours.append(colour)
    if series:
        boxes = left.boxplot(series, positions=positions, widths=0.8, whis=(1, 99), showfliers=False,
                             patch_artist=True, medianprops={"color": "black"})
        for box, colour in zip(boxes["boxes"], colours):
            box.set_facecolor(colour)
        left.set_xticks([index * 3 + 0.5 for index in range(len(kinds))], [CONTENT_NAMES[k] for k in kinds])
        left.set_yscale("log")
        left.axhline(FRAME_240_HZ_US, color="grey", linestyle="--", linewidth=1)
        left.text(positions[-1] + 0.6, FRAME_240_HZ_US, " 240 Hz frame", va="center", fontsize=8, color="grey")
        left.legend([boxes["boxes"][0], boxes["boxes"][1]], ["RefreshView", "height request (baseline)"],
                    loc="upper left", fontsize=8)
    left.set_ylabel("pull frame, µs (box: p25–p75, whiskers: p1–p99)")
    left.set_title("Pull frames")

    labels = ["first refresh", "nothing changed (304s)"]
    ours = [refresh.get("ours", 0), refresh.get("ours_unchanged", 0)]
    theirs = [refresh.get("newsboat", 0), refresh.get("newsboat_unchanged", 0)]
    places = range(len(labels))
    right.bar([p - 0.2 for p in places], ours, width=0.4, color="#3584e4", label="FeedCore")
    right.bar([p + 0.2 for p in places], theirs, width=0.4, color="#77767b", label="newsboat -x reload")
    for place, value in zip([p - 0.2 for p in places] + [p + 0.2 for p in places], ours + theirs):
        right.text(place, value, f"{value:.2f} s", ha="center", va="bottom", fontsize=8)
    right.set_xticks(list(places), labels)
    right.set_ylabel("seconds, start to exit")
    right.set_title(f"Refreshing {feeds} feeds from a local server")
    right.legend(fontsize=8)

    if sync:
        draw_sync(axes[2], sync)

    figure.suptitle(f"refresh-bench {subtitle}".strip())
    figure.tight_layout()
    figure.savefig(output_path, dpi=100)


def draw_sync(axis, sync):
    """Initial syncs beside their peer, and the incremental syncs alone."""
    rows = [("tt-rss", "ttrss", "newsboat_ttrss", "newsboat -x reload"),
            ("Google Reader API", "greader", "greader_floor", "floor (curl replay)")]
    places = range(len(rows))
    for place, (_, ours, theirs, name) in zip(places, rows):
        for offset, key, colour, label in ((-0.2, ours, "#3584e4", "feed-reader --sync"),
                                           (0.2, theirs, "#77767b", name)):
            value = sync.get(key, 0)
            axis.bar(place + offset, value, width=0.4, color=colour, label=label if place == 0 or offset > 0 else None)
            axis.text(place + offset, value, f"{value:.2f} s", ha="center", va="bottom", fontsize=8)
    incremental = [sync.get("ttrss_incremental", 0), sync.get("greader_incremental", 0)]
    axis.set_xticks(list(places), [f"{title}\nincremental: {seconds:.2f} s" for (title, *_), seconds in zip(rows, incremental)])
    axis.set_ylabel("seconds, start to exit")
    axis.set_title("Initial sync of an account")
    axis.legend(fontsize=8)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], " ".join(sys.argv[3:]))
