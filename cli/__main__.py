"""``python -m cfconform.cli``: the ``cfconform`` command line."""

from .main import main

raise SystemExit(main())
