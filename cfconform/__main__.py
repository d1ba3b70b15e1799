"""``python -m cfconform``: the ``cfconform`` command line."""

from cfconform.cli.main import main

raise SystemExit(main())
