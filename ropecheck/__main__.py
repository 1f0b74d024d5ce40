"""`python -m ropecheck …` runs the `ropecheck` command."""

import sys

from .cli import main

sys.exit(main())
