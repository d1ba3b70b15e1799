"""One module per ``cfconform`` subcommand (see :mod:`cfconform.cli.main`)."""
