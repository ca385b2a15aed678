"""``arena view``: a read-only web viewer over a run folder, live or exported as static files.

Every page is rendered from the events the tables wrote (``events.jsonl``, ``faults.jsonl``, the
tournament's SQLite file); the replay's states are computed here in Python (:mod:`arena.viewer.replay`)
and the browser only steps through them.
"""
