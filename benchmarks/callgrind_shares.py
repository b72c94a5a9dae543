"""Instructions spent inside chosen Python functions during some battles, counted by callgrind.

CPython 3.11 shows callgrind only its own C functions, never which Python function is running.
This script calls each chosen function through a C function of the interpreter that a battle
never uses otherwise (``functools.reduce``, ``itertools.starmap``, ``map``, ...), so that the
inclusive cost of that C function, as ``callgrind_annotate --inclusive=yes`` prints it, is the
cost of the Python function, callees included (plus about a thousand instructions a call for
the detour). At most one function per entry point, and none may call another through the same
entry point. Nothing is changed but the way the functions are called: the battles are the same.

Usage (one warm-up battle, then the battles between two dumps; the second dump is theirs)::

    PYTHONHASHSEED=0 PYTHONPATH=TREE/src valgrind --tool=callgrind --dump-before=getppid \\
        --callgrind-out-file=/tmp/cg python benchmarks/callgrind_shares.py yalu-1894 3 \\
        battleline.ai.admiral:FleetAdmiral.command battleline.rulesets.bf1900.view:side_view
    callgrind_annotate --inclusive=yes /tmp/cg.2 | grep -E 'functools_reduce|_next|_operator_call'

Targets are ``module:attribute`` (``Class.method`` for a method) and take the entry points in
the order of :data:`ENTRIES`; the script prints which entry point each one took. This prints
figures; it is not a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib
import itertools
import operator
import os
import sys
from collections.abc import Callable
from typing import Any

Fn = Callable[..., Any]


def _reduce(f: Fn) -> Fn:
    return lambda *a, **k: functools.reduce(lambda _acc, _x: f(*a, **k), (0,), None)


def _starmap(f: Fn) -> Fn:
    return lambda *a, **k: next(itertools.starmap(lambda: f(*a, **k), ((),)))


def _map(f: Fn) -> Fn:
    return lambda *a, **k: next(map(lambda _: f(*a, **k), (0,)))


def _calliter(f: Fn) -> Fn:
    done = object()
    return lambda *a, **k: next(iter(lambda: f(*a, **k), done))


def _opcall(f: Fn) -> Fn:
    return lambda *a, **k: operator.call(f, *a, **k)


def _accumulate(f: Fn) -> Fn:
    return lambda *a, **k: list(itertools.accumulate((0, 0), lambda _x, _y: f(*a, **k)))[-1]


def _predicate(kind: Callable[..., Any], keep: bool) -> Callable[[Fn], Fn]:
    """An entry point that calls a predicate: the answer is kept aside, the predicate returns
    ``keep`` so that the iterator is done after one item."""

    def entry(f: Fn) -> Fn:
        def call(*a: Any, **k: Any) -> Any:
            box: list[Any] = []

            def keep_aside(_: object) -> bool:
                box.append(f(*a, **k))
                return keep

            list(kind(keep_aside, (0,)))
            return box[0]

        return call

    return entry


#: Entry points, each with the name callgrind gives its C function.
ENTRIES: tuple[tuple[str, Callable[[Fn], Fn]], ...] = (
    ("functools_reduce", _reduce),
    ("starmap_next", _starmap),
    ("map_next", _map),
    ("filter_next", _predicate(filter, False)),
    ("takewhile_next", _predicate(itertools.takewhile, False)),
    ("dropwhile_next", _predicate(itertools.dropwhile, True)),
    ("filterfalse_next", _predicate(itertools.filterfalse, True)),
    ("accumulate_next", _accumulate),
    ("calliter_iternext", _calliter),
    ("_operator_call", _opcall),
)


def _replace(old: object, new: object) -> int:
    """Put ``new`` wherever a battleline module, class or phase table holds ``old``."""
    count = 0
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("battleline"):
            continue
        for key, value in list(vars(module).items()):
            if value is old:
                setattr(module, key, new)
                count += 1
            elif isinstance(value, type):
                for attr, member in list(vars(value).items()):
                    if member is old:
                        setattr(value, attr, new)
                        count += 1
            elif isinstance(value, tuple):  # a ruleset's phases hold their resolve functions
                for item in value:
                    if dataclasses.is_dataclass(item) and not isinstance(item, type):
                        for f in dataclasses.fields(item):
                            if getattr(item, f.name) is old:
                                object.__setattr__(item, f.name, new)
                                count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("battles", help="battle indices, comma-separated (seed 1)")
    parser.add_argument("targets", nargs="+", help="module:attribute, at most ten")
    args = parser.parse_args()
    if len(args.targets) > len(ENTRIES):
        parser.error(f"at most {len(ENTRIES)} targets")
    from battleline.sim.runner import play_battle

    importlib.import_module("battleline.ai.admiral")
    importlib.import_module("battleline.rulesets.bf1900.ruleset")
    for target, (c_name, entry) in zip(args.targets, ENTRIES, strict=False):
        module_name, _, path = target.partition(":")
        owner: Any = importlib.import_module(module_name)
        *owners, name = path.split(".")
        for part in owners:
            owner = getattr(owner, part)
        old = getattr(owner, name)
        wrapped = functools.wraps(old)(entry(old))
        print(f"{target}: {c_name} ({_replace(old, wrapped)} references)", file=sys.stderr)
    play_battle(args.scenario, 1, 10_000)  # warm-up: imports, data files, caches
    os.getppid()  # first dump
    for index in args.battles.split(","):
        play_battle(args.scenario, 1, int(index))
    os.getppid()  # second dump: the battles


if __name__ == "__main__":
    main()
