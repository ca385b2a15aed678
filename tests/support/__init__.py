"""Helpers the tests share (no tests here): each module is named for what it holds.

- ``sandbox``: the real test programs under tests/programs/, building them, leftovers and snapshots.
- ``field``: small deterministic Code'em team programs (honest, faulty, unbuildable) for tournaments.

Fixtures live in tests/conftest.py.
"""
