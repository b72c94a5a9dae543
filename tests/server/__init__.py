"""The web server tests (a package, so that its conftest does not shadow the others)."""
