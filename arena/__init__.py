"""arena: a tournament server for poker-playing programs."""

__version__ = "0.1.0"
