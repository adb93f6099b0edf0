"""The seed text's three Gameplay Examples, built position by position.

Every number the text gives is asserted at the step it gives it. Decks are stacked so that
the standard setup (or the `setup_royals` option where the text shows a single royal) lays
out exactly the position the example starts from.
"""

from tests.helpers import RA, column, deal, legal, only, play, strength

ATTACK_CLUBS = {"type": "attack", "column": "clubs"}
CONTINUE_CLUBS = {"type": "continue", "column": "clubs"}


def test_example_1_queen_of_clubs_falls_to_six_and_nine_of_diamonds():
    # Setup: Jack of Clubs, then the Queen; the Deuce of Clubs ends the setup (2 <= 2 royals)
    # and lies on top of the Nine of Diamonds in the reserve.
    state, effects = deal("JC", "9D", "QC", "2C", "6D")
    assert column(state, "clubs") == [("JC", "royal"), ("QC", "royal")]
    assert [e["move"] for e in only(effects, "forced")] == [{"type": "draw"}]
    view = RA.view(state, 0)
    assert view["reserve"] == ["9D", "2C"] and view["current"] == "6D"

    state, effects = play(state, ATTACK_CLUBS)
    attack, defense = only(effects, "attack")[0], only(effects, "defense")[0]
    assert (attack["card"], attack["target"], attack["strength"]) == ("6D", "QC", 6)
    assert (defense["card"], defense["strength"]) == ("2C", 8)  # she pulls the Deuce
    assert strength(state, "clubs") == 8
    assert CONTINUE_CLUBS in legal(state)  # the Nine of Diamonds is now on top
    assert {"type": "joker", "column": "clubs"} in legal(state)  # the skipped Joker chance

    state, effects = play(state, CONTINUE_CLUBS)
    assert only(effects, "continue")[0]["strength"] == -1  # reduced to -1: she dies
    kill = only(effects, "kill")[0]
    assert kill["royal"] == "QC" and kill["cards"] == ["QC", "6D", "2C", "9D"]
    assert column(state, "clubs")[0] == ("JC", "royal")  # the Jack is the new Pretender


def test_example_2_jack_of_clubs_cancel_then_kill():
    # Setup: the Jack of Clubs and three Spades royals; Ten of Diamonds, then the Four of
    # Clubs ends the setup (4 <= 4 royals). No red Pretender is in play.
    state, _ = deal("JC", "JS", "QS", "KS", "TD", "4C", "6H", "3C", "7D")
    assert state.current.code == "6H"
    assert {"type": "attack", "column": "spades"} in legal(state)  # the better target...

    state, effects = play(state, ATTACK_CLUBS)  # ...but the example attacks the Jack
    assert only(effects, "attack")[0]["strength"] == 5
    defenses = only(effects, "defense")
    assert [(d["card"], d["strength"]) for d in defenses] == [("4C", 9), ("3C", 12)]
    # The Three of Clubs could only go to the reserve: the engine played that for us.
    forced = [e["move"] for e in only(effects, "forced")]
    assert forced == [{"type": "draw"}, {"type": "reserve"}, {"type": "draw"}]
    cancel = only(effects, "cancel")[0]
    assert cancel["royal"] == "JC" and sorted(cancel["cards"]) == ["3C", "4C", "6H"]
    assert (cancel["attack"], cancel["defense"]) == (6, 7)
    # It flowed on by itself to the Seven of Diamonds, a real choice.
    assert state.current.code == "7D" and column(state, "clubs") == [("JC", "royal")]

    state, effects = play(state, ATTACK_CLUBS)
    assert only(effects, "attack")[0]["strength"] == 4
    state, effects = play(state, CONTINUE_CLUBS)  # the Ten of Diamonds from the reserve
    kill = only(effects, "kill")[0]
    assert kill["royal"] == "JC" and kill["cards"] == ["JC", "7D", "TD"]
    # Forced draws go on afterwards (the stacked deck's next royals arrive), but the Jack is gone.
    assert ("JC", "royal") not in column(state, "clubs")


def test_example_3_the_joker_takes_the_whole_hearts_column():
    # Setup (a single royal, so the setup_royals option lays it out): the Queen of Hearts,
    # with the Seven of Spades on top of the Six of Diamonds in the reserve.
    state, _ = deal("6D", "7S", "QH", "3S", "KH", "5C", "2S", "JH", "9S", "TS", setup_royals=1)
    assert state.current.code == "3S" and state.reserve[-1].code == "7S"

    state, effects = play(state, {"type": "attack", "column": "hearts"})
    assert only(effects, "attack")[0]["strength"] == 9
    # Continuing from the reserve must be chosen before drawing.
    assert legal(state)[:2] == [{"type": "draw"}, {"type": "continue", "column": "hearts"}]
    state, effects = play(state, {"type": "continue", "column": "hearts"})
    assert only(effects, "continue")[0]["strength"] == 2
    # The Six of Diamonds is no use to anyone: the engine draws the King of Hearts, which
    # interrupts the attack, then the Five of Clubs, which cannot attack the King because
    # Spades are attacking Hearts (even with nothing on the King), so it goes to the reserve.
    assert only(effects, "royal")[0]["card"] == "KH"
    assert [e["card"] for e in only(effects, "reserve")] == ["5C"]
    assert state.current.code == "2S"
    assert column(state, "hearts")[-1] == ("KH", "royal")

    state, _ = play(state, {"type": "attack", "column": "hearts"})
    assert strength(state, "hearts") == 11
    assert {"type": "joker", "column": "hearts"} in legal(state)
    state, effects = play(state, {"type": "joker", "column": "hearts"})
    # The Jack arrives; the Joker stays where it was legally placed.
    assert only(effects, "royal")[0]["card"] == "JH"
    view = RA.view(state, 0)
    assert view["jokers"] == {"in_hand": [], "above": {"hearts": "X1"}}
    assert [c for c, role in column(state, "hearts") if role == "royal"] == ["QH", "KH", "JH"]

    state, _ = play(state, {"type": "attack", "column": "hearts"})  # Nine of Spades
    state, effects = play(state, {"type": "attack", "column": "hearts"})  # Ten of Spades
    kill = only(effects, "kill")[0]
    assert kill["joker"] == "X1" and kill["joker_to"] == "hand"
    assert {"QH", "KH", "JH"} <= set(kill["cards"])
    view = RA.view(state, 0)
    assert view["status"] == "won" and view["jokers"]["in_hand"] == ["X1"]
    assert view["outcome"]["result"] == "won" and view["outcome"]["ruler"] is None
