"""Game adapters beyond Code'em: each sub-package is one game (its judge, streams and files)."""
