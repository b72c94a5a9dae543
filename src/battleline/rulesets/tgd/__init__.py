"""The TGD Draft Hit and Damage Rules (seed 003): ship cards, arcs, fire and damage by location.

A standalone d6 system: guns have a strength (range = strength × 10), hits roll one of six
locations, penetrate when the range-modified strength beats the location's armour, and wreck guns,
superstructure and hull boxes (TGD-*). Modules: :mod:`.charts` (to-hit, penetration, save vs
sinking), :mod:`.card` (ship cards and battery notation), :mod:`.arcs` (arcs of fire, rake),
:mod:`.cardlog` (a card's damage state), :mod:`.fire` (one fire action), :mod:`.damage` (hit
location, armour, damage and referred hits), :mod:`.session` (a tabletop referee session),
:mod:`.derive` (cards from Battlefleet 1900 ship values) and :mod:`.ruleset` (the "tgd" ruleset).
"""
