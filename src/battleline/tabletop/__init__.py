"""Tabletop-assist mode: players move real models and measure their own ranges; battleline keeps
every ship log, checks each reported hit and torpedo launch against the firing ship's log, and
runs the Damage Phase from them.

:mod:`.hits_notation` reads the reported hits, :mod:`.checks` holds them against what the firer
could have done this turn, :mod:`.session` stores the game between turns, :mod:`.dice` takes the
players' own rolls and :mod:`.undo` takes commands back byte for byte. The rules all stay in
:mod:`battleline.rulesets.bf1900`.
"""
