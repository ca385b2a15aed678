"""What runs inside the box: the helper, the runner, the fork server and the modules they load from beside
themselves (standard library only: a bare interpreter runs them, beside team code, so they cannot import
arena). The arena imports ``prctl``, ``seccomp``, ``clock`` and ``record`` from here too."""
