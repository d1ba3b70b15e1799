"""The ``cfconform`` command line: :mod:`.main` (the parser, the exit codes) and one module per
subcommand in :mod:`.commands` (cli/README.md)."""
