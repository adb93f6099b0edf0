"""Every Flask test client of the integration tests checks its responses against openapi.yaml
(tests/api_helpers.py, SpecCheckedClient), however the test built its app."""

import pytest
from flask import Flask

from tests.api_helpers import SpecCheckedClient


@pytest.fixture(autouse=True)
def responses_checked_against_the_spec(monkeypatch):
    monkeypatch.setattr(Flask, "test_client_class", SpecCheckedClient)
