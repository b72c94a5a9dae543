"""What one side must never be shown while the game is on: the strings a leak scan looks for.

:func:`secrets_for` lists, for the state as it stands, the text that would give away what the
rules keep from ``side`` (issue 11 §3), in the forms battleline prints it:

* **exact enemy coordinates** (as JSON prints a pose, and to the decimetre as events round them),
  except where the side's own contacts show the same figure (a contact shows an observed pose;
  with the scenario option ``observed_positions`` off it is exact, and then not a secret);
* **true ranges** between each own ship and each enemy ship as battleline prints a range,
  ``"4,540 m"`` (centre to centre, a torpedo's run to the aim point, and from the firer's funnel
  to the leading edge of the target's base, as measuring does);
* **the enemy's torpedo counts**: how many a ship launches and how many she has left;
* **an enemy ship's log**: its JSON dump, its log page's title (``log_layout.log_title``, which
  every laid-out log carries), and the openings of the detailed events about her log
  (code effects, fire and flooding rolls, critical rolls, damage control, sink rolls);
* **the enemy's orders**: every order line as the log records it (``"Red: Yoshino: ..."``).

Every secret can be looked for as a plain substring (the conformance suite does);
:func:`leaks` also ignores a figure that is only the tail of a longer number. Ranges under
:data:`MIN_RANGE_M` and coordinates of fewer than :data:`MIN_FIGURE_CHARS` characters are left
out: a ship's own move (``"moves 142 mm (950 m)"``) prints figures like those, and a scan would
cry wolf.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable

from battleline.engine.geometry import Pose
from battleline.engine.state import canonical_json, plain
from battleline.rulesets.bf1900.damage.codes import CODE_NAMES
from battleline.rulesets.bf1900.gunnery import clip_to_base
from battleline.rulesets.bf1900.log_layout import log_title
from battleline.rulesets.bf1900.observation import contacts_for
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.state import Bf1900State, log_to_dict
from battleline.rulesets.bf1900.table import funnel_point
from battleline.rulesets.bf1900.torpedoes import run_length, torpedo_run

#: True ranges shorter than this are not scanned for (three-digit figures are everywhere).
MIN_RANGE_M = 1000.0
#: Coordinates printed in fewer characters than this are not scanned for (``"0.0"``, ``"8000.0"``).
MIN_FIGURE_CHARS = 7

#: How the detailed events about a ship's own log begin after ``"<ship>: "``: the dice she rolls
#: for fire, flooding, criticals, damage control and sinking, and the effects marked on her log.
PRIVATE_OPENINGS: tuple[str, ...] = (
    "flooding occurrence",
    "light flooding effects",
    "heavy flooding effects",
    "severe flooding effects",
    "Light flooding",
    "Heavy flooding",
    "Severe flooding",
    "new FL from",
    "new Light flooding",
    "new Heavy flooding",
    "new Severe flooding",
    "flooding location",
    "external fire",
    "internal fire",
    "Hvy FL in",
    "Sev FL in",
    "Main/TT critical",
    "miscellaneous damage",
    "critical effects",
    "main hit location",
    "damage control",
    "scuttle",
    "sink roll",
    "turns until she sinks",
    "sinking, ",
    "gun crews stand by",
    "torpedo at",
    "torpedo from",
    "crews roll",
    "back on an even keel",
    "down by the",
    "list to",
)


def _ranges(a: Pose, b: Pose, size_b: tuple[float, float], size_a: float) -> Iterable[float]:
    """Centre to centre, a torpedo's run (centre to the aim point on ``b``'s base), and funnel
    to the leading edge of ``b``'s base."""
    yield math.hypot(b.x - a.x, b.y - a.y)
    yield run_length(torpedo_run(a, b, size_b))
    fa = funnel_point(a, size_a)
    fb = funnel_point(b, size_b[0])
    dist = math.hypot(fb[0] - fa[0], fb[1] - fa[1])
    if dist > 0:
        span = clip_to_base(
            fa, ((fb[0] - fa[0]) / dist, (fb[1] - fa[1]) / dist), b, size_b[0], size_b[1]
        )
        if span is not None:
            yield max(span[0], 0.0)


def _metres(d: float) -> set[str]:
    """A range as the texts print it: ``"4,540 m"``."""
    if not math.isfinite(d) or d < MIN_RANGE_M:
        return set()
    return {f"{d:,.0f} m"}


def _figures(value: float) -> set[str]:
    """A coordinate as JSON prints it (rounded as the state and the events round it)."""
    out = {json.dumps(plain(value)), json.dumps(round(value, 1))}
    return {s for s in out if len(s) >= MIN_FIGURE_CHARS}


def _log_secrets(log: ShipLog) -> set[str]:
    """Strings that only a leak of this ship's log or her detailed events would carry."""
    name = log.name
    out = {f"{name}: {opening}" for opening in PRIVATE_OPENINGS}
    out |= {f"{name}: {code}: " for code in CODE_NAMES if code != "-"}
    dump = canonical_json(log_to_dict(log))
    out.add(dump)
    out.add(log_title(name))  # her log page (web_shiplog), whatever else it shows
    out.add(f'"name":{json.dumps(name, ensure_ascii=False)},"positions":')
    for mount in log.cls.torpedoes:  # "Yoshino launches 2 torpedo(es) ...; 1 left"
        for n in range(1, mount.tubes + 1):
            out.add(f"{name} launches {n} torpedo")
    return out


def secrets_for(state: Bf1900State, side: str) -> set[str]:
    """Every string that must not reach ``side`` now (see the module docstring)."""
    scale = get_scale(state.scale)
    seen = {c.name: c.pose for c in contacts_for(state, side)}
    own = [n for n, log in state.logs.items() if log.side == side]
    out: set[str] = set()
    for name, log in state.logs.items():
        if log.side == side:
            continue
        pose = state.poses[name]
        shown = seen.get(name)
        shown_figures = _figures(shown.x) | _figures(shown.y) if shown is not None else set[str]()
        out |= (_figures(pose.x) | _figures(pose.y)) - shown_figures
        size = scale.base_size_m(log.cls)
        for mine in own:
            here = state.poses[mine]
            mine_size = scale.base_size_m(state.logs[mine].cls)
            for d in _ranges(here, pose, size, mine_size[0]):
                out |= _metres(d)
            for d in _ranges(pose, here, mine_size, size[0]):
                out |= _metres(d)
        out |= _log_secrets(log)
        out.add(f"{log.side}: {name}: ")
    for division in state.divisions.values():
        if division.side != side:
            out.add(f"{division.side}: {division.name}: ")
    return out


_NUMBER = re.compile(r"^[0-9]")


def leaks(text: str, secrets: Iterable[str]) -> list[str]:
    """The secrets found in ``text``; a figure counts only where it is not the tail or the head of
    a longer number (not the ``4321.1`` in ``14321.15``, nor the ``4,540 m`` in ``14,540 m``)."""
    found = []
    for secret in secrets:
        if not secret or secret not in text:
            continue
        if _NUMBER.match(secret):
            tail = r"(?![0-9]|[.,][0-9])" if secret[-1].isdigit() else ""
            if not re.search(rf"(?<![0-9.,]){re.escape(secret)}{tail}", text):
                continue
        found.append(secret)
    return sorted(found)


__all__ = ["MIN_FIGURE_CHARS", "MIN_RANGE_M", "PRIVATE_OPENINGS", "leaks", "secrets_for"]
