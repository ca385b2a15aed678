"""Helpers the tests share (no tests here): each module is named for what it holds.

- ``sandbox``: the real test programs under tests/programs/, building them, leftovers and snapshots.
- ``field``: small deterministic Code'em team programs (honest, faulty, unbuildable) for tournaments.
- ``evaluator``: hands given as summed card keys (a reference for the batch path and the rollouts).
- ``tools``: the scripts of tools/, loaded by path.
- ``hostile``: an attacker at a real Code'em table beside honest programs; canary and leftover checks.
- ``viewer``: ``arena view`` served from a thread for browser tests; Chromium and its checked pages;
  screenshots.

Fixtures live in tests/conftest.py (among them ``browser`` and ``page``, for every browser test).
"""
