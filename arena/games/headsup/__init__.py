"""Heads-up hold'em against the Monte-Carlo opponent (seeds 001 and 003): judge, streams, logs, scoring."""
