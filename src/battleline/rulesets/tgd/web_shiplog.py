"""The web ship log under the tgd ruleset: not laid out yet.

A tgd ship's damage is marked on her TGD card (:mod:`.cardlog`), not on the bf1900 log the
ruleset borrows its set-up from, so bf1900's ship-log page (which the ruleset would otherwise
borrow through ``PARTS_FROM``) would show boxes the game never marks. Until the card has its own
layout, the server answers the ship-log routes of a tgd game with a 404 giving :data:`MISSING`;
the side's cards are in its view (``cards``).
"""

from __future__ import annotations

MISSING = (
    "the tgd ruleset marks damage on ship cards, which have no ship-log page yet; "
    "your cards are in your view (GET /view, 'cards')"
)
