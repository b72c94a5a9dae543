"""Battlefleet 1900, the older 1D12 edition (v2.0): the ruleset "bf1900-1d12" (docs/editions.md)."""
