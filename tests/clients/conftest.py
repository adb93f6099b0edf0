"""The play scripts are programs run against a real server, not test modules: they import the
client that the tests generate, which does not exist until then."""

collect_ignore = ["play.py"]
