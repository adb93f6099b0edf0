"""`make bench`'s output: one JSON object a line with the figure, its target from the one
table and whether it is met (computed); every target has a benchmark that declares its id;
`--only` runs a subset; games are named in bench/ only where the plan says which to play."""

import io
import json
import math
from pathlib import Path

import pytest

from bench import run
from bench.figures import Bench, Figure, Target, as_json, write_json_line, write_table
from bench.games import EVENT_CAP_GAME, LOG_GAME, PAIRING_GAMES, SOLITAIRES, STREAM_GAME
from bench.rules import replays, speed
from bench.targets import TARGETS
from domain.registry import GAMES

KEYS = {"id", "name", "value", "unit", "target", "direction", "met", "detail"}
FAKE_TARGETS = {
    "fake.latency": Target(1.3, "ms", "<=", issue=0),
    "fake.speed": Target(4500, "games/s", ">=", issue=0),
}


def line_of(figure, targets=FAKE_TARGETS):
    out = io.StringIO()
    write_json_line(figure, targets, out)
    text = out.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1
    return json.loads(text)


@pytest.mark.parametrize(
    ("ident", "value", "unit", "met"),
    [
        ("fake.latency", 1.2, "ms", True),
        ("fake.latency", 1.3, "ms", True),
        ("fake.latency", 1.31, "ms", False),
        ("fake.speed", 4891.2, "games/s", True),
        ("fake.speed", 4499.4, "games/s", False),
    ],
)
def test_a_json_line_holds_the_figure_its_target_and_whether_it_is_met(ident, value, unit, met):
    data = line_of(Figure(ident, "a figure", value, unit, "spread"))
    assert set(data) == KEYS
    target = FAKE_TARGETS[ident]
    assert data["id"] == ident and data["name"] == "a figure" and data["detail"] == "spread"
    assert data["unit"] == unit and data["target"] == target.value
    assert data["direction"] == target.direction
    assert data["met"] is met


def test_met_is_computed_from_the_value_printed():
    """4,500.4 games/s is printed as 4,500, which meets >= 4,500: the line never contradicts
    itself."""
    data = line_of(Figure("fake.speed", "a figure", 4499.6, "games/s"))
    assert data["value"] == 4500 and data["met"] is True


def test_a_figure_without_a_target_has_nulls():
    data = line_of(Figure("fake.other", "a figure", 0.123456, "ms"))
    assert data["value"] == 0.1235
    assert data["target"] is None and data["direction"] is None and data["met"] is None


def test_a_value_that_is_not_a_number_is_null_and_not_judged():
    data = line_of(Figure("fake.latency", "a figure", math.nan, "ms"))
    assert data["value"] is None and data["met"] is None


def test_a_target_in_another_unit_is_refused():
    with pytest.raises(ValueError, match="measured in s"):
        as_json(Figure("fake.latency", "a figure", 0.001, "s"), FAKE_TARGETS)


def test_the_table_shows_the_target_its_issue_and_the_verdict():
    out = io.StringIO()
    figures = [Figure("fake.latency", "slow", 2.0, "ms"), Figure("fake.other", "free", 1, "x")]
    write_table(figures, FAKE_TARGETS, out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["measure", "figure", "target", "met"]
    assert "<= 1.3 ms (issue 0)" in lines[2] and lines[2].endswith("NO")
    assert lines[3].startswith("free") and lines[3].rstrip().endswith("1 x")


def test_a_tiny_real_benchmark_through_the_writer():
    """A real benchmark, cut to a few games: it yields exactly the ids it declares, and each
    line has the shape and a verdict wherever the table sets a target."""
    for bench in (replays(LOG_GAME, 3), speed(LOG_GAME, "random", 3, with_win_rate=True)):
        figures = list(bench.measure())
        assert tuple(f.id for f in figures) == bench.ids
        for figure in figures:
            data = line_of(figure, TARGETS)
            assert set(data) == KEYS
            assert isinstance(data["value"], int | float) and data["value"] >= 0
            assert (data["met"] is None) == (figure.id not in TARGETS)


def test_a_benchmark_may_not_yield_an_id_it_did_not_declare():
    bench = Bench(("fake.a",), lambda: [Figure("fake.b", "b", 1, "x")])
    with pytest.raises(ValueError, match="is not among the ids declared"):
        list(bench.measure())


def test_every_target_is_declared_by_some_benchmark_and_every_id_once():
    declared = [ident for bench in run.benches() for ident in bench.ids]
    assert len(declared) == len(set(declared)), "an id declared twice"
    assert set(TARGETS) <= set(declared), set(TARGETS) - set(declared)
    for ident, target in TARGETS.items():
        assert target.direction in ("<=", ">=") and target.issue > 0, ident


def test_only_runs_the_benchmarks_of_the_prefix_and_prints_their_figures(monkeypatch, capsys):
    ran = []

    def fake(ids):
        def measure():
            ran.append(ids)
            return [Figure(i, i, 2, "x") for i in ids]

        return Bench(ids, measure)

    benches = [fake(("fake.a.one", "fake.b.two")), fake(("other.c",))]
    monkeypatch.setattr(run, "benches", lambda: benches)
    assert run.main(["--only", "fake.a"]) == 0
    assert ran == [("fake.a.one", "fake.b.two")]
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["id"] for line in lines] == ["fake.a.one"]
    assert "measure" in err and "fake.a.one" in err and "fake.b.two" not in err
    with pytest.raises(SystemExit):
        run.main(["--only", "nothing."])


def test_list_shows_every_id_and_target_without_running(capsys):
    assert run.main(["--list"]) == 0
    listed = dict(line.partition("  ")[::2] for line in capsys.readouterr().out.splitlines())
    assert set(TARGETS) <= set(listed)
    assert listed["rules." + LOG_GAME + ".replay"] == "<= 1 ms"


def test_the_plan_names_registered_games_of_the_right_seats():
    for game_id in SOLITAIRES:
        assert GAMES[game_id].ruleset.max_seats == 1, game_id
    for game_id in PAIRING_GAMES:
        assert GAMES[game_id].ruleset.max_seats >= 2, game_id
    assert GAMES[LOG_GAME].ruleset.max_seats == 1
    assert GAMES[EVENT_CAP_GAME].ruleset.max_seats == 1  # one seat: casual games allow undo
    assert GAMES[STREAM_GAME].ruleset.max_seats == 2  # a stream per seat


def test_games_are_named_only_in_the_plan_and_the_targets():
    """bench/games.py says which game each benchmark plays and bench/targets.py keys targets
    by row ids; every other module takes its games from them or from the registry."""
    bench_dir = Path(run.__file__).parent
    for path in sorted(bench_dir.glob("*.py")):
        if path.name in ("games.py", "targets.py"):
            continue
        text = path.read_text(encoding="utf-8")
        for game_id in GAMES:
            assert game_id not in text, f"{path.name} names {game_id}"
