"""The contest's site (issue 23): teams sign in, submit and read their own reports; the organiser runs it.

``folder.py`` knows the contest folder, ``store.py`` its SQLite state, ``contest.py`` the operations every
web route calls (each enforcing who may do what), ``web/`` the Starlette app built from one route table.
"""
