"""Helpers shared by tests (no tests here)."""
