"""``python -m battleline.cli``."""

from battleline.cli import main

main()
