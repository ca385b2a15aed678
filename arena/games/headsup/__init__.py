"""Heads-up hold'em against the Monte-Carlo opponent: judge, streams, logs, scoring."""
