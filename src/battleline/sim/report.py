"""The sweep's report: rich tables in the terminal, JSON, and a PNG plot.

Everything here reads the plain summary dict of :meth:`battleline.sim.aggregate.Tally.summary`,
so a saved JSON file can be re-plotted without playing again.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from battleline.sim.runner import CAUSES

Summary = dict[str, Any]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(pair: list[float]) -> str:
    return f"{100 * pair[0]:.1f}–{100 * pair[1]:.1f}%"


def outcome_table(s: Summary) -> Table:
    """Win and draw rates with their 95 % intervals."""
    t = Table(title="Outcome", title_justify="left")
    for col in ("result", "rate", "95% interval", "battles"):
        t.add_column(col, justify="left" if col == "result" else "right")
    n = s["completed"]
    for side in s["sides"]:
        r = s["win_rate"][side]
        t.add_row(f"{side} wins", _pct(r), _ci(s["ci95"][side]), str(round(r * n)))
    t.add_row("draw", _pct(s["draw_rate"]), _ci(s["draw_ci95"]), str(round(s["draw_rate"] * n)))
    return t


def _dist(hist: dict[str, int]) -> str:
    return "  ".join(f"{k}:{v}" for k, v in hist.items())


def losses_table(s: Summary) -> Table:
    """Ships sunk and crippled per side: mean and distribution (ships: battles)."""
    t = Table(title="Losses per battle (distribution is ships: battles)", title_justify="left")
    for col in ("side", "sunk (mean)", "sunk distribution", "crippled (mean)", "crippled dist."):
        t.add_column(col, justify="right" if "mean" in col else "left")
    for side in s["sides"]:
        t.add_row(
            side,
            f"{s['mean_ships_sunk'][side]:.2f}",
            _dist(s["ships_sunk_distribution"][side]),
            f"{s['mean_ships_crippled'][side]:.2f}",
            _dist(s["ships_crippled_distribution"][side]),
        )
    return t


def survival_table(s: Summary) -> Table:
    """Each class's survival rate (afloat and not surrendered at the end)."""
    t = Table(title="Survival by class", title_justify="left")
    for col in ("side", "class", "ships", "survived", "rate", "hits taken per ship"):
        t.add_column(col, justify="left" if col in ("side", "class") else "right")
    for side in s["sides"]:
        for cls, row in s["class_survival"][side].items():
            t.add_row(
                side,
                cls,
                str(row["ships"]),
                str(row["survived"]),
                _pct(row["rate"]),
                f"{row.get('hits_taken_per_ship', 0.0):.1f}",
            )
    return t


def hit_rate_table(s: Summary) -> Table:
    """Hits per round fired, by side and calibre class and then gun by gun (bore, heaviest
    first), with 95 % intervals."""
    t = Table(title="Hits per round fired (95% interval over battles)", title_justify="left")
    for col in ("side", "guns", "rounds/battle", "hits/battle", "hit rate", "95% interval"):
        t.add_column(col, justify="left" if col in ("side", "guns") else "right")
    for side in s["sides"]:
        rows = list(s.get("hit_rates", {}).get(side, {}).items())
        rows += [(f"  {b}", r) for b, r in _by_bore(s.get("hit_rates_by_bore", {}).get(side, {}))]
        for calibre, row in rows:
            t.add_row(
                side,
                calibre,
                f"{row['rounds_per_battle']:.1f}",
                f"{row['hits_per_battle']:.1f}",
                _pct(row["rate"]),
                _ci(row["ci95"]),
            )
    return t


def _by_bore(rows: dict[str, Any]) -> list[tuple[str, Any]]:
    """Bore rows, heaviest gun first where the label starts with a number (``"15.2 cm"``);
    any other label after them, in name order."""

    def weight(label: str) -> tuple[float, str]:
        try:
            return -float(label.split()[0]), label
        except (ValueError, IndexError):
            return math.inf, label

    return sorted(rows.items(), key=lambda kv: weight(kv[0]))


def damage_table(s: Summary) -> Table:
    """Damage received per battle, by cause."""
    t = Table(title="Damage received per battle, by cause", title_justify="left")
    t.add_column("side")
    for c in CAUSES:
        t.add_column(c, justify="right")
    for side in s["sides"]:
        row = s["damage_by_cause"][side]
        t.add_row(side, *(f"{row[c]:.2f}" for c in CAUSES))
    return t


def turns_line(s: Summary) -> Text:
    """Turns played and turns to a decision."""
    turns = s["turns"]
    decided = turns["mean_to_decision"]
    tail = (
        f"; {_pct(turns['decided_rate'])} decided before the turn limit, "
        f"in {decided:.1f} turns on average"
        if decided is not None
        else "; no battle was decided before the turn limit"
    )
    return Text(f"Turns played: mean {turns['mean']:.1f}{tail}")


def failures(s: Summary) -> Text:
    """A warning naming the battles the engine could not finish (empty when none)."""
    if not s["failed"]:
        return Text("")
    lines = [
        f"{s['failed']} of {s['runs']} battles stopped with an engine error and are left out of "
        "every figure; replay one with battleline demo --scenario SCENARIO --seed GAME_SEED:"
    ]
    lines += [f"  run {e['run']} (game seed {e['game_seed']}): {e['error']}" for e in s["errors"]]
    return Text("\n".join(lines), style="bold yellow")


def render(s: Summary) -> Group:
    """The whole terminal report."""
    head = Text(f"{s['scenario']}: {s['runs']} battles, seed {s['seed']}", style="bold")
    return Group(
        head,
        failures(s),
        outcome_table(s),
        losses_table(s),
        survival_table(s),
        turns_line(s),
        hit_rate_table(s),
        damage_table(s),
    )


def print_report(console: Console, s: Summary) -> None:
    """Print the report to ``console``."""
    console.print(render(s))


def to_json(s: Summary) -> str:
    """The summary as indented JSON text."""
    return json.dumps(s, indent=2, sort_keys=False)


def write_plot(s: Summary, path: Path) -> Path:
    """A PNG with the outcome rates (with 95 % intervals), the ships-sunk histograms of both
    sides, and survival by class."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sides: list[str] = s["sides"]
    colours = ("#1f5fa8", "#c0392b")
    fig, axes = plt.subplots(
        1, 3, figsize=(15, 5), gridspec_kw={"width_ratios": [1, 1.3, 1.6]}, layout="constrained"
    )
    failed = f", {s['failed']} failed" if s["failed"] else ""
    fig.suptitle(
        f"{s['scenario']}: {s['completed']} battles (seed {s['seed']}{failed})", fontsize=14
    )

    # outcome
    ax = axes[0]
    labels = [f"{sides[0]}\nwins", "draw", f"{sides[1]}\nwins"]
    rates = [s["win_rate"][sides[0]], s["draw_rate"], s["win_rate"][sides[1]]]
    cis = [s["ci95"][sides[0]], s["draw_ci95"], s["ci95"][sides[1]]]
    err = [[r - c[0] for r, c in zip(rates, cis, strict=True)]]
    err.append([c[1] - r for r, c in zip(rates, cis, strict=True)])
    ax.bar(labels, rates, color=[colours[0], "#888888", colours[1]], yerr=err, capsize=6)
    for i, r in enumerate(rates):
        ax.text(i - 0.38, 1.04, f"{100 * r:.1f}%", ha="left", va="center", fontsize=11)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("share of battles (bars: 95% interval)")
    ax.set_title("Outcome")

    # ships sunk
    ax = axes[1]
    hists = [s["ships_sunk_distribution"][side] for side in sides]
    most = max([int(k) for h in hists for k in h] + [1])
    xs = list(range(most + 1))
    width = 0.4
    for i, (side, h) in enumerate(zip(sides, hists, strict=True)):
        ys = [h.get(str(x), 0) / max(1, s["completed"]) for x in xs]
        offset = (i - 0.5) * width
        ax.bar([x + offset for x in xs], ys, width, color=colours[i], label=f"{side}")
    ax.set_xticks(xs)
    ax.set_xlabel("ships sunk in the battle")
    ax.set_ylabel("share of battles")
    ax.set_title("Ships sunk per battle")
    ax.legend(title="ships lost by")

    # survival by class
    ax = axes[2]
    names: list[str] = []
    values: list[float] = []
    cols: list[str] = []
    for i, side in enumerate(sides):
        for cls, row in s["class_survival"][side].items():
            names.append(f"{cls} ({side}, {row['ships'] // max(1, s['completed'])})")
            values.append(row["rate"])
            cols.append(colours[i])
    ys = list(range(len(names)))[::-1]
    ax.barh(ys, values, color=cols)
    ax.set_yticks(ys, names)
    ax.set_xlim(0, 1.1)
    for y, v in zip(ys, values, strict=True):
        ax.text(v + 0.01, y, f"{100 * v:.0f}%", va="center", fontsize=9)
    ax.set_xlabel("survival rate (afloat, not surrendered)")
    ax.set_title("Survival by class (ships per battle)")

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
