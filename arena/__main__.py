"""Allow ``python -m arena``."""

import sys

from arena.cli import main

sys.exit(main())
