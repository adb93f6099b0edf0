"""Build the Lambda artifact that serverless.yml deploys: build/lambda/function.zip.

It holds the project's code (domain/, handlers/, infra/, openapi.yaml) and the runtime
dependencies from pyproject.toml as Linux x86-64 CPython 3.11 wheels (boto3 is left to the
Lambda runtime, waitress to `court serve`). One self-contained zip keeps `serverless package`
offline: a Serverless-managed layer would query CloudFormation even to package.

Usage: python scripts/build_lambda.py [--out build/lambda]
"""

from __future__ import annotations

import argparse
import compileall
import py_compile
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("domain", "handlers", "infra")
NOT_IN_LAMBDA = ("boto3", "waitress", "flask-swagger-ui")  # /docs is not served on Lambda


def code_files() -> list[Path]:
    files = [ROOT / "openapi.yaml"]
    files += [p for p in (ROOT / "handlers" / "web").rglob("*") if p.is_file()]  # the web client
    for package in CODE:
        files += [
            p
            for p in (ROOT / package).rglob("*.py")
            if "__pycache__" not in p.parts and p.name != "openapi.py"  # openapi.py: dev only
        ]
    return files


def runtime_requirements() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        deps: list[str] = tomllib.load(f)["project"]["dependencies"]
    return [d for d in deps if not d.startswith(NOT_IN_LAMBDA)]


def install_dependencies(target: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--target",
            str(target),
            "--platform",
            "manylinux2014_x86_64",
            "--implementation",
            "cp",
            "--python-version",
            "3.11",
            "--only-binary=:all:",
            *runtime_requirements(),
        ],
        check=True,
    )


def build(out: Path) -> Path:
    """The zip: dependencies and code, each module with its bytecode beside it, compiled with
    unchecked hashes (a zip's timestamps mean nothing, and Lambda's disk is read-only, so
    bytecode checked against timestamps would be compiled again at every cold start)."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / "function.zip"
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        install_dependencies(tree)
        for pycache in list(tree.rglob("__pycache__")):
            shutil.rmtree(pycache)
        for path in code_files():
            destination = tree / path.relative_to(ROOT)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination)
        compileall.compile_dir(
            tree,
            quiet=1,
            optimize=0,
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(p for p in tree.rglob("*") if p.is_file()):
                archive.write(path, path.relative_to(tree).as_posix())
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lambda")
    print(build(parser.parse_args().out))


if __name__ == "__main__":
    main()
