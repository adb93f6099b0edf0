"""The `court` command (pyproject.toml's console script, or `python -m handlers.cli`).
`court.py` parses the command line and runs each subcommand (deal, replay, verify, record,
simulate, play, solve, serve); `terminal.py` says moves and effects as short text for
`court play`; `record_io.py` reads game records from a file, standard input or a URL for
`court verify`, `court record` and `court replay --record`. `court serve` hands over to
handlers/serve/ once its options are checked."""
