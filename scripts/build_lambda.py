"""Build the Lambda artifact that serverless.yml deploys: build/lambda/function.zip.

It holds the project's code (domain/, handlers/, infra/, openapi.yaml), the web client as
served (web/: the page, style and bundle) and the runtime dependencies as Linux x86-64 CPython
3.11 wheels (boto3 is left to the Lambda runtime, waitress to `court serve`). One
self-contained zip keeps `serverless package` offline: a Serverless-managed layer would query
CloudFormation even to package.

Reproducible: the dependencies are installed from scripts/lambda-requirements.txt, exact
versions with their wheels' hashes (`--lock` writes it again from pyproject.toml's ranges),
and the zip's entries are in a fixed order with fixed modes (0644 files, 0755 directories)
and one fixed time (SOURCE_DATE_EPOCH, else 1980-01-01), so that two builds of one commit
are the same bytes whatever the builder's umask or clock, and a runtime that does not run
as the files' owner (Lambda's does not) can read every file.

Usage: python scripts/build_lambda.py [--out build/lambda] [--lock]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("domain", "handlers", "infra")
WEB = "web"  # the web client: package data only, served from beside `handlers`
NOT_IN_LAMBDA = ("boto3", "waitress", "flask-swagger-ui")  # /docs is not served on Lambda
LOCK = ROOT / "scripts" / "lambda-requirements.txt"
PLATFORM = ["--platform", "manylinux2014_x86_64", "--implementation", "cp"]
PLATFORM += ["--python-version", "3.11", "--only-binary=:all:"]
TASK_ROOT = "/var/task"  # where Lambda unpacks the zip: the source paths bytecode names
FILE_MODE, DIR_MODE = 0o644, 0o755


def web_client_files(source: Path = ROOT) -> list[Path]:
    """The web client as it is served: the package data pyproject.toml declares for `web/`
    (the page, its style and the built bundle; not the TypeScript it is built from)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        patterns: list[str] = tomllib.load(f)["tool"]["setuptools"]["package-data"][WEB]
    return sorted({p for pattern in patterns for p in (source / WEB).glob(pattern)})


def code_files(source: Path = ROOT) -> list[Path]:
    files = [source / "openapi.yaml", *web_client_files(source)]
    for package in CODE:
        files += [
            p
            for p in (source / package).rglob("*.py")
            if "__pycache__" not in p.parts and p.name != "openapi.py"  # openapi.py: dev only
        ]
    return files


def runtime_requirements() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        deps: list[str] = tomllib.load(f)["project"]["dependencies"]
    return [d for d in deps if not d.startswith(NOT_IN_LAMBDA)]


def pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", *args, "--quiet", "--disable-pip-version-check"]
    subprocess.run(command, check=True)


def lock() -> Path:
    """Write the lock file: what pyproject.toml's ranges resolve to today for the Lambda
    platform, each wheel pinned by version and hash. Review and commit the diff."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        pip("install", "--dry-run", "--ignore-installed", "--report", str(report), *PLATFORM,
            *runtime_requirements())  # fmt: skip
        installs = json.loads(report.read_text())["install"]
    lines = [
        "# The Lambda artifact's dependencies, exact: scripts/build_lambda.py installs these",
        "# wheels and no others (--require-hashes). Written by `scripts/build_lambda.py --lock`",
        "# from pyproject.toml's ranges; Linux x86-64, CPython 3.11.",
    ]
    for item in sorted(installs, key=lambda i: str(i["metadata"]["name"]).lower()):
        name, version = str(item["metadata"]["name"]).lower(), item["metadata"]["version"]
        digest = item["download_info"]["archive_info"]["hashes"]["sha256"]
        lines.append(f"{name}=={version} --hash=sha256:{digest}")
    LOCK.write_text("\n".join(lines) + "\n")
    return LOCK


def install_dependencies(target: Path, lock_file: Path = LOCK) -> None:
    """The locked wheels only: a version or a file that differs from the lock fails."""
    pip("install", "--target", str(target), *PLATFORM, "--no-deps", "--require-hashes",
        "-r", str(lock_file))  # fmt: skip


def build_time() -> tuple[int, int, int, int, int, int]:
    """Every entry's time: SOURCE_DATE_EPOCH (the reproducible-builds convention) if set,
    else 1980-01-01, the earliest a zip can say."""
    epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "0")), 315_532_800)
    return time.gmtime(epoch)[:6]


def entry(name: str, directory: bool, when: tuple[int, int, int, int, int, int]) -> zipfile.ZipInfo:
    """A zip entry with a fixed time and mode (Unix), not the builder's."""
    info = zipfile.ZipInfo(name + "/" if directory else name, date_time=when)
    info.create_system = 3  # Unix: the mode below is what unzip and Lambda apply
    mode = (0o040000 | DIR_MODE) if directory else (0o100000 | FILE_MODE)
    info.external_attr = (mode << 16) | (0x10 if directory else 0)  # 0x10: MS-DOS directory
    info.compress_type = zipfile.ZIP_STORED if directory else zipfile.ZIP_DEFLATED
    return info


def build(out: Path, source: Path = ROOT) -> Path:
    """The zip: dependencies and code, each module with its bytecode beside it, compiled with
    unchecked hashes (a zip's timestamps mean nothing, and Lambda's disk is read-only, so
    bytecode checked against timestamps would be compiled again at every cold start).
    `source`: the checkout to build (e.g. a `git archive` of a commit), its lock included."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / "function.zip"
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        install_dependencies(tree, source / LOCK.relative_to(ROOT))
        for pycache in list(tree.rglob("__pycache__")):
            shutil.rmtree(pycache)
        shutil.rmtree(tree / "bin", ignore_errors=True)  # console scripts: the builder's paths
        for path in code_files(source):
            destination = tree / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination)
        compileall.compile_dir(
            tree,
            quiet=1,
            optimize=0,
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
            stripdir=str(tree),  # the bytecode names /var/task/..., not this temporary path
            prependdir=TASK_ROOT,
        )
        when = build_time()
        with zipfile.ZipFile(target, "w") as archive:
            for path in sorted(tree.rglob("*"), key=lambda p: p.relative_to(tree).as_posix()):
                info = entry(path.relative_to(tree).as_posix(), path.is_dir(), when)
                archive.writestr(info, b"" if path.is_dir() else path.read_bytes(), compresslevel=9)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lambda")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to build")
    parser.add_argument("--lock", action="store_true", help="write the lock file, build nothing")
    args = parser.parse_args()
    print(lock() if args.lock else build(args.out, args.source.resolve()))


if __name__ == "__main__":
    main()
