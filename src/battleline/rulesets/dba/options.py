"""The amendments' optional rules ("Further Complications") as named toggles.

A scenario lists the options it plays with, e.g. ``["nets", "rough_weather"]``; ``"no_ramming"``
turns a default-on rule off. An unknown name raises :class:`~battleline.errors.ScenarioError`
listing the known ones.

==================  =======  ====================================================
toggle              default  rules
==================  =======  ====================================================
``ramming``         on       DBA-RAM-01..17 (the amendments' ramming rules)
``open_barbettes``  off      DBA-OB-01/02
``nets``            off      DBA-NET-01..04
``rough_weather``   off      DBA-RW-01..04
``bow_stern_arcs``  off      DBA-BSA-01/02
``monster_guns``    off      DBA-MG-01/02
``windy_corners``   off      DBA-WC-01..07
``tb_launch``       off      DBA-TBL-01..06 (tactical launch of 2nd Class TBs)
==================  =======  ====================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace

from battleline.errors import ScenarioError


@dataclass(frozen=True, slots=True)
class Options:
    """Which optional rules are in play."""

    ramming: bool = True
    open_barbettes: bool = False
    nets: bool = False
    rough_weather: bool = False
    bow_stern_arcs: bool = False
    monster_guns: bool = False
    windy_corners: bool = False
    tb_launch: bool = False

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every toggle's name."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def parse(cls, items: Iterable[str] | Mapping[str, bool] | None) -> Options:
        """Options from a scenario's option list (or a name → bool mapping)."""
        if items is None:
            return cls()
        known = cls.names()
        changes: dict[str, bool] = {}
        pairs: list[tuple[str, object]]
        if isinstance(items, Mapping):
            pairs = list(items.items())
        else:
            if isinstance(items, str):
                raise ScenarioError("DBA options: give a list of option names, not one string")
            pairs = []
            for raw in items:
                if not isinstance(raw, str):
                    raise ScenarioError(f"DBA options: {raw!r} is not an option name")
                name = raw.strip().lower().replace("-", "_")
                if name.startswith("no_") and name[3:] in known:
                    pairs.append((name[3:], False))
                else:
                    pairs.append((name, True))
        for name, value in pairs:
            key = str(name).strip().lower().replace("-", "_")
            if key not in known:
                raise ScenarioError(
                    f"DBA options: unknown option {name!r}; known options: {', '.join(known)}"
                )
            if not isinstance(value, bool):
                raise ScenarioError(f"DBA options: {key} must be true or false, not {value!r}")
            if key in changes and changes[key] != value:
                raise ScenarioError(f"DBA options: {key} is both switched on and off")
            changes[key] = value
        return replace(cls(), **changes)

    def enabled(self) -> tuple[str, ...]:
        """The names of the toggles that are on."""
        return tuple(n for n in self.names() if getattr(self, n))


DEFAULT_OPTIONS = Options()
