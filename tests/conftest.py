from hypothesis import settings

# Derandomized so that `make test` is reproducible run to run and on CI; no deadline because
# the machine may be busy, and speed is measured by `make bench`, never by tests.
settings.register_profile("repo", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("repo")
