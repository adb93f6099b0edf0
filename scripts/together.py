"""Run commands side by side, as `make test` does: the last one in the foreground (its output
as it comes), each other one beside it with its output kept and printed, whole, once it ends.

    python scripts/together.py 'make lint typecheck' 'pytest one.py' -- 'pytest -n auto'

Why: the parallel test run waits on browsers, servers and DynamoDB Local for a third of its
time, and the checks (ruff, tsc, mypy) and the one-process tests fill that idle core instead
of each waiting its turn. The exit status is the first non-zero one of any command (each is
said with its wall time), so a failure anywhere fails the whole.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") != len(argv) - 2:
        print(__doc__, file=sys.stderr)
        return 2
    beside, foreground = argv[: argv.index("--")], argv[-1]
    started = time.monotonic()
    running = []
    for command in beside:
        log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (closed below)
        process = subprocess.Popen(command, shell=True, stdout=log, stderr=subprocess.STDOUT)
        running.append((command, process, log))
    print(f"beside the tests: {'; '.join(beside)} (their output follows the tests')", flush=True)
    status = subprocess.call(foreground, shell=True)
    said = [(foreground, status, time.monotonic() - started)]
    for command, process, log in running:
        code = process.wait()
        log.seek(0)
        print(f"\n==== {command} ====\n{log.read()}", end="", flush=True)
        log.close()
        said.append((command, code, time.monotonic() - started))
    print()
    for command, code, seconds in said:
        print(f"{'ok  ' if code == 0 else 'FAIL'} {seconds:6.0f} s  {command}")
    return next((code for _, code, _ in said if code != 0), 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
