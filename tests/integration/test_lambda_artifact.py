"""The Lambda artifact is reproducible and readable by Lambda's runtime user: built twice
under `umask 077` it is the same bytes, every entry has a fixed mode and time, its
dependencies are the lock's, and the handler imports and answers as a non-root user in a
clean Python that has only the unpacked artifact on its path (and boto3, which the Lambda
runtime provides)."""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from scripts.build_lambda import LOCK, code_files, runtime_requirements
from tests.stores import ROOT

EVENT = Path(__file__).parent / "events" / "http_api_v2.json"
NOBODY = 65534
# What the Lambda Python runtime has besides the artifact: boto3 and what it needs.
RUNTIME_PACKAGES = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "urllib3", "six")


def build_under_umask_077(source: Path, out: Path) -> Path:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    subprocess.run(
        ["sh", "-c", 'umask 077 && exec "$0" scripts/build_lambda.py --source "$1" --out "$2"',
         sys.executable, str(source), str(out)],
        cwd=ROOT, env=env, check=True, capture_output=True,
    )  # fmt: skip
    return out / "function.zip"


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    """Two builds of one snapshot of the checkout (what goes in the artifact, and the lock),
    so that nothing edited in the working tree meanwhile can tell them apart."""
    work = tmp_path_factory.mktemp("artifact")
    source = work / "source"
    for path in [*code_files(), LOCK]:
        (source / path.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, source / path.relative_to(ROOT))
    return build_under_umask_077(source, work / "one"), build_under_umask_077(source, work / "two")


def test_two_builds_under_umask_077_are_the_same_bytes(artifacts):
    one, two = artifacts
    assert one.read_bytes() == two.read_bytes()


def test_every_entry_has_a_fixed_mode_and_time(artifacts):
    archive = zipfile.ZipFile(artifacts[0])
    infos = archive.infolist()
    paths = [i.filename.rstrip("/") for i in infos]
    assert paths == sorted(paths)  # by path, a directory before what it holds
    for info in infos:
        mode = info.external_attr >> 16
        expected = (stat.S_IFDIR | 0o755) if info.is_dir() else (stat.S_IFREG | 0o644)
        assert (info.filename, oct(mode)) == (info.filename, oct(expected))
        assert info.date_time == (1980, 1, 1, 0, 0, 0) and info.create_system == 3
    names = {i.filename for i in infos}
    assert "handlers/" in names and "handlers/__init__.py" in names
    web = {n for n in names if n.startswith("web/") and not n.endswith("/")}
    assert web == {"web/index.html", "web/app.css", "web/app.js"}
    assert not any(n.startswith("bin/") for n in names)  # console scripts name the builder


def test_the_dependencies_are_the_locks(artifacts):
    """Exact versions with hashes, each within pyproject.toml's range, and the artifact holds
    exactly those distributions."""
    locked = {}
    for line in LOCK.read_text().splitlines():
        if line and not line.startswith("#"):
            pin, digest = line.split(" --hash=sha256:")
            name, version = pin.split("==")
            assert len(digest) == 64
            locked[name] = version
    for requirement in map(Requirement, runtime_requirements()):
        assert requirement.specifier.contains(locked[requirement.name.lower()]), requirement
    names = zipfile.ZipFile(artifacts[0]).namelist()
    shipped = {
        n.split("/")[0].removesuffix(".dist-info")
        for n in names
        if n.split("/")[0].endswith(".dist-info")
    }
    assert {s.rsplit("-", 1)[0].lower().replace("_", "-"): s.rsplit("-", 1)[1]
            for s in shipped} == locked  # fmt: skip


def clean_python() -> str:
    """A 3.11 interpreter outside the project's virtualenv (the bytecode is 3.11's)."""
    for candidate in ("/usr/bin/python3.11", sys._base_executable):
        if Path(candidate).exists():
            return candidate
    pytest.skip("no Python 3.11 outside the virtualenv")


@pytest.mark.skipif(os.geteuid() != 0, reason="switching to another user needs root")
def test_the_handler_imports_and_answers_as_a_non_root_user(artifacts):
    if not shutil.which("unzip") or not shutil.which("setpriv"):
        pytest.skip("needs unzip and setpriv (util-linux)")
    top = Path(tempfile.mkdtemp(prefix="royal-lambda-", dir="/tmp"))
    try:
        top.chmod(0o755)
        task, runtime = top / "task", top / "runtime"
        # unzip applies the modes in the zip, as Lambda does when it unpacks the artifact.
        subprocess.run(["unzip", "-q", str(artifacts[0]), "-d", str(task)], check=True)
        task.chmod(0o755)
        runtime.mkdir(mode=0o755)
        import boto3

        site = Path(boto3.__file__).parent.parent
        for package in RUNTIME_PACKAGES:
            source = site / package if (site / package).is_dir() else site / f"{package}.py"
            (runtime / source.name).symlink_to(source)
        code = f"""
import json, sys
sys.path[:0] = [{str(task)!r}, {str(runtime)!r}]
import handlers.aws.api as entry
import handlers.aws.push  # the WebSocket entries load from the artifact too
import flask
answer = entry.handler(json.load(open({str(EVENT)!r})), None)
outside = sorted(
    name for name, module in list(sys.modules.items())
    if getattr(module, "__file__", None)
    and not module.__file__.startswith(({str(task)!r}, {str(runtime)!r}, sys.base_prefix))
)
print(json.dumps({{"status": answer["statusCode"], "flask": flask.__file__,
                   "entry": entry.__file__, "outside": outside}}))
"""
        env = {
            "PATH": "/usr/bin:/bin",
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "offline",
            "AWS_SECRET_ACCESS_KEY": "offline",
        }
        result = subprocess.run(
            ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
             clean_python(), "-I", "-S", "-c", code],
            cwd=top, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr[-3000:]
        found = json.loads(result.stdout.strip().splitlines()[-1])
        assert found["status"] == 200
        assert found["entry"].startswith(str(task)) and found["flask"].startswith(str(task))
        assert found["outside"] == []
    finally:
        shutil.rmtree(top)
