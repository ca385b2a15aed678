"""The contest's web app: the JSON API (``api.py``) and the pages (``pages.py``), built from their rows."""
