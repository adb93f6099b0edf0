"""scripts/daily_secret.py, the deploy's step for the daily secret, against SSM (moto): it
creates the SecureString once, never replaces it, never prints it, and `--check` fails on a
stage that has none."""

import boto3
import pytest
from moto import mock_aws

from scripts.daily_secret import main, parameter_name

NAME = parameter_name("test")


@pytest.fixture
def ssm(aws_credentials):
    with mock_aws():
        yield boto3.client("ssm", region_name="us-east-1")


def test_it_is_created_once_and_never_replaced(ssm, capsys):
    assert main(["--stage", "test"]) == 0
    found = ssm.get_parameter(Name=NAME, WithDecryption=True)["Parameter"]
    assert found["Type"] == "SecureString"
    value = found["Value"]
    assert len(bytes.fromhex(value)) == 32  # 256 random bits
    assert main(["--stage", "test"]) == 0
    assert ssm.get_parameter(Name=NAME, WithDecryption=True)["Parameter"]["Value"] == value
    out = capsys.readouterr()
    assert value not in out.out + out.err
    assert f"{NAME}: created" in out.out and f"{NAME}: exists" in out.out


def test_check_fails_on_a_missing_parameter_and_creates_nothing(ssm, capsys):
    assert main(["--stage", "test", "--check"]) == 1
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(ssm.exceptions.ParameterNotFound):
        ssm.get_parameter(Name=NAME)
    ssm.put_parameter(Name=NAME, Value="kept", Type="SecureString")
    assert main(["--stage", "test", "--check"]) == 0


def test_an_existing_parameter_is_kept_whatever_its_value(ssm):
    ssm.put_parameter(Name="/custom/secret", Value="chosen by the operator", Type="SecureString")
    assert main(["--stage", "prod", "--name", "/custom/secret"]) == 0
    found = ssm.get_parameter(Name="/custom/secret", WithDecryption=True)["Parameter"]
    assert found["Value"] == "chosen by the operator"
