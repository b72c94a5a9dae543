"""battleline: a referee for pre-dreadnought naval wargames.

The rules core lives in :mod:`battleline.engine` and :mod:`battleline.rulesets`; the command line,
web server, AI admirals and simulator are thin front ends over it.
"""

__version__ = "0.1.0"
