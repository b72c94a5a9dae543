"""The fleet admiral's signals: engage, torpedo attack, recall, and the fleet turn away
(BF6-CMD-25..31), each made once a game (``docs/ai.md``, "Command: movement, formation, fleet
messages": fleet messages, withdrawal)."""

from __future__ import annotations

from battleline.ai.picture import Picture, is_flotilla
from battleline.ai.tactics import away_side, centroid
from battleline.engine.geometry import signed_angle


def fleet_signals(
    picture: Picture,
    signalled: set[str],
    enemies: list[str],
    beaten: bool,
    attacking: bool,
    armed: bool,
) -> list[str]:
    """The fleet messages this turn (BF6-CMD-25..31), each made once a game: ``signalled``
    holds the words already made and gains the ones made now."""
    out: list[str] = []

    def once(word: str, text: str) -> None:
        if word not in signalled:
            signalled.add(word)
            out.append(text)

    if not enemies:
        return out
    if beaten:
        flag = next(
            (
                s
                for n, info in picture.view.divisions.items()
                if info["fleet_flagship"]
                for s in [info["flagship"]]
                if s in picture.own and picture.own[s].log.in_battle
            ),
            None,
        )
        threat = centroid(picture.funnels[n] for n in enemies)
        # Torpedo craft alone make no fleet turn: each flotilla turns away by itself, clear
        # of the ships around it, instead of every boat wheeling blind at one signal.
        boats = all(is_flotilla(picture.own[s].type) for s in picture.own)
        if flag is not None and threat is not None and not boats and "TURN" not in signalled:
            # Turn away together: 16 points from an enemy ahead, 8 from one abeam
            # (BF6-CMD-27/28); an enemy already astern needs no signal to run from.
            here = picture.poses[flag]
            off = abs(signed_angle(here.bearing_to(*threat)))
            side = away_side(here, threat)
            if off < 60.0:
                once("TURN", f"SIG TURN16 {side}")
            elif off <= 135.0:
                once("TURN", f"SIG TURN8 {side}")
        return out
    once("ENGAGE", "SIG ENGAGE")
    if attacking:
        once("TORPEDO", "SIG TORPEDO")
    elif "TORPEDO" in signalled and not armed:
        once("RECALL", "SIG RECALL")
    return out
