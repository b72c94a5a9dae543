"""A compact notation for hits reported from a tabletop game (BF6-HIT-01, BF6-DMG-07/08).

Players with real models find their own hit zones; they tell battleline only what landed. One hit
report per line (or separated by ``;``):

* shell hits, ``TARGET <- FIRER MOUNTING ROUNDS [AP|HE] bBRACKET SIDE``::

      Mikasa <- Fuji A 2 AP b2 port

  two rounds from Fuji's mounting A, armour-piercing, the target's leading edge in range
  bracket 2, fired at Mikasa's port side. The ammunition is HE when not written (BF6-GUN-02).
* torpedo hits, ``TARGET <- [FIRER] torpedo [SIZE] [shallow|normal] SIDE``::

      Mikasa <- torpedo 18in shallow starboard
      Mikasa <- Fuji torpedo port

  ``SIZE`` is a calibre (``18in``, ``450mm``, ``45cm``) or a flooding size (``size8``); without
  it the firer's torpedo size is used. Depth is normal unless ``shallow`` is written.

``SIDE`` is the embattled side: ``port``, ``starboard`` (``stbd``), ``ahead`` (``bow``) or
``astern`` (``stern``) (REF-BF6-12). :func:`parse_hit` reads a line into a report (syntax only),
:func:`format_hit` writes the canonical line (``parse_hit(format_hit(r)) == r``), and
:func:`resolve_hit` looks the firing ship's class up to build the
:class:`~battleline.rulesets.bf1900.hits.ShellSet` or
:class:`~battleline.rulesets.bf1900.hits.TorpedoHit` that Damage Step Two takes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from battleline.errors import IllegalOrderError, OrderSyntaxError, UnknownNameError
from battleline.rulesets.bf1900.conversion import load_conversion, torpedo_size
from battleline.rulesets.bf1900.hits import Ammo, Aspect, ShellSet, TorpedoHit
from battleline.rulesets.bf1900.ship import ShipClass

ARROW = "<-"
TORPEDO_WORD = "torpedo"

_ASPECT_WORDS: dict[str, Aspect] = {
    "port": Aspect.PORT,
    "starboard": Aspect.STARBOARD,
    "stbd": Aspect.STARBOARD,
    "ahead": Aspect.AHEAD,
    "bow": Aspect.AHEAD,
    "astern": Aspect.ASTERN,
    "stern": Aspect.ASTERN,
}
_BRACKET = re.compile(r"^b([0-9]+)$", re.IGNORECASE)
_CALIBRE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(in|mm|cm)$", re.IGNORECASE)
_SIZE = re.compile(r"^size([0-9]+)$", re.IGNORECASE)
_MM_PER_UNIT = {"in": 25.4, "mm": 1.0, "cm": 10.0}
#: Range brackets 1–4 (the penetration columns of the Ship Values).
BRACKETS = (1, 2, 3, 4)


@dataclass(frozen=True, slots=True)
class ShellReport:
    """Rounds of one mounting that landed on ``target``, as the players read them off the table."""

    target: str
    firer: str
    mounting: str
    rounds: int
    ammo: Ammo
    bracket: int
    aspect: Aspect


@dataclass(frozen=True, slots=True)
class TorpedoReport:
    """One torpedo that struck ``target``.

    ``calibre`` is ``(value, unit)`` as written (``(18.0, "in")``); ``size`` is a flooding size
    written directly. With neither, the firer's torpedo size is used.
    """

    target: str
    firer: str | None
    shallow: bool
    aspect: Aspect
    calibre: tuple[float, str] | None = None
    size: int | None = None


HitReport = ShellReport | TorpedoReport


def _fail(text: str, reason: str) -> OrderSyntaxError:
    return OrderSyntaxError(f"hit {text.strip()!r}: {reason}")


def _aspect(text: str, word: str) -> Aspect:
    aspect = _ASPECT_WORDS.get(word.lower())
    if aspect is None:
        raise _fail(text, f"the side must be port, starboard, ahead or astern, not {word!r}")
    return aspect


def parse_hit(text: str) -> HitReport:
    """Parse one hit line; bad text raises :class:`OrderSyntaxError` quoting the line."""
    target, arrow, rest = text.partition(ARROW)
    target = " ".join(target.split())
    if not arrow:
        raise _fail(text, f"write TARGET {ARROW} FIRER …, e.g. 'Mikasa <- Fuji A 2 AP b2 port'")
    if not target:
        raise _fail(text, "no target ship before '<-'")
    words = rest.split()
    if not words:
        raise _fail(text, "nothing after '<-'")
    lowered = [w.lower() for w in words]
    if TORPEDO_WORD in lowered:
        return _parse_torpedo(text, target, words, lowered.index(TORPEDO_WORD))
    return _parse_shells(text, target, words)


def _parse_shells(text: str, target: str, words: list[str]) -> ShellReport:
    if len(words) < 4:
        raise _fail(text, "write FIRER MOUNTING ROUNDS [AP|HE] bBRACKET SIDE after '<-'")
    aspect = _aspect(text, words[-1])
    m = _BRACKET.match(words[-2])
    if m is None:
        raise _fail(text, f"expected a range bracket b1–b4 before the side, not {words[-2]!r}")
    bracket = int(m.group(1))
    if bracket not in BRACKETS:
        raise _fail(text, f"range bracket must be b1–b4, not b{bracket}")
    body = words[:-2]
    ammo = Ammo.HE  # the default ammunition (BF6-GUN-02)
    if body and body[-1].upper() in ("AP", "HE"):
        ammo = Ammo(body.pop().upper())
    if len(body) < 3:
        raise _fail(text, "write FIRER MOUNTING ROUNDS before the ammunition and bracket")
    rounds_word, mounting = body[-1], body[-2]
    if not rounds_word.isdigit() or int(rounds_word) < 1:
        raise _fail(text, f"rounds must be a whole number of at least 1, not {rounds_word!r}")
    firer = " ".join(body[:-2])
    return ShellReport(target, firer, mounting, int(rounds_word), ammo, bracket, aspect)


def _parse_torpedo(text: str, target: str, words: list[str], at: int) -> TorpedoReport:
    firer = " ".join(words[:at]) or None
    tail = words[at + 1 :]
    if not tail:
        raise _fail(text, "a torpedo hit needs the side it struck, e.g. 'torpedo 18in starboard'")
    aspect = _aspect(text, tail[-1])
    calibre: tuple[float, str] | None = None
    size: int | None = None
    shallow = False
    for word in tail[:-1]:
        low = word.lower()
        if low in ("shallow", "normal"):
            shallow = low == "shallow"
        elif (m := _CALIBRE.match(word)) is not None:
            calibre = (float(m.group(1)), m.group(2).lower())
        elif (s := _SIZE.match(word)) is not None:
            size = int(s.group(1))
        else:
            raise _fail(text, f"unexpected {word!r}: write [18in|450mm|size8] [shallow] SIDE")
    if calibre is not None and size is not None:
        raise _fail(text, "give a calibre or a size, not both")
    if size is not None and size < 1:
        raise _fail(text, "a torpedo size must be at least 1")
    return TorpedoReport(target, firer, shallow, aspect, calibre, size)


def parse_hits(text: str) -> list[HitReport]:
    """Several hit lines, separated by newlines or ``;``; blank lines and ``#`` comments skipped."""
    out: list[HitReport] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        out.extend(parse_hit(part) for part in line.split(";") if part.strip())
    return out


def format_hit(report: HitReport) -> str:
    """The canonical line for a report."""
    if isinstance(report, ShellReport):
        return (
            f"{report.target} {ARROW} {report.firer} {report.mounting} {report.rounds} "
            f"{report.ammo.value} b{report.bracket} {report.aspect.value}"
        )
    parts = [report.target, ARROW]
    if report.firer:
        parts.append(report.firer)
    parts.append(TORPEDO_WORD)
    if report.calibre is not None:
        parts.append(f"{report.calibre[0]:g}{report.calibre[1]}")
    if report.size is not None:
        parts.append(f"size{report.size}")
    if report.shallow:
        parts.append("shallow")
    parts.append(report.aspect.value)
    return " ".join(parts)


def format_hits(reports: Iterable[HitReport]) -> str:
    """Several reports, one per line."""
    return "\n".join(format_hit(r) for r in reports)


# -- resolving against the ships in play -------------------------------------------------------

#: Looks up a ship in play by the name a player typed: ``(canonical name, class)``.
ShipLookup = Callable[[str], tuple[str, ShipClass]]


def lookup_in(ships: Mapping[str, ShipClass]) -> ShipLookup:
    """A case-insensitive lookup over ``{name: class}``; an unknown name raises
    :class:`UnknownNameError` suggesting close names."""
    by_key = {name.lower(): name for name in ships}

    def lookup(name: str) -> tuple[str, ShipClass]:
        canonical = by_key.get(" ".join(name.split()).lower())
        if canonical is None:
            raise UnknownNameError("ship", name, list(ships))
        return canonical, ships[canonical]

    return lookup


def resolve_hit(report: HitReport, lookup: ShipLookup) -> ShellSet | TorpedoHit:
    """The Step Two record for a report, with penetration, calibre and shell size from the firing
    ship's class and the bracket (BF6-HIT-01); a hit no class allows raises
    :class:`IllegalOrderError` naming the ship and the reason."""
    target, _ = lookup(report.target)
    if isinstance(report, ShellReport):
        return _resolve_shells(report, target, lookup)
    return _resolve_torpedo(report, target, lookup)


def _resolve_shells(report: ShellReport, target: str, lookup: ShipLookup) -> ShellSet:
    firer, cls = lookup(report.firer)
    line = format_hit(report)
    if firer == target:
        raise IllegalOrderError(f"hit {line!r}: {firer} cannot hit itself")
    mount = next((m for m in cls.mountings if m.key.lower() == report.mounting.lower()), None)
    if mount is None:
        keys = ", ".join(m.key for m in cls.mountings)
        raise IllegalOrderError(
            f"hit {line!r}: {firer} ({cls.name}) has no mounting {report.mounting!r}; "
            f"its mountings are {keys}"
        )
    penetration = mount.penetration[report.bracket - 1]
    if penetration is None:
        raise IllegalOrderError(
            f"hit {line!r}: {firer}'s {mount.key} ({mount.calibre_cm:g} cm) cannot reach "
            f"bracket {report.bracket} (BF6-HIT-01)"
        )
    return ShellSet(
        firer=firer,
        target=target,
        mounting=mount.key,
        gun_class=mount.gun_class,
        calibre_cm=mount.calibre_cm,
        rounds=report.rounds,
        ammo=report.ammo,
        penetration=penetration,
        bracket=report.bracket,
        shell_size=mount.shell_size,
        aspect=report.aspect,
    )


def _resolve_torpedo(report: TorpedoReport, target: str, lookup: ShipLookup) -> TorpedoHit:
    line = format_hit(report)
    firer_name, cls = lookup(report.firer) if report.firer else ("", None)
    if firer_name == target:
        raise IllegalOrderError(f"hit {line!r}: {target} cannot torpedo itself")
    if cls is not None and report.shallow and not cls.shallow_torpedoes:
        raise IllegalOrderError(
            f"hit {line!r}: {firer_name} ({cls.name}) carries no shallow-running torpedoes "
            "(BF6-TORP-06)"
        )
    mount_key = "torpedo"
    if report.size is not None:
        size = report.size
    elif report.calibre is not None:
        value, unit = report.calibre
        size = torpedo_size(value * _MM_PER_UNIT[unit], load_conversion())
        mount_key = f"{value:g}{unit}"
    elif cls is not None and cls.torpedoes:
        sizes = sorted({t.size for t in cls.torpedoes})
        if len(sizes) > 1:
            raise IllegalOrderError(
                f"hit {line!r}: {firer_name} carries torpedoes of sizes "
                f"{', '.join(map(str, sizes))}; write which, e.g. size{sizes[-1]}"
            )
        size = sizes[0]
    else:
        who = f"{firer_name} ({cls.name}) carries no torpedoes" if cls else "no firer is named"
        raise IllegalOrderError(f"hit {line!r}: {who}; write the calibre, e.g. '18in'")
    if cls is not None:
        mount_key = next((t.key for t in cls.torpedoes if t.size == size), mount_key)
    return TorpedoHit(
        firer=firer_name or "unknown",
        target=target,
        mount=mount_key,
        size=size,
        shallow=report.shallow,
        aspect=report.aspect,
    )
