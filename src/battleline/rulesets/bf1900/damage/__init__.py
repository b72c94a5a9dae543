"""The Battlefleet 1900 (1D6) Damage Phase (BF6-DMG-02): Step One fire and flooding, Step Two hits,
Step Three damage control, Step Four sinking and listing.

``codes`` is the one mapping from damage code to effect, ``locations`` places hits on the ship,
``declarations`` is the damage-control order model, ``step1``..``step4`` are the steps and ``phase``
runs them in order.
"""
