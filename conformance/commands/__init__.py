"""One module per ``cfconform`` subcommand (see :mod:`conformance.cli`)."""
