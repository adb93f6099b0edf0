"""The web client's routes on the Flask app: every client path answers the one page, with a
policy that allows only the client's own files; the modules and styles are served from package
data; and the client names only public API paths (docs/web-client.md)."""

import re

import pytest

from handlers.http.app import WEB_ROOT
from tests.api_helpers import make_app


@pytest.fixture
def client(tmp_path):
    return make_app().test_client()


@pytest.mark.parametrize("path", ["/", "/play", "/play/AbC123_-x", "/daily", "/play?from_game=x"])
def test_every_client_path_is_the_page(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert b'<main id="app"' in response.data
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy
    assert response.headers["Referrer-Policy"] == "no-referrer"


def client_sources():
    """The client's TypeScript sources (web/src), the generated API types left out:
    what the client itself names."""
    sources = sorted((WEB_ROOT / "src").glob("*.ts"))
    return "\n".join(p.read_text() for p in sources if not p.name.endswith(".gen.ts"))


def test_assets_are_served_with_their_types(client):
    assert client.get("/web/app.css").mimetype == "text/css"
    response = client.get("/web/app.js")  # the bundle index.html loads (`make web`)
    assert response.status_code == 200
    assert response.mimetype in ("text/javascript", "application/javascript")
    assert b'src="/web/app.js"' in client.get("/").data


@pytest.mark.parametrize(
    "path", ["/web/nope.js", "/web/../pyproject.toml", "/web/%2e%2e/pyproject.toml"]
)
def test_no_file_outside_the_client_is_served(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_the_client_calls_only_documented_paths(client):
    """Anything the client can do, any client can: each path it names is in openapi.yaml."""
    spec = client.get("/openapi.yaml").get_data(as_text=True)
    documented = set(re.findall(r"^  (/v1/[^:]+):$", spec, re.MULTILINE))
    patterns = [re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", p) + "$") for p in documented]
    source = client_sources()
    called = set(re.findall(r"[`\"'](/v1/[^`\"'?]+)", source))
    assert called  # the client does call the API
    for path in called:
        concrete = re.sub(r"\$\{[^}]+\}", "x", path)
        assert any(p.match(concrete) for p in patterns), path


def test_no_token_is_ever_put_in_a_path_or_query():
    """Tokens travel in the Authorization header; in links, only in the fragment (#)."""
    source = client_sources()
    assert not re.search(r"[?&]token=", source)
    assert "#invite=" in source and "Authorization" in source
