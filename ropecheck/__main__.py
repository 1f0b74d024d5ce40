"""`python -m ropecheck …` runs the `ropecheck` command."""

import sys

from .numeric._cli import main

sys.exit(main())
