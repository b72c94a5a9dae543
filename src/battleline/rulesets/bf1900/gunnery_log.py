"""The gunnery log's notation: one line per firing ship and target (BF6-GUN-01, BF6-GUN-02,
BF6-TGT-02).

Each side writes its log in secret (``docs/gunnery-log.md``): the firer, the target, one range
estimate, the ammunition (HE unless AP is written) and the rounds each mounting sends. Until the
phase resolves the entries are sealed orders, seen only by the side that wrote them; afterwards
they stay its own ``ORDER`` events.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from battleline.errors import OrderSyntaxError
from battleline.rulesets.bf1900.hits import Ammo

_ENTRY = re.compile(
    r"\s*(?P<firer>[^:@]+?)\s*:\s*(?P<target>[^:@]+?)\s*@\s*(?P<est>[0-9]+(?:\.[0-9]+)?)\s*m?"
    r"(?P<rest>(?:\s+.*)?)\s*"
)
_ROUNDS = re.compile(r"(?P<key>[A-Za-z][A-Za-z0-9_-]*):(?P<n>[0-9]+)")


@dataclass(frozen=True, slots=True)
class GunneryEntry:
    """One line of a ship's gunnery log: one target, one estimate (BF6-GUN-02, BF6-TGT-02).

    ``rounds`` pairs each assigned mounting's key with the rounds it sends at this target.
    ``side`` is who wrote it (left empty, the firer's side from its ship log is used).

    >>> e = GunneryEntry.parse("Fuji: Mikasa @5200 AP A:2 Z:2 sec:4")
    >>> e.estimate_m, e.ammo.value, e.rounds
    (5200.0, 'AP', (('A', 2), ('Z', 2), ('sec', 4)))
    >>> str(e)
    'Fuji: Mikasa @5200 AP A:2 Z:2 sec:4'
    """

    firer: str
    target: str
    estimate_m: float
    ammo: Ammo = Ammo.HE
    rounds: tuple[tuple[str, int], ...] = ()
    side: str = field(default="", compare=False)

    @classmethod
    def parse(cls, text: str, side: str = "") -> GunneryEntry:
        """Read the notation ``Firer: Target @metres [AP|HE] key:rounds ...``.

        Raises :class:`OrderSyntaxError` for text that does not fit.
        """
        m = _ENTRY.fullmatch(text)
        if m is None:
            raise OrderSyntaxError(
                f"cannot read gunnery entry {text!r}: expected 'Firer: Target @metres [AP] "
                "key:rounds ...', e.g. 'Fuji: Mikasa @5200 AP A:2 Z:2'"
            )
        tokens = m.group("rest").split()
        ammo = Ammo.HE
        if tokens and tokens[0].upper() in (Ammo.AP.value, Ammo.HE.value):
            ammo = Ammo(tokens.pop(0).upper())
        rounds: list[tuple[str, int]] = []
        for tok in tokens:
            r = _ROUNDS.fullmatch(tok)
            if r is None:
                raise OrderSyntaxError(
                    f"gunnery entry {text!r}: {tok!r} is not 'mounting:rounds' (e.g. 'A:2')"
                )
            key, n = r.group("key"), int(r.group("n"))
            if n < 1:
                raise OrderSyntaxError(f"gunnery entry {text!r}: {key} must fire at least 1 round")
            if any(k == key for k, _ in rounds):
                raise OrderSyntaxError(f"gunnery entry {text!r}: mounting {key} is listed twice")
            rounds.append((key, n))
        if not rounds:
            raise OrderSyntaxError(
                f"gunnery entry {text!r} assigns no guns; add e.g. 'A:2' (BF6-TGT-02)"
            )
        return cls(
            m.group("firer"), m.group("target"), float(m.group("est")), ammo, tuple(rounds), side
        )

    def notation(self) -> str:
        """The entry in its text notation (AP written, HE the default left out)."""
        est = (
            f"{self.estimate_m:.0f}"
            if self.estimate_m == int(self.estimate_m)
            else (f"{self.estimate_m:g}")
        )
        parts = [f"{self.firer}: {self.target} @{est}"]
        if self.ammo is Ammo.AP:
            parts.append("AP")
        parts.extend(f"{k}:{n}" for k, n in self.rounds)
        return " ".join(parts)

    def __str__(self) -> str:
        return self.notation()

    @property
    def total_rounds(self) -> int:
        """All rounds sent at this target."""
        return sum(n for _, n in self.rounds)

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form, for the writer's own view and for saved games."""
        return {
            "firer": self.firer,
            "target": self.target,
            "estimate_m": self.estimate_m,
            "ammo": self.ammo.value,
            "rounds": [[k, n] for k, n in self.rounds],
            "side": self.side,
            "notation": self.notation(),
        }


def parse_log(text: str, side: str = "") -> list[GunneryEntry]:
    """A whole gunnery log, one entry a line; blank lines and ``#`` comments are skipped."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(GunneryEntry.parse(line, side))
    return out


__all__ = ["GunneryEntry", "parse_log"]
