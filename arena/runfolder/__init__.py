"""A run folder's layout and the one reader of its recorded deals (``layout.py``, ``reader.py``)."""
