"""The built Lambda artifact run as AWS runs it, on this machine: AWS's runtime interface client
(`awslambdaric`, pinned with the runtime's boto3 in tools/lambda-runtime-requirements.txt) in a
clean Python 3.11 that has only those packages and the unpacked artifact on its path, fetching
its invocations from a local Lambda Runtime API, and, when asked, held to the CPU share of a
memory size.

The Runtime API here is the service's side of the protocol awslambdaric speaks (GET
`/2018-06-01/runtime/invocation/next`, POST `…/{id}/response` or `…/{id}/error`, POST
`/runtime/init/error`): what Lambda itself does for the function, the part this project does
not ship. Nothing of the function is replaced: its process imports the artifact's code and
answers through the client's own loop.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.stores import FAKE_CREDENTIALS, ROOT, _free_port

RUNTIME_LOCK = ROOT / "tools" / "lambda-runtime-requirements.txt"
PREFIX = "/2018-06-01/runtime"
ONE_VCPU_MB = 1769
"""Lambda gives a function CPU in proportion to its memory: one vCPU at 1,769 MB."""
CPU_CGROUP = Path("/sys/fs/cgroup/cpu")  # cgroup v1's CPU controller, where it is writable


def clean_python() -> str:
    """A Python 3.11 outside the project's virtualenv (Lambda's runtime is 3.11)."""
    for candidate in ("/usr/bin/python3.11", sys._base_executable):  # type: ignore[attr-defined]
        if Path(candidate).exists() and candidate != sys.executable:
            return candidate
    raise RuntimeError("no Python 3.11 outside the virtualenv: install python3.11")


def runtime_packages() -> Path:
    """The runtime's packages (awslambdaric, boto3 and what they need) installed once per lock
    into build/lambda-runtime/<lock hash>, from the hash-pinned lock and wheels only."""
    digest = hashlib.sha256(RUNTIME_LOCK.read_bytes()).hexdigest()[:16]
    target = ROOT / "build" / "lambda-runtime" / digest
    if (target / ".complete").exists():
        return target
    partial = target.with_name(f"{digest}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--require-hashes", "--only-binary=:all:", "--no-deps", "--target", str(partial),
         "-r", str(RUNTIME_LOCK)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    (partial / ".complete").touch()
    with suppress(OSError):  # another process may have finished first: theirs is the same
        partial.rename(target)
    shutil.rmtree(partial, ignore_errors=True)
    return target


def unpack(artifact: Path, into: Path) -> Path:
    """The artifact unpacked as Lambda unpacks it, into LAMBDA_TASK_ROOT."""
    with zipfile.ZipFile(artifact) as archive:
        archive.extractall(into)
    return into


@dataclass
class Invocation:
    event: Any
    request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: Any = None


class RuntimeApi:
    """One function's Runtime API: `invoke` queues an event and waits for the function's
    answer, as Lambda's synchronous invoke does."""

    def __init__(self, function_name: str) -> None:
        self.function_name = function_name
        self.pending: queue.Queue[Invocation] = queue.Queue()
        self.running: dict[str, Invocation] = {}
        self.init_error: Any = None
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _reply(
                self, status: int, body: bytes = b"", headers: dict[str, str] | None = None
            ) -> None:
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                if self.path != f"{PREFIX}/invocation/next":
                    return self._reply(404)
                invocation = outer.pending.get()
                outer.running[invocation.request_id] = invocation
                deadline = int((time.time() + 29) * 1000)
                trace = f"Root=1-{int(time.time()):08x}-{uuid.uuid4().hex[:24]};Sampled=0"
                self._reply(200, json.dumps(invocation.event).encode(), {
                    "Content-Type": "application/json",
                    "Lambda-Runtime-Aws-Request-Id": invocation.request_id,
                    "Lambda-Runtime-Deadline-Ms": str(deadline),
                    "Lambda-Runtime-Invoked-Function-Arn":
                        f"arn:aws:lambda:us-east-1:000000000000:function:{outer.function_name}",
                    "Lambda-Runtime-Trace-Id": trace,
                })  # fmt: skip

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path == f"{PREFIX}/init/error":
                    outer.init_error = json.loads(body or b"null")
                    return self._reply(202)
                parts = self.path[len(f"{PREFIX}/invocation/") :].split("/")
                invocation = outer.running.pop(parts[0], None)
                if invocation is None or len(parts) != 2 or parts[1] not in ("response", "error"):
                    return self._reply(404)
                if parts[1] == "response":
                    invocation.result = json.loads(body)
                else:
                    invocation.error = json.loads(body or b"null")
                invocation.done.set()
                self._reply(202)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", _free_port()), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.server.server_address[1]}"

    def invoke(self, event: Any, timeout: float = 60) -> Any:
        """The function's answer to `event`; an error it reports (or an init error) raises."""
        invocation = Invocation(event)
        self.pending.put(invocation)
        started = time.monotonic()
        while not invocation.done.wait(0.05):
            if self.init_error is not None:
                raise RuntimeError(f"{self.function_name} failed to start: {self.init_error}")
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"{self.function_name} gave no answer in {timeout} s")
        if invocation.error is not None:
            raise RuntimeError(f"{self.function_name} failed: {invocation.error}")
        return invocation.result

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class CpuShare:
    """A process held to `share` of one CPU, as Lambda holds a function to its memory's share:
    by the kernel's CFS quota (a cgroup of its own) where this user may make one, else by
    stopping and continuing it on a 20 ms cycle."""

    def __init__(self, pid: int, share: float) -> None:
        self.pid, self.share = pid, share
        self.group: Path | None = None
        self.cycling = threading.Event()
        try:
            group = CPU_CGROUP / f"royal-court-{pid}"
            group.mkdir()
            (group / "cpu.cfs_period_us").write_text("100000")
            (group / "cpu.cfs_quota_us").write_text(str(int(100000 * share)))
            (group / "cgroup.procs").write_text(str(pid))
            self.group = group
        except OSError:
            shutil.rmtree(CPU_CGROUP / f"royal-court-{pid}", ignore_errors=True)
            threading.Thread(target=self._cycle, daemon=True).start()

    @property
    def how(self) -> str:
        return "cfs-quota" if self.group else "stop-continue"

    def _cycle(self) -> None:
        period = 0.02
        while not self.cycling.is_set():
            time.sleep(period * self.share)
            with suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGSTOP)
            time.sleep(period * (1 - self.share))
            with suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGCONT)

    def release(self) -> None:
        self.cycling.set()
        with suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGCONT)
        if self.group is not None:
            with suppress(OSError):
                (CPU_CGROUP / "cgroup.procs").write_text(str(self.pid))
            with suppress(OSError):
                self.group.rmdir()


@dataclass
class Function:
    """A running function: its Runtime API and its process."""

    name: str
    api: RuntimeApi
    process: subprocess.Popen[bytes]
    log: Path
    cpu: CpuShare | None

    def invoke(self, event: Any, timeout: float = 60) -> Any:
        return self.api.invoke(event, timeout)

    def logged(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def lambda_function(
    name: str, task: Path, handler: str, env: dict[str, str], *, memory_mb: int, log_dir: Path
) -> Iterator[Function]:
    """`handler` of the unpacked artifact in `task`, run by awslambdaric in a clean Python (no
    site-packages: `-S`; only the task and the runtime's packages on its path), with Lambda's
    environment (the test session's AWS credentials: DynamoDB Local keeps tables per key),
    held to the CPU share of `memory_mb` when that is under one vCPU."""
    api = RuntimeApi(name)
    runtime = runtime_packages()
    environment = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": f"{task}:{runtime}",
        "LAMBDA_TASK_ROOT": str(task),
        "LAMBDA_RUNTIME_DIR": str(runtime),
        "AWS_LAMBDA_RUNTIME_API": api.address,
        "AWS_LAMBDA_FUNCTION_NAME": name,
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(memory_mb),
        "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
        "AWS_EXECUTION_ENV": "AWS_Lambda_python3.11",
        "_HANDLER": handler,
        "AWS_REGION": "us-east-1",
        "AWS_DEFAULT_REGION": "us-east-1",
        **FAKE_CREDENTIALS,
        "TZ": ":UTC",
        **env,
    }
    log = log_dir / f"{name}.log"
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [clean_python(), "-S", "-m", "awslambdaric", handler],
            cwd=task, env=environment, stdout=sink, stderr=subprocess.STDOUT,
        )  # fmt: skip
    share = memory_mb / ONE_VCPU_MB
    cpu = CpuShare(process.pid, share) if share < 1 else None
    try:
        yield Function(name, api, process, log, cpu)
    finally:
        if cpu is not None:
            cpu.release()
        process.kill()
        process.wait(timeout=10)
        api.stop()
