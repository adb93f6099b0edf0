"""Create a stage's daily secret in SSM if it is missing, or only check that it is there: the
step before `serverless deploy` (`make deploy` runs it; docs/deploy.md).

The daily deals are keyed by this secret (docs/daily.md): the function reads it from the SSM
SecureString parameter that serverless.yml names (`dailySecretParam`, by default
/royal-court/<stage>/daily-secret). CloudFormation cannot create a SecureString, and a
secret in a template or a deploy log would not be one, so it is made here: 256 random bits,
encrypted with the account's `aws/ssm` key, never printed, and never replaced once it exists
(replacing it would change the deals of days not yet revealed). Without it the daily routes
answer 503 and the log names the missing parameter; every other route works.

Usage: python scripts/daily_secret.py --stage prod [--region us-east-1] [--name NAME] [--check]
Exit status: 0 when the parameter exists (or was created now), 1 when --check finds none.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any


def parameter_name(stage: str) -> str:
    """serverless.yml's default `dailySecretParam` for a stage."""
    return f"/royal-court/{stage}/daily-secret"


def ensure(ssm: Any, name: str, create: bool = True) -> str:
    """ "exists", "created" or "missing" (only when not `create`). An existing parameter is
    left as it is, whatever its value; two deploys racing to create it keep the first's."""
    try:
        found = ssm.get_parameter(Name=name)["Parameter"]  # no decryption: existence only
    except ssm.exceptions.ParameterNotFound:
        found = None
    if found is not None:
        if found.get("Type") != "SecureString":
            print(f"warning: {name} is a {found.get('Type')}, not a SecureString", file=sys.stderr)
        return "exists"
    if not create:
        return "missing"
    try:
        ssm.put_parameter(
            Name=name,
            Description="Royal Court: the key of the daily deals (scripts/daily_secret.py)",
            Value=secrets.token_hex(32),
            Type="SecureString",
            Overwrite=False,
        )
    except ssm.exceptions.ParameterAlreadyExists:
        return "exists"
    return "created"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", required=True)
    parser.add_argument("--region", default="us-east-1")
    parser.add_argument("--name", help="the parameter (default /royal-court/<stage>/daily-secret)")
    parser.add_argument("--check", action="store_true", help="only check; create nothing")
    args = parser.parse_args(argv)
    import boto3

    name = args.name or parameter_name(args.stage)
    state = ensure(boto3.client("ssm", region_name=args.region), name, create=not args.check)
    if state == "missing":
        print(
            f"{name} does not exist in {args.region}: the daily challenges would answer 503."
            f" Create it: python scripts/daily_secret.py --stage {args.stage}"
            f" --region {args.region}" + (f" --name {name}" if args.name else ""),
            file=sys.stderr,
        )
        return 1
    print(f"{name}: {state}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
