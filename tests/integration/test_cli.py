"""The `court` command, driven through its main() as a shell would."""

import io
import json

import pytest

from domain.registry import GAMES
from handlers.cli.court import main
from handlers.config import new_secret
from tests.unit.test_deal import ROYAL_52


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_deal_prints_the_vector(capsys):
    code, out, _ = run(capsys, "deal", "royal-assassin", "--seed", "royal")
    assert code == 0 and out.strip() == ROYAL_52


def test_deal_with_jokers_option(capsys):
    _, out, _ = run(
        capsys, "deal", "royal-assassin", "--seed", "royal", "--option", "jokers_in_deck=true"
    )
    assert len(out.split()) == 54


def test_bad_option_and_seed_exit_2(capsys):
    code, _, err = run(capsys, "deal", "royal-assassin", "--seed", "royal", "--option", "nope=1")
    assert code == 2 and "nope: unknown option" in err
    code, _, err = run(capsys, "deal", "royal-assassin", "--seed", "bad seed")
    assert code == 2 and "seed" in err
    code, _, err = run(
        capsys, "deal", "royal-assassin", "--seed", "x", "--option", "setup_royals=13"
    )
    assert code == 2 and "at most 12" in err


def test_replay_prints_the_final_view(capsys, tmp_path):
    moves = tmp_path / "moves.json"
    moves.write_text(json.dumps([{"type": "attack", "column": "hearts"}]))
    code, out, _ = run(capsys, "replay", "royal-assassin", "--seed", "royal", "--moves", str(moves))
    view = json.loads(out)
    assert code == 0 and view["columns"]["hearts"][-1] == {"card": "6C", "role": "attack"}


def test_replay_from_stdin_reports_an_illegal_move(capsys, monkeypatch):
    moves = json.dumps(
        [{"type": "attack", "column": "hearts"}, {"type": "attack", "column": "hearts"}]
    )
    code, out, err = run(
        capsys,
        "replay",
        "royal-assassin",
        "--seed",
        "royal",
        "--moves",
        "-",
        stdin=moves,
        monkeypatch=monkeypatch,
    )
    assert code == 1 and out == ""
    assert err.startswith('move 1 {"type": "attack", "column": "hearts"} is illegal: ')
    assert "legal moves: " in err and '"type": "draw"' in err


def test_replay_batch_one_line_out_per_line_in(capsys, monkeypatch):
    lines = [
        {"ruleset": "royal-assassin", "seed": "royal", "moves": [{"type": "resign"}]},
        {
            "ruleset": "royal-assassin",
            "seed": "royal",
            "options": {"recycle_reserve": True},
            "moves": [{"type": "draw"}],
        },
        {"ruleset": "chess", "seed": "x", "moves": []},
    ]
    text = "\n".join(json.dumps(x) for x in lines) + "\nnot json\n" + "[" * 50000 + "\n"
    code, out, _ = run(capsys, "replay", "--batch", "-", stdin=text, monkeypatch=monkeypatch)
    results = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and len(results) == 5
    assert results[0]["ok"] and results[0]["view"]["status"] == "lost"
    assert results[1]["ok"] is False and results[1]["index"] == 0
    assert {"type": "attack", "column": "hearts"} in results[1]["legal_moves"]
    assert results[2] == {
        "ok": False,
        "index": None,
        "legal_moves": [],
        "error": f"unknown ruleset 'chess' (known: {', '.join(sorted(GAMES))})",
    }
    assert results[3]["ok"] is False and results[3]["index"] is None
    assert results[4]["error"] == "nested too deeply"


def test_simulate_ends_with_one_json_line(capsys):
    code, out, err = run(
        capsys, "simulate", "royal-assassin", "--games", "30", "--policy", "greedy"
    )
    summary = json.loads(out.strip().splitlines()[-1])
    assert code == 0
    assert set(summary) >= {"ruleset", "games", "wins", "win_rate", "avg_score", "games_per_s"}
    assert summary["games"] == 30 and summary["win_rate"] == summary["wins"] / 30
    assert "100% 30/30" in err  # the progress bar


def test_simulate_is_reproducible(capsys):
    _, first, _ = run(capsys, "simulate", "royal-assassin", "--games", "20")
    _, second, _ = run(capsys, "simulate", "royal-assassin", "--games", "20")
    strip = lambda s: {k: v for k, v in json.loads(s).items() if k != "games_per_s"}  # noqa: E731
    assert strip(first) == strip(second)


def test_play_in_the_terminal(capsys, monkeypatch):
    code, out, _ = run(
        capsys,
        "play",
        "royal-assassin",
        "--seed",
        "royal",
        stdin="9\n1\nq\n",
        monkeypatch=monkeypatch,
    )
    assert code == 0
    assert "Pretender QH at 12" in out and "1) attack hearts" in out
    assert "Type a number from 1 to 3." in out  # 9 is not a listed move
    assert "Pretender QH at 6" in out  # after attacking with the Six of Clubs
    assert "Left the game. Seed royal" in out


def test_play_to_the_end(capsys, monkeypatch):
    code, out, _ = run(
        capsys,
        "play",
        "royal-assassin",
        "--seed",
        "royal",
        stdin="1\n" * 200,
        monkeypatch=monkeypatch,
    )
    assert code == 0 and "Game over: " in out


@pytest.mark.parametrize(
    "argv", [["replay", "royal-assassin"], ["replay", "--batch", "-", "--seed", "x"]]
)
def test_replay_usage_errors(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith("court: ")


def test_adaman_deal_and_simulate_best(capsys):
    code, out, _ = run(capsys, "deal", "adaman", "--seed", "royal", "--option", "excuse=true")
    assert code == 0 and len(out.split()) == 37 and "excuse" in out.split()
    code, out, _ = run(capsys, "simulate", "adaman", "--games", "6", "--policy", "best")
    summary = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and summary["ruleset"] == "adaman" and summary["games"] == 6


@pytest.mark.parametrize(
    ("ruleset", "seed", "options"),
    [
        ("adaman", "solve-3", []),
        ("royal-assassin", "royal", []),
        ("royal-assassin", "solve-7", ["--option", "recycle_reserve=true"]),
    ],
)
def test_solve_one_deal_prints_a_replayable_line(capsys, tmp_path, ruleset, seed, options):
    code, out, _ = run(capsys, "solve", ruleset, "--seed", seed, *options)
    result = json.loads(out)
    assert code == 0 and result["winnable"] is True and result["complete"] is True
    moves = tmp_path / "line.json"
    moves.write_text(json.dumps(result["line"]))
    _, out, _ = run(capsys, "replay", ruleset, "--seed", seed, "--moves", str(moves), *options)
    assert json.loads(out)["status"] == "won"


def test_solve_many_deals_prints_the_figures(capsys):
    code, out, _ = run(capsys, "solve", "--games", "3", "--budget", "2000")
    figures = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and figures["games"] == 3
    assert figures["winnable"] + figures["unwinnable"] + figures["unknown"] == 3
    assert figures["solve_seconds_median"] <= figures["solve_seconds_p99"]


def test_play_adaman_in_the_terminal(capsys, monkeypatch):
    code, out, _ = run(
        capsys, "play", "adaman", "--seed", "royal", stdin="1\n" * 40, monkeypatch=monkeypatch
    )
    assert code == 0 and "capital" in out and "Game over" in out


def test_play_risus_royale_in_the_terminal_to_the_end(capsys, monkeypatch):
    code, out, _ = run(
        capsys,
        "play",
        "risus-royale",
        "--seed",
        "royal",
        stdin="1\n" * 400,
        monkeypatch=monkeypatch,
    )
    assert code == 0 and "goal 8: Defeat all Elves" in out and "Game over" in out
    assert "row 3" in out and "last roll: round in" in out and "retreat to [" in out


def test_simulate_risus_royale_reports_by_goal_and_by_ending(capsys):
    code, out, _ = run(capsys, "simulate", "risus-royale", "--games", "24", "--policy", "greedy")
    summary = json.loads(out)
    assert code == 0 and summary["games"] == 24
    assert sum(g["games"] for g in summary["by_group"].values()) == 24
    assert all(label.startswith("goal ") for label in summary["by_group"])
    assert sum(summary["by_reason"].values()) == 24


# ---- hardening: malformed moves, Ctrl-C, the API's own log as input -----------------------


@pytest.mark.parametrize(
    "bad", [{"type": ["draw"]}, {"type": {}}, {"type": "attack", "column": ["hearts"]}, 7]
)
def test_replay_of_a_malformed_move_is_an_error_line_not_a_traceback(capsys, monkeypatch, bad):
    moves = json.dumps([{"type": "attack", "column": "hearts"}, bad])
    code, out, err = run(
        capsys, "replay", "royal-assassin", "--seed", "royal", "--moves", "-",
        stdin=moves, monkeypatch=monkeypatch,
    )  # fmt: skip
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith("move 1 ") and len(err.strip().splitlines()) == 1


def test_one_malformed_line_does_not_stop_a_batch(capsys, monkeypatch):
    lines = [
        {"ruleset": "royal-assassin", "seed": "royal", "moves": [{"type": ["draw"]}]},
        {"ruleset": "adaman", "seed": "royal", "moves": [{"type": "excuse", "card": {}}]},
        {"ruleset": "adaman", "seed": "royal", "moves": [{"type": "control", "target": ["x"],
                                                          "with": ["sea"]}]},
        {"ruleset": "royal-assassin", "seed": "royal", "moves": [{"type": "resign"}]},
    ]  # fmt: skip
    text = "\n".join(json.dumps(x) for x in lines) + "\n"
    code, out, _ = run(capsys, "replay", "--batch", "-", stdin=text, monkeypatch=monkeypatch)
    results = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and len(results) == 4
    assert [r["ok"] for r in results] == [False, False, False, True]
    assert [r["index"] for r in results[:3]] == [0, 0, 0]
    assert all(r["legal_moves"] for r in results[:3])


def test_replay_takes_the_api_move_log_as_saved(capsys, tmp_path):
    """docs/record-format.md's audit step: save GET /moves, feed it to `court replay`."""
    from tests.api_helpers import make_app

    client = make_app().test_client()
    created = client.post("/v1/games", json={"ruleset": "royal-assassin", "seed": "royal"}).json
    gid, auth = created["game"]["id"], {"Authorization": f"Bearer {created['token']}"}
    for version, mv in enumerate([{"type": "attack", "column": "hearts"}, {"type": "draw"}]):
        r = client.post(f"/v1/games/{gid}/moves", json={"version": version, "move": mv},
                        headers=auth)  # fmt: skip
        assert r.status_code == 201
    log = tmp_path / "log.json"
    log.write_bytes(client.get(f"/v1/games/{gid}/moves").data)
    code, out, err = run(capsys, "replay", "royal-assassin", "--seed", "royal", "--moves", str(log))
    assert code == 0, err
    assert json.loads(out) == client.get(f"/v1/games/{gid}", headers=auth).json["view"]


def test_simulate_interrupted_prints_the_partial_summary(capsys, monkeypatch):
    import domain.simulate
    import handlers.cli.court

    real = domain.simulate.simulate

    def interrupted_after_five(*args, **kwargs):
        for i, result in enumerate(real(*args, **kwargs)):
            if i == 5:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(handlers.cli.court, "simulate", interrupted_after_five)
    code, out, _ = run(capsys, "simulate", "royal-assassin", "--games", "100")
    summary = json.loads(out)
    assert code == 130 and summary["interrupted"] is True
    assert summary["games"] == 5 and summary["games_requested"] == 100


def test_solve_interrupted_prints_the_partial_summary(capsys, monkeypatch):
    import dataclasses

    from domain.registry import GAMES

    real, calls = GAMES["adaman"].solver, []

    def interrupted_on_the_third(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    entry = dataclasses.replace(GAMES["adaman"], solver=interrupted_on_the_third)
    monkeypatch.setitem(GAMES, "adaman", entry)
    code, out, _ = run(capsys, "solve", "adaman", "--games", "50", "--budget", "2000")
    summary = json.loads(out)
    assert code == 130 and summary["interrupted"] is True and summary["games"] == 2


def test_play_ctrl_c_leaves_cleanly_with_the_secret_seed(capsys, monkeypatch):
    def ctrl_c():
        raise KeyboardInterrupt

    monkeypatch.setattr("sys.stdin", io.StringIO())
    monkeypatch.setattr("sys.stdin.readline", ctrl_c)
    code, out, err = run(capsys, "play", "royal-assassin")
    assert code == 0 and "Traceback" not in err
    assert "Left the game. Seed " in out and "court play royal-assassin --seed " in out


def test_play_says_what_each_move_set_off(capsys, monkeypatch):
    code, out, _ = run(
        capsys, "play", "royal-assassin", "--seed", "royal", stdin="2\nq\n",
        monkeypatch=monkeypatch,
    )  # fmt: skip
    # 2) reserve: the Six of Clubs goes to the reserve, then forced draws turn cards up.
    assert code == 0 and "> reserve card 6C" in out and "> forced move: draw" in out


# ---- records: court record, court verify, court replay --record -------------------------------


@pytest.fixture
def finished_game_db(tmp_path):
    """A SQLite file holding one finished Adaman game; returns (path, game id)."""
    from domain.service import GameService
    from infra.sqlite_store import SqliteStore
    from tests.api_helpers import counting_secrets, fixed_clock

    path = str(tmp_path / "court.db")
    service = GameService(SqliteStore(path), fixed_clock, counting_secrets())
    snap = service.create_game("adaman", None, "record-cli")  # 15 moves: room to tamper
    gid, token, version = snap.game["id"], snap.token, 0
    while snap.game["status"] == "playing":
        real = [m for m in snap.view["legal_moves"] if m["type"] != "resign"]
        snap = service.play(gid, token, version, real[0])
        version += 1
    return path, gid


def test_record_from_the_local_store_verifies_offline(capsys, tmp_path, finished_game_db):
    db, gid = finished_game_db
    code, out, _ = run(capsys, "record", gid, "--db", db)
    record = json.loads(out)
    assert code == 0 and record["id"] == gid and record["seed"]
    path = tmp_path / "game.json"
    path.write_text(out)
    code, out, _ = run(capsys, "verify", str(path))
    n = len(record["moves"])
    assert code == 0
    assert (
        out.strip()
        == f"OK adaman {record['outcome']['result']} {record['outcome']['score']} ({n} moves)"
    )
    code, out, _ = run(capsys, "verify", str(path), "--json")
    assert code == 0 and json.loads(out)["valid"] is True


def test_verify_names_the_first_problem_and_exits_1(capsys, tmp_path, finished_game_db):
    db, gid = finished_game_db
    _, out, _ = run(capsys, "record", gid, "--db", db)
    record = json.loads(out)
    record["moves"][1]["move"] = {"type": "resign"}
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record))
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1 and out.startswith("INVALID at seq 2, hash: ")
    code, out, _ = run(capsys, "verify", str(path), "--json")
    verdict = json.loads(out)
    assert code == 1 and verdict["problems"][0]["seq"] == 2


@pytest.mark.parametrize("content", [None, b"{not json", b"[" * 100000, b"NaN"])
def test_verify_of_an_unreadable_file_exits_2(capsys, tmp_path, content):
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    code, out, err = run(capsys, "verify", str(path))
    assert code == 2 and out == "" and err.startswith("court: ") and "Traceback" not in err


def test_verify_reads_standard_input(capsys, monkeypatch, finished_game_db):
    db, gid = finished_game_db
    _, out, _ = run(capsys, "record", gid, "--db", db)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(out.encode())))
    code, out, _ = run(capsys, "verify", "-")
    assert code == 0 and out.startswith("OK adaman")


def test_replay_a_record_step_by_step(capsys, tmp_path, finished_game_db):
    db, gid = finished_game_db
    _, out, _ = run(capsys, "record", gid, "--db", db)
    path = tmp_path / "game.json"
    path.write_text(out)
    n = len(json.loads(out)["moves"])
    code, out, _ = run(capsys, "replay", "--record", str(path))
    steps = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [s["at"] for s in steps] == list(range(n + 1))
    assert steps[0]["move"] is None and steps[1]["move"]["seq"] == 1
    code, out, _ = run(capsys, "replay", "--record", str(path), "--at", "1")
    assert code == 0 and json.loads(out) == steps[1]
    code, _, err = run(capsys, "replay", "--record", str(path), "--at", str(n + 1))
    assert code == 2 and "--at must be from 0 to" in err


def test_record_of_an_unknown_game_is_a_usage_error(capsys, finished_game_db):
    db, _ = finished_game_db
    code, _, err = run(capsys, "record", "nope", "--db", db)
    assert code == 2 and "no game" in err


# ---- two seats ----------------------------------------------------------------------------------


def test_simulate_two_seats_prints_win_rates_per_seat(capsys):
    code, out, _ = run(capsys, "simulate", "royal-ace-assin", "--policy", "best",
                       "--against", "random", "--games", "40")  # fmt: skip
    summary = json.loads(out)
    assert code == 0 and summary["against"] == "random" and summary["games"] == 40
    assert summary["by_seat"]["0"]["games"] == summary["by_seat"]["1"]["games"] == 20
    assert summary["wins"] == summary["by_seat"]["0"]["wins"] + summary["by_seat"]["1"]["wins"]
    assert summary["win_rate"] > 0.8 and 0 <= summary["seat_0_win_rate"] <= 1
    code, _, err = run(capsys, "simulate", "royal-assassin", "--against", "random")
    assert code == 2 and "solitaire" in err


def test_play_against_a_bot_to_the_end(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "royal-ace-assin", "--against", "best", "--seed", "x",
                       stdin="1\n" * 12, monkeypatch=monkeypatch)  # fmt: skip
    assert code == 0 and "Game over:" in out and "seat 1 (bot): place\n" in out
    assert '"result": "' in out.splitlines()[-1]  # the human's own result
    code, _, err = run(capsys, "play", "royal-ace-assin", stdin="", monkeypatch=monkeypatch)
    assert code == 2 and "--against POLICY or --hotseat" in err


def test_play_hotseat_clears_the_screen_before_each_seat(capsys, monkeypatch):
    # each seat's turn: Enter to take the terminal, then a move number
    code, out, _ = run(capsys, "play", "royal-ace-assin", "--hotseat", "--seed", "x",
                       stdin="1\n\n1\n" * 16, monkeypatch=monkeypatch)  # fmt: skip
    assert code == 0 and "Game over:" in out
    assert out.count("\033[2J") >= 10 and "only seat 1 should look" in out


def test_replay_batch_takes_seats_and_a_spectator(capsys, monkeypatch):
    from tests.unit.test_royal_ace_assin import EXAMPLE

    moves = [{"seat": s, "move": m} for s, m in EXAMPLE[:5]]
    lines = [{"ruleset": "royal-ace-assin", "seed": "example", "moves": moves, "seat": s}
             for s in (0, 1, None)]  # fmt: skip
    text = "\n".join(json.dumps(x) for x in lines) + "\n"
    code, out, _ = run(capsys, "replay", "--batch", "-", stdin=text, monkeypatch=monkeypatch)
    assert code == 0
    views = [json.loads(x)["view"] for x in out.splitlines()]
    assert [v["seat"] for v in views] == [0, 1, None]
    assert views[0]["sealed"] == {"type": "flip", "targets": ["queen"]}
    assert views[1]["sides"][0]["hand"] is None and views[2]["legal_moves"] == []


def test_no_id_or_token_begins_with_a_dash():
    """`court record <game id>` and `--token <token>` would read one as an option (one draw
    in 64 did: a fresh-clone run failed on `court record -NByV31j...`)."""
    drawn = [new_secret() for _ in range(3000)]
    assert not [s for s in drawn if s.startswith("-")]
    assert {len(s) for s in drawn} == {32} and len({s[0] for s in drawn}) == 63
