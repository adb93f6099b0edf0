"""`python -m handlers.cli ...`: the `court` command, for a checkout without the console script."""

import sys

from handlers.cli.court import main

sys.exit(main())
