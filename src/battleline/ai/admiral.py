"""The AI admiral: one side's commander, playing the rules honestly from its side's view.

:class:`FleetAdmiral` implements the :class:`~battleline.ai.base.Admiral` protocol. Each phase it
is handed a :class:`~battleline.engine.view.SideView` — never the game state — and answers with
order text in the normal notations (divisional orders and fleet messages, gunnery log lines,
torpedo launches, damage-control declarations). It draws no random numbers. What it
remembers between phases comes from the views too: its own ships' moves (for legal speed
orders), where its own salvos fell (for walking the splashes, :mod:`battleline.ai.ranging`),
the signals it has made. It judges no range itself: the view shows the enemy where its side's
eye places her (the observation model of :mod:`battleline.rulesets.bf1900.observation`), as a
human side's view does.

The decisions themselves are in :mod:`battleline.ai.tactics`; how the admiral thinks is written
up in ``docs/ai.md``.
"""

from __future__ import annotations

import numpy as np

from battleline.ai.base import Admiral
from battleline.ai.consorts import consort_to_cover, stands_off
from battleline.ai.damage_control import dc_plan
from battleline.ai.gunnery import fire_plan, legal_entries, prime_targets, target_order
from battleline.ai.picture import Picture, build_picture, is_flotilla
from battleline.ai.ranging import Fall, RangeKeeper, Skill, fall_of, get_skill
from battleline.ai.scuttling import scuttles
from battleline.ai.sightings import Sightings
from battleline.ai.signals import fleet_signals
from battleline.ai.standing import (
    breaks_off,
    is_beaten,
    lame,
    objective_heading,
    outgunned,
    strikes,
)
from battleline.ai.steering import ObstacleTable, steering_lead, wake_track
from battleline.ai.tactics import (
    away_heading,
    away_side,
    centroid,
    checked_division_orders,
    clear_of_collision,
    division_of,
    drop_candidate,
    drop_side,
    flotilla_target,
    line_heading,
    pinned,
    predicted_track,
    presses_attack,
    speed_order,
    steer_clear,
    torpedoes_left,
    turn_orders,
)
from battleline.ai.torpedoes import RUN_MIN_M, attack_run, launch_plan
from battleline.engine.events import EventKind
from battleline.engine.geometry import bearing
from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.damage.declarations import DCAction, format_declarations
from battleline.rulesets.bf1900.divisions import Division
from battleline.rulesets.bf1900.movement import turn_radius_m
from battleline.rulesets.bf1900.view import SideView

#: Event data an admiral may read from its own shots: where the marker lies, whose, at whom.
#: (The measured ranges the umpire also records are never read.)
SHOT_KINDS = (EventKind.SPLASH, EventKind.HIT_ZONE)
_MOVE, _COLLISION, _HIT_ZONE = EventKind.MOVE, EventKind.COLLISION, EventKind.HIT_ZONE
_FALLS = (Fall.SHORT.value, Fall.OVER.value)
#: The shortest run a division's next move is planned for, metres.
MIN_LOOKAHEAD_M = 400.0
#: The run expected of a ship whose last move the admiral did not see (the enemy's), metres.
STRAIGHT_ON_RUN_M = 1000.0
#: The range-takers' skill when neither the caller nor the scenario names one.
DEFAULT_SKILL = "veteran"


class FleetAdmiral:
    """A side's admiral at one skill level (``green``, ``veteran`` or ``elite``).

    With ``skill=None`` the range-takers have the crew quality the scenario gives the side
    (``[[sides]] gunnery``, seen as :attr:`SideView.gunnery` on the first view), else
    :data:`DEFAULT_SKILL`; a skill given here overrides the scenario's.
    """

    def __init__(
        self,
        side: str,
        seed: np.random.SeedSequence | int,
        skill: str | Skill | None = None,
    ) -> None:
        self.side = side
        self._skill_from_view = skill is None
        if skill is None:
            skill = DEFAULT_SKILL
        self.skill = skill if isinstance(skill, Skill) else get_skill(skill)
        del seed  # it judges no range itself (the view's observation does): no dice of its own
        self.keeper = RangeKeeper(self.skill)
        self.last_moves: dict[str, float] = {}
        self.signalled: set[str] = set()
        self.bumped: dict[str, tuple[int, str]] = {}
        self._seen_shots: set[tuple[int, str, str]] = set()
        #: Each enemy ship's last two sightings at the command phase.
        self.sightings = Sightings()

    # -- the protocol ---------------------------------------------------------------------

    def orders(self, view: SideView, phase: str) -> list[str]:
        """Order lines for ``phase``, from ``view`` alone."""
        if not isinstance(view, SideView):
            raise TypeError(f"an admiral is handed a SideView, not {type(view).__name__}")
        if view.side != self.side:
            raise ValueError(f"the {self.side} admiral was handed {view.side}'s view")
        if self._skill_from_view:
            # The side's crews, as the scenario describes them (read once, at the first view).
            self._skill_from_view = False
            if view.gunnery is not None:
                self.skill = get_skill(view.gunnery)
                self.keeper.skill = self.skill
        picture = build_picture(view)
        self.remember(picture)
        planners = {
            "command": self.command,
            "gunnery": self.gunnery,
            "torpedo": self.torpedoes,
            "damage": self.damage_control,
        }
        planner = planners.get(phase)
        if planner is None:
            return []
        try:
            return planner(picture)
        except BattlelineError:
            return []  # the simplest fallback: no orders this phase

    # -- memory ---------------------------------------------------------------------------

    def remember(self, picture: Picture) -> None:
        """Take in the view's new events: own ships' moves and the fall of own salvos.

        (The event kinds are module constants: looking a member up on the enum class for each of
        the thousands of events a view carries costs more than the rest of the loop.)
        """
        for event in picture.view.events:
            kind = event.kind
            if kind is _MOVE and event.ship in picture.own:
                if "distance_m" in event.data:  # not the "turns only ..." note (BF6-CMD-12)
                    self.last_moves[event.ship] = float(event.data["distance_m"])
            elif kind is _COLLISION:
                pair = (str(event.ship), str(event.data.get("other")))
                for ship, other in (pair, pair[::-1]):
                    if ship in picture.own:
                        self.bumped[ship] = (event.turn, other)
            elif kind in SHOT_KINDS:
                firer, target = str(event.data.get("firer")), str(event.data.get("target"))
                key = (event.turn, firer, target)
                if key in self._seen_shots or firer not in picture.own:
                    continue
                if target not in picture.funnels:
                    continue
                self._seen_shots.add(key)
                if kind is _HIT_ZONE:
                    fall = Fall.HIT
                elif event.data.get("fall") in _FALLS:
                    fall = Fall(event.data["fall"])  # short or over, as seen from the firer
                else:
                    marker = (float(event.data["x"]), float(event.data["y"]))
                    fall = fall_of(marker, picture.funnels[firer], picture.funnels[target])
                self.keeper.observe(firer, target, fall, picture.seen_m(firer, target))

    # -- command --------------------------------------------------------------------------

    def command(self, picture: Picture) -> list[str]:
        """Divisional orders and fleet messages (BF6-CMD-01..32)."""
        self.sightings.note(picture)
        targets = picture.targets()
        big = [c.name for c in targets if not is_flotilla(c.type)]
        everyone = [c.name for c in targets]
        # A side with an objective breaks off for it; one without turns away when beaten or
        # badly outgunned.
        breaking = breaks_off(picture)
        beaten = not breaking and (is_beaten(picture) or outgunned(picture))
        tokens: dict[str, list[str]] = {}
        divisions: dict[str, Division] = {}
        attacking = False
        fleet_standing_by = False
        flotillas_armed = False
        fleet_div = ""
        others = ObstacleTable(picture.poses, self.last_moves, STRAIGHT_ON_RUN_M)
        for name, info in picture.view.divisions.items():
            division = division_of(picture, name)
            alive = [s for s in division.ships if s in picture.own and picture.own[s].log.in_battle]
            if not alive:
                continue
            divisions[name] = division
            if info["fleet_flagship"] and not fleet_div:
                fleet_div = name
            lead = steering_lead(picture, division, alive)
            here = picture.poses[lead]
            here_log = picture.own[lead].log
            flotilla = all(is_flotilla(picture.own[s].type) for s in alive)
            if flotilla and torpedoes_left(picture, alive):
                flotillas_armed = True
            threat = centroid(picture.funnels[n] for n in (big or everyone))
            # Standing by a consort fallen behind, the division neither breaks off nor turns
            # away without her (``stand_by_until_turn``, :mod:`battleline.ai.consorts`).
            consort = consort_to_cover(picture, alive) if (breaking or beaten) else None
            standing_by = consort is not None
            fleet_standing_by |= standing_by and bool(info["fleet_flagship"])
            if strikes(picture, alive, big, beaten or is_beaten(picture)):
                tokens[name] = ["SIG SURRENDER"]
                continue
            run = self.last_moves.get(lead, picture.scale.knots_to_m_per_turn(here_log.speed_knots))
            radius = turn_radius_m(here_log, picture.scale)
            # A ship stopped last turn gathers way again (at least its lowest box, BF6-MOV-03).
            ahead = max(run, MIN_LOOKAHEAD_M)
            heading: float | None = None
            quarry = flotilla_target(picture, lead) if flotilla else None
            attacking_here = quarry is not None and presses_attack(picture, alive, quarry)
            if attacking_here and quarry is not None:
                # Torpedo craft press their attack while they have torpedoes, whatever the
                # state of the fleet: their whole worth is in the tubes.
                runs = {
                    s: max(
                        MIN_LOOKAHEAD_M,
                        self.last_moves.get(
                            s, picture.scale.knots_to_m_per_turn(picture.own[s].log.speed_knots)
                        ),
                    )
                    for s in alive
                }
                heading = attack_run(
                    picture,
                    alive,
                    quarry,
                    runs,
                    radius,
                    self.sightings.expected_run(picture, quarry),
                )
                attacking = True
            elif consort is not None and stands_off(picture, alive, consort):
                there = picture.poses[consort]
                heading = bearing(here.x, here.y, there.x, there.y)
            elif breaking and not standing_by:
                heading = objective_heading(picture, here)
            elif threat is None:
                heading = None
            elif (
                (beaten and not standing_by)
                or flotilla
                or all(lame(picture.own[s].log) for s in alive)
            ):
                heading = away_heading(here, threat)
            running = (beaten or breaking) and not standing_by
            if threat is not None and heading is None and not (running or flotilla):
                closest = min(big or everyone, key=lambda e: picture.seen_m(lead, e))
                heading, _ = line_heading(
                    picture,
                    lead,
                    big or everyone,
                    run,
                    self.sightings.seen_run(picture, closest),
                    alive,
                )
            clear_for = ahead
            if attacking_here and quarry is not None:
                # A boat running in stops short of the launch point, so she keeps clear of the
                # ships she would pass on the way there, not of the target she turns away from.
                near = min(picture.seen_m(s, quarry) for s in alive)
                clear_for = min(ahead, max(ahead * 0.6, near - RUN_MIN_M))
            coast = picture.coast
            if heading is None and len(coast):
                heading = here.heading  # holding on, but not onto the land
            if heading is not None:
                # A battle line boxed in by ships on every heading takes the way that keeps
                # it farthest from them, not into the thick of them; a flotilla keeps its run.
                heading = steer_clear(
                    picture,
                    alive,
                    heading,
                    clear_for,
                    others.around(alive),
                    radius,
                    boxed_in=not flotilla,
                )
            # After a collision inside the line, hold course so the ships draw apart along
            # their wake; after one with any other ship, turn together, each ship for itself,
            # rather than following a stopped leader into the pile (BF6-CMD-08).
            bumps = [
                other
                for s in alive
                for turn, other in [self.bumped.get(s, (-1, ""))]
                if turn == picture.turn - 1
            ]
            outside = any(o not in alive for o in bumps)
            pairs = self._bumped_pairs(picture, alive)
            if pinned(picture, pairs, self.last_moves):
                # Jammed against a ship that is steaming away from her: any way she makes runs
                # into it again, so she stops this move and lets it draw clear (BF6-CMD-13).
                tokens[name] = ["STOP"]
                for s in alive:
                    others.plan(s, [])
                continue
            escape = clear_of_collision(picture, pairs, heading)
            if escape is not None:
                # Steer clear of the ship she struck: turn until it lies abaft the beam, so
                # that the two draw apart instead of pressing on nose to tail.
                heading, outside = escape, True
            elif bumps and not outside:
                heading = None
            mine = turn_orders(division, here.heading, heading, line=not (flotilla or outside))
            self._plan(picture, others, alive, mine, heading, ahead, radius)
            # Steering clear of a ship she struck comes first: a drop-out holds the line's
            # course (BF6-CMD-17), which would keep it pressing into her.
            drop = drop_candidate(picture, division) if escape is None else ""
            if drop:
                side = drop_side(picture, division, drop, away_side(here, threat))
                # The line holds its course while the lame ship turns out of it (BF6-CMD-17);
                # torpedo craft on their run keep turning for the launch point.
                mine = [f'DROP "{drop}" {side}', *(mine if attacking_here else [])]
            # The speed must suit every ship listed, the one dropping out included: orders are
            # checked on submission before the drop-out is made (BF6-MOV-01).
            tokens[name] = [*speed_order(picture, division, self.last_moves, True), *mine]
        if not fleet_div and divisions:
            fleet_div = next(iter(divisions))
        if fleet_div and tokens.get(fleet_div) != ["SIG SURRENDER"]:
            # No fleet turn away while torpedo craft are still running in.
            signals = fleet_signals(
                picture,
                self.signalled,
                big or everyone,
                beaten and not (attacking or fleet_standing_by),
                attacking,
                flotillas_armed,
            )
            if any(s.startswith("SIG TURN") for s in signals):
                # The fleet turn replaces every division's turn this move (EX-BF6-16).
                for name in tokens:
                    tokens[name] = [t for t in tokens[name] if not t.startswith(("TS", "TT"))]
            tokens[fleet_div] = [*signals, *tokens.get(fleet_div, [])]
        lines = []
        for name, mine in tokens.items():
            checked = checked_division_orders(picture, divisions[name], mine, self.last_moves)
            if checked:
                lines.append(f"{name}: {' '.join(checked)}")
        return lines

    @staticmethod
    def _plan(
        picture: Picture,
        others: ObstacleTable,
        alive: list[str],
        orders: list[str],
        heading: float | None,
        ahead: float,
        radius: float,
    ) -> None:
        """Tell the divisions planned after this one where its ships will run: each turning at
        once onto the new course (a turn together, or no turn), or, in a turn in succession,
        each following the leader's wake to where the leader turned (BF6-CMD-05)."""
        lead = alive[0]
        course = picture.poses[lead].heading if heading is None or not orders else heading
        lead_track = predicted_track(picture.poses[lead], course, ahead, radius)
        succession = any(t.startswith("TS") for t in orders)
        for s in alive:
            pose = picture.poses[s]
            if s == lead:
                track = lead_track
            elif succession:
                track = wake_track(pose, picture.poses[lead], lead_track, ahead)
            else:
                track = predicted_track(pose, course, ahead, radius)
            others.plan(s, track)

    def _bumped_pairs(self, picture: Picture, alive: list[str]) -> list[tuple[str, str]]:
        """(own ship, ship she struck) for this division's collisions of last turn that turning
        can clear: with a ship of another division, or with one of its own that is stopped.
        (Two ships of one line under way part by holding course: the one ahead draws away.)"""
        return [
            (s, other)
            for s in alive
            for turn, other in [self.bumped.get(s, (-1, ""))]
            if turn == picture.turn - 1
            and other in picture.poses
            and (other not in alive or picture.own[other].log.speed_knots <= 0.0)
        ]

    # -- gunnery --------------------------------------------------------------------------

    def gunnery(self, picture: Picture) -> list[str]:
        """The gunnery log: each division on one target, estimates by eye (BF6-GUN-02)."""
        turn = picture.turn

        def estimate(firer: str, target: str, seen: float) -> float:
            return self.keeper.estimate(firer, target, seen, turn, picture.scale.bracket_m)

        prime_targets(picture)  # every sight line the plan will ask for, in one query
        entries = []
        for name in picture.view.divisions:
            division = division_of(picture, name)
            alive = [s for s in division.ships if s in picture.own and picture.own[s].log.in_battle]
            if not alive:
                continue
            spotter = division.flagship if division.flagship in alive else alive[0]
            order = target_order(picture, spotter)
            if not all(is_flotilla(picture.own[s].type) for s in alive):
                # A battle division concentrates on the enemy's big ships while it has one in
                # sight; torpedo craft are left to each ship's light guns.
                order = [t for t in order if not is_flotilla(picture.enemy[t].type)] or order
            preferred = order[0] if order else None
            for ship in alive:
                entries += fire_plan(picture, ship, preferred, estimate)
        # A sinking ship fights on while her crews stand by the guns (BF6-SINK-04).
        for own in picture.own.values():
            log = own.log
            if log.sinking is not None and not log.sinking.guns_abandoned and not log.surrendered:
                entries += fire_plan(picture, own.name, None, estimate)
        return [e.notation() for e in legal_entries(picture, entries)]

    # -- torpedoes ------------------------------------------------------------------------

    def torpedoes(self, picture: Picture) -> list[str]:
        """Launches at targets that look within reach (BF6-TORP-02..10): the distance as the
        view shows it, already the side's judgement (the observation model)."""

        def eye(seen: float) -> float:
            return seen

        return [str(launch) for launch in launch_plan(picture, eye)]

    # -- damage control -------------------------------------------------------------------

    def damage_control(self, picture: Picture) -> list[str]:
        """Each damaged ship's declarations by priority within its DC dice (BF6-DC-01..04); a
        ship that can be neither saved nor fought on is scuttled instead (BF6-CF-06,
        :func:`~battleline.ai.scuttling.scuttles`)."""
        lines = []
        for ship in picture.able():
            if scuttles(picture, ship.name):
                lines.append(f"{ship.name}: {DCAction.SCUTTLE.value}")
                continue
            decls = dc_plan(ship.log)
            if decls:
                lines.append(f"{ship.name}: {format_declarations(decls)}")
        return lines


def default_admiral(
    side: str, seed: np.random.SeedSequence | int, skill: str | None = None
) -> Admiral:
    """The admiral the demo and the simulator use: a :class:`FleetAdmiral` of ``skill``, or of
    the side's scenario gunnery (else veteran) when ``skill`` is ``None``."""
    return FleetAdmiral(side, seed, skill)


__all__ = ["DEFAULT_SKILL", "SHOT_KINDS", "FleetAdmiral", "default_admiral"]
