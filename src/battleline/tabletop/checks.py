"""Checking a turn's reported hits and torpedo launches against the firing ships' logs.

A player at the table reports what landed; before any die is rolled, every report is held
against what the firing ship could have done this turn:

* the mounting exists, has guns in action, and reaches the bracket (BF6-HIT-01, via
  :func:`~battleline.tabletop.hits_notation.resolve_hit`);
* rates of fire: rounds per gun per turn (BF6-ROF-01/03/04), ROF 2 only in brackets 1–2
  (BF6-ROF-05), whole salvos from a lettered position (BF6-ROF-06, AMB-12), a ROF-½ mounting
  that fired last turn is still loading (BF6-ROF-02, AMB-10), counting every round already
  reported for that mounting this turn;
* one range bracket per firer and target in a turn (one estimate per target, BF6-TGT-02);
* a ship that has surrendered fires no more (BF6-CMD-32), and a sinking ship's crews leave the
  guns and tubes (BF6-SINK-03/04);
* torpedoes: no more launched than the mount has left, so fired torpedoes are crossed off
  (BF6-TORP-03);
* friendly fire is refused unless the caller says it really happened.

Launches are written ``FIRER [MOUNT] [COUNT]`` (``Sokol 2``, ``Oslyabya bow 1``): every torpedo
fired this turn, hits included. A torpedo hit with no launch reported counts as one launch.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.arcs import bearing_guns, mount_spans
from battleline.rulesets.bf1900.gunnery import rounds_per_gun, salvos_per_turn
from battleline.rulesets.bf1900.hits import ShellSet, TorpedoHit
from battleline.rulesets.bf1900.ship import Mounting
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.tabletop.hits_notation import (
    HitReport,
    ShellReport,
    ShipLookup,
    format_hit,
    lookup_in,
    resolve_hit,
)


@dataclass(frozen=True, slots=True)
class LaunchReport:
    """Torpedoes one ship launched this turn: ``mount`` is a tube key, or ``None`` for its only
    mount."""

    firer: str
    mount: str | None
    count: int


def parse_launch(text: str) -> LaunchReport:
    """``FIRER [MOUNT] [COUNT]`` → a launch (syntax only: the mount is told from the ship's
    name when the log is at hand)."""
    words = text.split()
    if not words:
        raise OrderSyntaxError(f"launch {text!r}: write FIRER [MOUNT] [COUNT], e.g. 'Sokol 2'")
    count = 1
    if words[-1].isdigit():
        count = int(words.pop())
    elif words[-1].lstrip("-").isdigit():
        raise OrderSyntaxError(f"launch {text.strip()!r}: the count must be 1 or more")
    if count < 1:
        raise OrderSyntaxError(f"launch {text.strip()!r}: the count must be 1 or more")
    if not words:
        raise OrderSyntaxError(f"launch {text.strip()!r}: no firing ship named")
    return LaunchReport(" ".join(words), None, count)


def parse_launches(texts: Sequence[str]) -> list[LaunchReport]:
    """Several launches, ``;`` separating them within one text."""
    return [parse_launch(p) for t in texts for p in t.split(";") if p.strip()]


def format_launch(launch: LaunchReport) -> str:
    """The canonical text of a launch."""
    mount = f" {launch.mount}" if launch.mount else ""
    return f"{launch.firer}{mount} {launch.count}"


def resolve_launch(launch: LaunchReport, logs: Mapping[str, ShipLog]) -> LaunchReport:
    """The launch with the firer's name as in play and its mount key; the mount may be the last
    word of what was read as the name (``Oslyabya bow``)."""
    lookup = lookup_in({n: log.cls for n, log in logs.items()})
    text = format_launch(launch)
    try:
        name, cls = lookup(launch.firer)
        mount_word = launch.mount
    except LookupError:
        head, _, last = launch.firer.rpartition(" ")
        if not head:
            raise
        name, cls = lookup(head)
        mount_word = last
    if not cls.torpedoes:
        raise IllegalOrderError(f"launch {text!r}: {name} ({cls.name}) carries no torpedoes")
    keys = [t.key for t in cls.torpedoes]
    if mount_word is None:
        if len(keys) > 1:
            raise IllegalOrderError(
                f"launch {text!r}: {name} has torpedo mounts {', '.join(keys)}; write which, "
                f"e.g. '{name} {keys[0]} {launch.count}'"
            )
        return LaunchReport(name, keys[0], launch.count)
    key = next((k for k in keys if k.lower() == mount_word.lower()), None)
    if key is None:
        raise IllegalOrderError(
            f"launch {text!r}: {name} has no torpedo mount {mount_word!r}; its mounts are "
            f"{', '.join(keys)}"
        )
    return LaunchReport(name, key, launch.count)


@dataclass
class CheckedTurn:
    """A turn's reports, checked: the Step Two records, the torpedoes to cross off by (firer,
    mount), and the ROF-½ mountings that fired, by ship (for AMB-10 next turn)."""

    shells: list[ShellSet] = field(default_factory=list)
    torpedoes: list[TorpedoHit] = field(default_factory=list)
    fired: dict[tuple[str, str], int] = field(default_factory=dict)
    rof_half: dict[str, set[str]] = field(default_factory=dict)


def _rof(mount: Mounting) -> str:
    return "½" if mount.rof < 1 else f"{mount.rof:g}"


def most_guns_bearing(log: ShipLog, mount: Mounting) -> int:
    """The most guns of a mounting in action that can bear on one target (BF6-BEAM-*): all of a
    lettered position; for a battery, the best relative bearing for its guns' arcs."""
    if mount.is_lettered:
        return log.guns_in_action(mount.key)
    bearings = {0.0}
    for (start, width), _ in mount_spans(mount):
        bearings.update(((start % 360.0), (start + width) % 360.0))
    return max(bearing_guns(log, mount, theta).guns for theta in sorted(bearings))


class _Checker:
    def __init__(
        self,
        logs: Mapping[str, ShipLog],
        sides: Mapping[str, str],
        friendly_fire: bool | Collection[tuple[str, str]],
    ) -> None:
        self.logs = logs
        self.sides = sides
        self.friendly_fire = friendly_fire
        self.lookup: ShipLookup = lookup_in({n: log.cls for n, log in logs.items()})
        self.turn = CheckedTurn()
        # (firer, mounting) → rounds so far; (firer, mounting, target) → rounds; (firer,
        # target) → bracket
        self.rounds: dict[tuple[str, str], int] = {}
        self.at_target: dict[tuple[str, str, str], int] = {}
        self.brackets: dict[tuple[str, str], int] = {}

    def firer_state(self, line: str, firer: str, what: str) -> None:
        log = self.logs[firer]
        if log.surrendered:
            raise IllegalOrderError(
                f"{line}: {firer} has surrendered and fires no more (BF6-CMD-32)"
            )
        if log.sinking is not None and what == "torpedo":
            raise IllegalOrderError(
                f"{line}: {firer} is sinking and launches no torpedoes (BF6-SINK-03)"
            )
        if log.sinking is not None and log.sinking.guns_abandoned:
            raise IllegalOrderError(
                f"{line}: {firer}'s crews have abandoned the guns (BF6-SINK-04)"
            )

    def friendly(self, line: str, firer: str, target: str) -> None:
        side = self.sides.get(firer)
        allowed = self.friendly_fire
        if allowed is True or (not isinstance(allowed, bool) and (firer, target) in allowed):
            return
        if side is not None and side == self.sides.get(target):
            raise IllegalOrderError(
                f"{line}: {firer} and {target} are both of {side}; if this friendly fire "
                "really happened, say so with --friendly-fire"
            )

    def shell(self, report: ShellReport, hit: ShellSet) -> None:
        line = f"hit {format_hit(report)!r}"
        log = self.logs[hit.firer]
        mount = log.cls.mounting(hit.mounting)
        self.firer_state(line, hit.firer, "gun")
        self.friendly(line, hit.firer, hit.target)
        where = f"{hit.firer}'s {mount.key}"
        if mount.rof < 1 and mount.key in log.rof_half_fired_last_turn:
            raise IllegalOrderError(
                f"{line}: {where} (ROF ½) fired last turn and is still loading (BF6-ROF-02, AMB-10)"
            )
        pair = (hit.firer, hit.target)
        known = self.brackets.setdefault(pair, hit.bracket)
        if known != hit.bracket:
            raise IllegalOrderError(
                f"{line}: {hit.target} was already reported in bracket b{known} from "
                f"{hit.firer} this turn; one range, one bracket per target (BF6-TGT-02)"
            )
        guns = log.guns_in_action(mount.key)
        if guns == 0:
            raise IllegalOrderError(f"{line}: {where} has no guns in action (BF6-ROF-01)")
        key = (hit.firer, mount.key)
        before = self.rounds.get(key, 0)
        total = before + hit.rounds
        limit = guns * salvos_per_turn(mount)
        already = f" ({before} already reported this turn)" if before else ""
        if total > limit:
            rule = "BF6-ROF-04" if limit > guns else "BF6-ROF-01, BF6-ROF-03"
            raise IllegalOrderError(
                f"{line}: {where} has {guns} gun(s) in action at ROF {_rof(mount)}: at most "
                f"{limit} round(s) a turn, not {total}{already} ({rule})"
            )
        tkey = (hit.firer, mount.key, hit.target)
        to_target = self.at_target.get(tkey, 0) + hit.rounds
        bearing = most_guns_bearing(log, mount)
        cap = bearing * rounds_per_gun(mount, hit.bracket)
        if to_target > cap:
            rule = "BF6-ROF-05" if hit.bracket > 2 and mount.rof >= 2 else "BF6-ROF-01"
            why = " (beyond half range every gun fires one round)" if rule == "BF6-ROF-05" else ""
            raise IllegalOrderError(
                f"{line}: at most {bearing} gun(s) of {where} bear on one target: at most "
                f"{cap} round(s) at {hit.target} in bracket b{hit.bracket}{why}, not "
                f"{to_target}{already} ({rule})"
            )
        if mount.is_lettered and to_target % guns:
            raise IllegalOrderError(
                f"{line}: {where} fires whole {guns}-gun salvos: {to_target} round(s) at "
                f"{hit.target} cannot come from it (multiples of {guns}) (BF6-ROF-06, AMB-12)"
            )
        self.rounds[key] = total
        self.at_target[tkey] = to_target
        if mount.rof < 1:
            self.turn.rof_half.setdefault(hit.firer, set()).add(mount.key)
        self.turn.shells.append(hit)

    def torpedo(self, hit: TorpedoHit, line: str, declared: Mapping[tuple[str, str], int]) -> None:
        if hit.firer not in self.logs:  # firer unknown: nothing to cross off
            self.turn.torpedoes.append(hit)
            return
        self.firer_state(f"hit {line!r}", hit.firer, "torpedo")
        self.friendly(f"hit {line!r}", hit.firer, hit.target)
        log = self.logs[hit.firer]
        mounts = [t for t in log.cls.torpedoes if t.size == hit.size] or list(log.cls.torpedoes)
        if mounts:
            used = self.turn.fired

            def room(key: str) -> int:
                if any(f == hit.firer for f, _ in declared):
                    return declared.get((hit.firer, key), 0) - used.get((hit.firer, key), 0)
                return log.torpedoes_left.get(key, 0) - used.get((hit.firer, key), 0)

            mount = next((t for t in mounts if room(t.key) > 0), mounts[0])
            hit = replace(hit, mount=mount.key)
            key = (hit.firer, mount.key)
            used[key] = used.get(key, 0) + 1
        self.turn.torpedoes.append(hit)

    def launches(self, declared: Mapping[tuple[str, str], int]) -> None:
        """Hits from a firer that reported its launches must be among them; nothing beyond the
        torpedoes left (BF6-TORP-03)."""
        fired = self.turn.fired
        for (firer, key), hits in list(fired.items()):
            if any(f == firer for f, _ in declared) and hits > declared.get((firer, key), 0):
                raise IllegalOrderError(
                    f"{hits} torpedo hit(s) reported from {firer}'s {key} tubes, but "
                    f"{declared.get((firer, key), 0)} launched from them this turn"
                )
        for pair, count in declared.items():
            fired[pair] = max(count, fired.get(pair, 0))
        for (firer, key), count in fired.items():
            left = self.logs[firer].torpedoes_left.get(key, 0)
            if count > left:
                raise IllegalOrderError(
                    f"{firer}'s {key} tubes have {left} torpedo(es) left, so {count} cannot "
                    "have been fired this turn (fired torpedoes are crossed off, BF6-TORP-03)"
                )


def check_turn(
    logs: Mapping[str, ShipLog],
    sides: Mapping[str, str],
    reports: Sequence[HitReport],
    launches: Sequence[LaunchReport] = (),
    *,
    friendly_fire: bool | Collection[tuple[str, str]] = False,
) -> CheckedTurn:
    """Check a whole turn's reports together (see the module docstring); raises
    :class:`IllegalOrderError` quoting the first report at fault, naming the ship and rule.
    ``friendly_fire`` allows every friendly fire (``True``) or that of the (firer, target)
    pairs given."""
    checker = _Checker(logs, sides, friendly_fire)
    declared: dict[tuple[str, str], int] = {}
    for launch in launches:
        got = resolve_launch(launch, logs)
        assert got.mount is not None
        checker.firer_state(f"launch {format_launch(got)!r}", got.firer, "torpedo")
        key = (got.firer, got.mount)
        declared[key] = declared.get(key, 0) + got.count
    for report in reports:
        hit = resolve_hit(report, checker.lookup)
        for who, role in ((hit.target, "target"), (hit.firer, "firer")):
            log = logs.get(who)
            if log is not None and log.sunk:
                raise IllegalOrderError(
                    f"hit {format_hit(report)!r}: the {role} {who} has already gone under "
                    f"({log.lost_reason or 'sunk'}) (BF6-SINK-02)"
                )
        if isinstance(hit, ShellSet):
            assert isinstance(report, ShellReport)
            checker.shell(report, hit)
        else:
            checker.torpedo(hit, format_hit(report), declared)
    checker.launches(declared)
    return checker.turn
