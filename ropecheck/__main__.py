"""`python -m ropecheck …` runs the `ropecheck` command."""

import sys

from .cli import run_console_script

sys.exit(run_console_script())
