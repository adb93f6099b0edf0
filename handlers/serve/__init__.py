"""`court serve`: the API on a machine of one's own. `server.py` runs the `http` app under
waitress, in one process or in forked workers sharing one socket, hardened against hostile
clients; `stream_hub.py` keeps each worker's Server-Sent Event streams off waitress's threads;
`background.py` runs the periodic steps (the day's deals chosen ahead, expired games deleted)
in a process of their own, at a lower priority; `notices.py` tells each worker of the moves
the others make, so that its streams hear of them at once. The command line is parsed by the CLI
(`cmd_serve` in handlers/cli/court.py), which starts this; nothing here is imported on AWS."""
