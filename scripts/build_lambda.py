"""Build the Lambda artifact that serverless.yml deploys: build/lambda/function.zip.

It holds the project's code (domain/, handlers/, infra/, openapi.yaml) and the runtime
dependencies from pyproject.toml as Linux x86-64 CPython 3.11 wheels (boto3 is left to the
Lambda runtime, waitress to `court serve`). One self-contained zip keeps `serverless package`
offline: a Serverless-managed layer would query CloudFormation even to package.

Usage: python scripts/build_lambda.py [--out build/lambda]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("domain", "handlers", "infra")
NOT_IN_LAMBDA = ("boto3", "waitress")


def code_files() -> list[Path]:
    files = [ROOT / "openapi.yaml"]
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
    out.mkdir(parents=True, exist_ok=True)
    target = out / "function.zip"
    with tempfile.TemporaryDirectory() as tmp:
        deps = Path(tmp)
        install_dependencies(deps)
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(p for p in deps.rglob("*") if p.is_file()):
                if "__pycache__" not in path.parts:
                    archive.write(path, path.relative_to(deps).as_posix())
            for path in sorted(code_files()):
                archive.write(path, path.relative_to(ROOT).as_posix())
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lambda")
    print(build(parser.parse_args().out))


if __name__ == "__main__":
    main()
