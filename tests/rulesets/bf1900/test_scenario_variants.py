"""One scenario file played under several rulesets: variant files (``based_on``) and
``new_game(..., ruleset=)``; and loading one built-in validates that one alone."""

from __future__ import annotations

import dataclasses
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from battleline.engine import state_hash
from battleline.errors import ScenarioError, UnknownNameError
from battleline.game import new_game
from battleline.rulesets import builtin_scenarios as owners
from battleline.rulesets.bf1900 import scenario_index
from battleline.rulesets.bf1900.scenario import builtin_scenarios, get_scenario, load_scenario_file

DATA = Path(scenario_index.__file__).parent / "data" / "scenarios"
VARIANTS = {
    "santiago-1898-1d12": ("santiago_1898.toml", "bf1900-1d12"),
    "tgd-santiago-1898": ("santiago_1898.toml", "tgd"),
    "cruiser-duel-1d12": ("01-cruiser-duel.toml", "bf1900-1d12"),
}


def _copy_of(base: str, sid: str, ruleset: str, tmp_path: Path) -> Path:
    """The base file with its id, title and ruleset lines changed: the copy a variant replaces."""
    variant = get_scenario(sid)
    text = (DATA / base).read_text(encoding="utf-8")
    base_sc = load_scenario_file(DATA / base)
    text = text.replace(f'id = "{base_sc.id}"', f'id = "{sid}"')
    text = text.replace(f'title = "{base_sc.title}"', f'title = "{variant.title}"')
    text = text.replace(f'ruleset = "{base_sc.ruleset}"', f'ruleset = "{ruleset}"')
    if variant.description != base_sc.description:
        text = text.replace(base_sc.description, variant.description)
    out = tmp_path / f"{sid}.toml"
    out.write_text(text, encoding="utf-8")
    return out


@pytest.mark.parametrize("sid", sorted(VARIANTS))
def test_a_variant_sets_up_the_same_game_as_a_copy_of_its_base(sid: str, tmp_path: Path) -> None:
    base, ruleset = VARIANTS[sid]
    assert owners()[sid] == ruleset
    copy = _copy_of(base, sid, ruleset, tmp_path)
    assert load_scenario_file(copy) == get_scenario(sid)
    built, copied = new_game(sid, 3), new_game(str(copy), 3)
    assert copied.state.ruleset == built.state.ruleset
    same = dataclasses.replace(copied.state, scenario=sid)
    assert state_hash(same) == state_hash(built.state)


def test_the_variant_files_are_a_few_lines_not_copies() -> None:
    for path in DATA.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        if "based_on" in text:
            assert len([ln for ln in text.splitlines() if ln and not ln.startswith("#")]) < 12


def test_any_bf1900_schema_ruleset_plays_a_scenario_by_argument() -> None:
    game = new_game("santiago-1898", 2, "tgd")
    assert game.state.ruleset.startswith("tgd@") and "cards" in {
        f.name for f in dataclasses.fields(game.state)
    }
    with pytest.raises(ScenarioError, match="dba ruleset reads dba-schema scenarios"):
        new_game("santiago-1898", 2, "dba")
    with pytest.raises(ScenarioError, match="'yalu' is written for dba"):
        new_game("yalu", 2, "bf1900")


def _variant(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "v.toml"
    path.write_text(body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            'based_on = "santiago-1898"\nid = "x"\nruleset = "tgd"\nturn_limit = 3\n',
            "turn_limit: a variant (based_on) sets only id, title, ruleset, description",
        ),
        ('based_on = "nowhere"\nid = "x"\nruleset = "tgd"\n', "based_on: no built-in"),
        (
            'based_on = "tgd-santiago-1898"\nid = "x"\nruleset = "bf1900"\n',
            "is itself a variant (of 'santiago-1898')",
        ),
        ('based_on = "santiago-1898"\nid = "x"\n', "ruleset: a variant must name its own"),
        ('based_on = "santiago-1898"\nid = "x"\nruleset = "nope"\n', "unknown ruleset 'nope'"),
    ],
)
def test_a_bad_variant_file_is_refused_naming_the_field(
    tmp_path: Path, body: str, message: str
) -> None:
    with pytest.raises(ScenarioError, match=re.escape(message)):
        new_game(str(_variant(tmp_path, body)), 1)


def test_a_variant_for_a_ruleset_of_another_schema_is_refused(tmp_path: Path) -> None:
    path = _variant(tmp_path, 'based_on = "santiago-1898"\nid = "x"\nruleset = "dba"\n')
    with pytest.raises(ScenarioError, match="dba ruleset reads whole DBA scenarios only"):
        new_game(str(path), 1)
    with pytest.raises(ScenarioError, match="dba ruleset cannot read 'santiago-1898'"):
        load_scenario_file(path)  # the bf1900 schema's reader says the same in its words


def test_a_user_variant_plays_like_the_built_in(tmp_path: Path) -> None:
    path = _variant(
        tmp_path,
        'based_on = "cruiser-duel"\nid = "my-duel"\ntitle = "Mine"\nruleset = "bf1900-1d12"\n',
    )
    game = new_game(str(path), 4)
    assert game.state.ruleset.startswith("bf1900-1d12@")
    same = dataclasses.replace(game.state, scenario="cruiser-duel-1d12")
    assert state_hash(same) == state_hash(new_game("cruiser-duel-1d12", 4).state)


@pytest.fixture
def shelf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The built-in folder replaced by one holding the cruiser duel and whatever a test adds."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(DATA / "01-cruiser-duel.toml", folder)
    monkeypatch.setattr(scenario_index, "folder", lambda: folder)
    _forget()
    yield folder
    monkeypatch.undo()
    _forget()


def _forget() -> None:
    scenario_index.forget()
    for fn in (get_scenario, builtin_scenarios):
        fn.cache_clear()
    from battleline.rulesets.bf1900 import scenario

    scenario._builtin.cache_clear()


def test_one_broken_built_in_stops_only_its_own_games(shelf: Path) -> None:
    (shelf / "02-broken.toml").write_text(
        'id = "broken"\ntitle = "B"\nturn_limit = "many"\n', encoding="utf-8"
    )
    (shelf / "03-not-toml.toml").write_text("id = = 3\n", encoding="utf-8")
    assert new_game("cruiser-duel", 1).state.turn == 1  # the good one still plays
    with pytest.raises(ScenarioError, match=r"scenarios/02-broken.toml: turn_limit"):
        new_game("broken", 1)
    with pytest.raises(UnknownNameError):
        new_game("not-toml", 1)
    # The full check (every built-in validated) still finds both.
    with pytest.raises(ScenarioError, match=r"03-not-toml\.toml: not valid TOML"):
        builtin_scenarios()
    assert scenario_index.broken_files().keys() == {"03-not-toml.toml"}
