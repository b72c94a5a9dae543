"""``battleline dba``: a referee's tools for Damn Battleships Again with Hunt's amendments.

``ships`` / ``ship NAME`` / ``points NAME`` read the reconstructed Annex A; ``fire``,
``torpedo`` and ``ram`` resolve one attack or ram with seeded dice (or the table's own rolls
given with ``--dice``) and print every roll and factor with its rule ID. A rejected command
prints one error line and exits with code 2.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from battleline.cli.common import clear_errors, out_console, parse_seed
from battleline.engine.dice import Dice, FixedDice, SeededDice
from battleline.engine.events import EventKind, EventLog
from battleline.errors import OrderSyntaxError

dba_app = typer.Typer(
    name="dba",
    help="Damn Battleships Again (Hunt's amendments): ship factors, points, fire, torpedo, ram.",
    no_args_is_help=True,
)

_OPTION = typer.Option([], "--option", "-o", help="an optional rule to play (repeatable)")
_ANNEX = typer.Option(None, "--annex", help="your own Annex A file instead of the built-in")
_SEED = typer.Option("1", "--seed", metavar="INTEGER", help="seed for the dice, 0 or more")
_DICE = typer.Option(None, "--dice", help="your own D6 rolls in order, e.g. 5,2")


def register(app: typer.Typer) -> None:
    """Add the ``dba`` command group to the app."""
    app.add_typer(dba_app, name="dba")


def _dice(seed: str, rolls: str | None, log: EventLog) -> Dice:
    if rolls is None:
        return SeededDice(parse_seed(seed), log=log)
    try:
        values = [int(v) for v in rolls.replace(" ", "").split(",") if v]
    except ValueError:
        raise OrderSyntaxError(f"--dice {rolls!r}: give D6 rolls like 5,2") from None
    if any(not 1 <= v <= 6 for v in values):
        raise OrderSyntaxError(f"--dice {rolls!r}: every roll is 1..6")
    return FixedDice(values, log=log)


def _print_log(log: EventLog) -> None:
    out = out_console()
    for event in log:
        style = "dim" if event.kind is EventKind.ROLL else ""
        out.print(f"[{style}]{escape(event.text)}[/]" if style else escape(event.text))


@dba_app.command("ships")
def ships_cmd(annex: Path | None = _ANNEX) -> None:
    """List Annex A with each ship's factors and points value."""
    from battleline.rulesets.dba.factors import load_annex_a
    from battleline.rulesets.dba.points import points_value

    with clear_errors():
        table = Table(title="Annex A (reconstructed)", title_justify="left")
        for col in ("ship", "nation", "type", "AF c/n/l/x", "DF", "speed", "torp", "PV"):
            table.add_column(col)
        for ship in load_annex_a(annex).ships.values():
            table.add_row(
                ship.name,
                ship.nation,
                ship.type.value,
                str(ship.af),
                ship.df_text,
                ship.speed_text,
                str(ship.torpedo),
                str(points_value(ship)),
            )
        out_console().print(table)


@dba_app.command("ship")
def ship_cmd(name: str, annex: Path | None = _ANNEX) -> None:
    """One ship's factors, marks and type flags."""
    from battleline.rulesets.dba.factors import load_annex_a
    from battleline.rulesets.dba.points import points_value

    with clear_errors():
        s = load_annex_a(annex)[name]
        out = out_console()
        out.print(f"{s.name} ({s.nation} {s.year or ''}) {s.type.value}".replace("  ", " "))
        out.print(
            f"  AF {s.af}  DF {s.df_text}  speed {s.speed_text}  torpedo {s.torpedo}"
            f"  size {s.size}  PV {points_value(s)}"
        )
        if s.monster_af is not None:
            out.print(f"  monster guns: enemy-spell AF {s.monster_af} (DBA-MG-01)")
        marks = [s.layout.value] if s.layout.value != "normal" else []
        marks += sorted(f.value for f in s.flags)
        if s.secondaries:
            marks.append(f"{s.secondaries} medium secondaries a beam")
        if s.carries_tbs:
            marks.append(f"carries {s.carries_tbs} 2nd Class TB")
        if marks:
            out.print("  " + ", ".join(marks))
        if s.note:
            out.print(f"  {s.note}")


@dba_app.command("points")
def points_cmd(name: str, annex: Path | None = _ANNEX) -> None:
    """The DBA-PV-01/02 points value, term by term."""
    from battleline.rulesets.dba.factors import load_annex_a
    from battleline.rulesets.dba.points import points_breakdown

    with clear_errors():
        ship = load_annex_a(annex)[name]
        out_console().print(f"{ship.name}: {points_breakdown(ship)}")


@dba_app.command("fire")
def fire_cmd(
    shooter: str,
    target: str,
    range_band: str = typer.Option("normal", "--range", help="close, normal, long or extreme"),
    arc: str = typer.Option("starboard", help="bow, starboard, stern or port of the shooter"),
    enemy_spell: bool = typer.Option(False, help="fired in the enemy's spell (DBA-MG-01)"),
    second_target: bool = typer.Option(False, help="second target, opposite beam (DBA-TGT-05)"),
    both_broadsides: bool = typer.Option(False, help="engaging both beams (DBA-TGT-02/04)"),
    in_corridor: bool = typer.Option(False, help="target in the end-on corridor (DBA-BSA-01)"),
    splash: int = typer.Option(0, help="splash-confusion factor (0 or -1, DBA-TF-02)"),
    shooter_crippled: bool = typer.Option(False),
    target_crippled: bool = typer.Option(False),
    target_damage: int = typer.Option(0, help="damaged markers the target already has"),
    option: list[str] = _OPTION,
    seed: str = _SEED,
    dice: str | None = _DICE,
    annex: Path | None = _ANNEX,
) -> None:
    """Resolve one ship's gunfire at another."""
    from battleline.rulesets.dba.combat import Arc, gun_attacks
    from battleline.rulesets.dba.factors import RangeBand, load_annex_a
    from battleline.rulesets.dba.options import Options
    from battleline.rulesets.dba.outcomes import apply_attack, roll_attack
    from battleline.rulesets.dba.status import ShipStatus

    with clear_errors():
        options = Options.parse(option)
        a = load_annex_a(annex)
        band, side = _band(range_band), _arc(arc)
        s = ShipStatus(a[shooter], crippled=shooter_crippled)
        t = ShipStatus(a[target], crippled=target_crippled, damage=target_damage)
        log = EventLog()
        rolls = _dice(seed, dice, log)
        attacks = gun_attacks(
            s,
            t,
            arc=Arc(side),
            band=RangeBand(band),
            own_spell=not enemy_spell,
            second_target=second_target,
            both_broadsides=both_broadsides,
            in_corridor=in_corridor,
            splash=splash,
            options=options,
        )
        if not attacks:
            log.emit(
                EventKind.NOTE,
                f"{s.name}: small-calibre guns cannot hurt {t.name} "
                f"(DF {t.ship.df_text}, DBA-SCG-01)",
            )
        for attack in attacks:
            rolled = roll_attack(attack, t, rolls, log=log)
            apply_attack(rolled, s, t, rolls, options=options, log=log)
        _print_log(log)
        out_console().print(f"{t.name} is {t.state_text}{', flooding' if t.flooding else ''}")


@dba_app.command("torpedo")
def torpedo_cmd(
    shooter: str,
    target: str,
    factor: int = typer.Option(1, help="torpedo attack factor, 1 or 2"),
    range_band: str = typer.Option("close", "--range", help="close or normal"),
    arc: str = typer.Option("starboard", help="bow, starboard, stern or port of the shooter"),
    edge: str = typer.Option("broadside", help="target edge: broadside, bow or stern"),
    enemy_spell: bool = typer.Option(False, help="fired in the enemy's spell (DBA-TORP-03)"),
    target_moved: int = typer.Option(0, help="bases the target moved last spell"),
    multiple: bool = typer.Option(False, help="another torpedo attack on it or a neighbour"),
    option: list[str] = _OPTION,
    seed: str = _SEED,
    dice: str | None = _DICE,
    annex: Path | None = _ANNEX,
) -> None:
    """Resolve one torpedo attack."""
    from battleline.rulesets.dba.combat import Arc, TargetEdge
    from battleline.rulesets.dba.factors import RangeBand, load_annex_a
    from battleline.rulesets.dba.options import Options
    from battleline.rulesets.dba.outcomes import apply_attack, roll_attack
    from battleline.rulesets.dba.status import ShipStatus
    from battleline.rulesets.dba.torpedoes import torpedo_attack

    with clear_errors():
        options = Options.parse(option)
        a = load_annex_a(annex)
        s = ShipStatus(a[shooter])
        t = ShipStatus(a[target], moved_last_spell=target_moved)
        if edge not in {e.value for e in TargetEdge}:
            raise OrderSyntaxError(f"--edge {edge!r}: broadside, bow or stern")
        log = EventLog()
        rolls = _dice(seed, dice, log)
        attack = torpedo_attack(
            s,
            t,
            af=factor,
            arc=Arc(_arc(arc)),
            band=RangeBand(_band(range_band)),
            edge=TargetEdge(edge),
            own_spell=not enemy_spell,
            multiple=multiple,
            options=options,
        )
        apply_attack(roll_attack(attack, t, rolls, log=log), s, t, rolls, options=options, log=log)
        _print_log(log)
        out_console().print(f"{t.name} is {t.state_text}{', flooding' if t.flooding else ''}")


@dba_app.command("ram")
def ram_cmd(
    rammer: str,
    target: str,
    edge: str = typer.Option("broadside", help="target edge hit: broadside, bow or stern"),
    bases: int = typer.Option(..., help="bases the rammer declared for this spell (DBA-RAM-03)"),
    target_speed: int = typer.Option(0, help="target's bases last spell (0 if now stopped)"),
    involuntary: bool = typer.Option(False, help="a collision the mover did not seek"),
    bases_left: int = typer.Option(0, help="rammer's moves left after contact (DBA-RAM-10)"),
    option: list[str] = _OPTION,
    seed: str = _SEED,
    dice: str | None = _DICE,
    annex: Path | None = _ANNEX,
) -> None:
    """Resolve one ram or collision."""
    from battleline.rulesets.dba.factors import load_annex_a
    from battleline.rulesets.dba.options import Options
    from battleline.rulesets.dba.ramming import Edge, RamKind, resolve_ram
    from battleline.rulesets.dba.status import ShipStatus

    with clear_errors():
        options = Options.parse(option)
        a = load_annex_a(annex)
        if edge not in {e.value for e in Edge}:
            raise OrderSyntaxError(f"--edge {edge!r}: broadside, bow or stern")
        r, t = ShipStatus(a[rammer]), ShipStatus(a[target])
        log = EventLog()
        rolls = _dice(seed, dice, log)
        kind = RamKind.INVOLUNTARY if involuntary else RamKind.VOLUNTARY
        out = resolve_ram(
            r,
            t,
            rolls,
            kind=kind,
            edge=Edge(edge),
            declared_bases=bases,
            target_speed=target_speed,
            bases_left=bases_left,
            options=options,
            log=log,
        )
        _print_log(log)
        con = out_console()
        if out.level is not None:
            con.print(
                f"relative size: {out.level}; rammer {out.rammer_result.value}, "
                f"target {out.target_result.value}"
            )
        con.print(
            f"{r.name}: {out.placement.value}; {r.name} {r.state_text}, {t.name} {t.state_text}"
        )


def _band(text: str) -> str:
    from battleline.rulesets.dba.factors import RangeBand

    key = text.strip().lower()
    if key not in {b.value for b in RangeBand}:
        raise OrderSyntaxError(f"--range {text!r}: close, normal, long or extreme")
    return key


def _arc(text: str) -> str:
    from battleline.rulesets.dba.combat import Arc

    key = text.strip().lower()
    if key not in {a.value for a in Arc}:
        raise OrderSyntaxError(f"--arc {text!r}: bow, starboard, stern or port")
    return key
