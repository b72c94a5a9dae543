"""Damn Battleships Again (DBSA) with Peter Hunt's amendments (seed 004, rule IDs DBA-*).

The base rules are not in the seeds (REF-DBA-01), so this package carries a small reconstructed
core (``data/core.toml``, :mod:`.tables`) and a reconstructed Annex A (``data/annex_a.toml``,
:mod:`.factors`); both are documented in ``docs/rules-gaps/dba.md``. The optional rules are the
named toggles of :mod:`.options`.
"""
