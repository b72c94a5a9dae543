"""Sub-commands of the ``battleline`` CLI; each module exposes ``register(app)``."""
