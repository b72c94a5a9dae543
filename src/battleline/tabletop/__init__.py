"""Tabletop-assist mode: players move real models and measure their own ranges; battleline keeps
every ship log and runs the Damage Phase from the hits the players report.

:mod:`.hits_notation` reads the reported hits, :mod:`.session` stores the game between turns. The
rules all stay in :mod:`battleline.rulesets.bf1900`.
"""
