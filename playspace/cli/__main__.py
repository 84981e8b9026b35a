"""``python -m playspace.cli``: the ``playspace`` command."""

import sys

from playspace.cli import main

sys.exit(main())
