"""Reading game records from a file, standard input or a URL, for `court verify`, `court
record` and `court replay --record`: the I/O the pure verifier (domain/verify.py) leaves out."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from typing import Any

MAX_RECORD_BYTES = 64 * 1024 * 1024


class Unreadable(Exception):
    """The record could not be read or is not JSON: exit status 2, never a traceback."""


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse(text: str | bytes, where: str) -> Any:
    try:
        return json.loads(text, parse_constant=_not_json)
    except RecursionError:
        raise Unreadable(f"{where}: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise Unreadable(f"{where}: not JSON ({e})") from None


def fetch(url: str, token: str | None = None, timeout: float = 30.0) -> bytes:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data: bytes = response.read(MAX_RECORD_BYTES + 1)
    except urllib.error.HTTPError as e:
        detail = e.read(2000).decode("utf-8", "replace")
        raise Unreadable(f"{url}: HTTP {e.code} {detail}") from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise Unreadable(f"{url}: {getattr(e, 'reason', e)}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise Unreadable(f"{url}: larger than {MAX_RECORD_BYTES} bytes")
    return data


def read_record(source: str) -> Any:
    """The JSON at `source`: a path, `-` for standard input, or an http(s) URL."""
    if source == "-":
        return parse(sys.stdin.buffer.read(MAX_RECORD_BYTES + 1), "standard input")
    if source.startswith(("http://", "https://")):
        return parse(fetch(source), source)
    try:
        with open(source, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise Unreadable(f"cannot read {source}: {e.strerror}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise Unreadable(f"{source}: larger than {MAX_RECORD_BYTES} bytes")
    return parse(data, source)
