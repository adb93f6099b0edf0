"""The web client in a real browser (Debian's Chromium via Playwright) against a real
`court serve`: every solitaire played to the end by clicking its `data-move` controls, two
players in two browser contexts, a bot seat, a stale click from a second tab, the deal
verified in the browser, the record downloaded and verified, the replay, the daily page, an
accessibility scan, and screenshots at 375 and 1280 px in build/screenshots/.
"""

import json
import random
import re
from pathlib import Path

import pytest

from domain.deal import DealRandom, seed_commitment
from domain.record import RECORD_FORMAT_V1, canonical_json, move_hash
from domain.registry import GAMES, get_ruleset
from domain.verify import verify
from tests.e2e.conftest import AXE
from tests.e2e.test_e2e import call, server
from tests.stores import ROOT

pytestmark = pytest.mark.browser

SOLITAIRES = ["royal-assassin", "adaman", "risus-royale"]
WIDTHS = {"phone": 375, "desktop": 1280}
MAX_CLICKS = 1500  # far above any game's length: a game that never ends fails the test


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A real `court serve` on a fresh SQLite file; its log (stderr) is kept for the checks."""
    folder = tmp_path_factory.mktemp("web")
    log = open(folder / "server.log", "w+")  # noqa: SIM115 (closed below)
    env = {"ROYAL_DB": str(folder / "court.db"), "ROYAL_DAILY_SECRET": "web-client-tests"}
    with server(env=env, stderr=log) as (base, _):
        yield base, folder / "server.log"
    log.close()


@pytest.fixture
def base(live):
    return live[0]


class Console:
    """Every console error and uncaught exception of the pages it watches."""

    def __init__(self):
        self.errors = []

    def watch(self, page):
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        return page


@pytest.fixture
def console():
    watcher = Console()
    yield watcher
    assert watcher.errors == [], watcher.errors


def new_page(browser, console, width=1280):
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    return console.watch(context.new_page())


def shown(page):
    """(status, version) as the page shows them, through the automation contract."""
    node = page.locator("[data-status]")
    return node.get_attribute("data-status"), int(node.get_attribute("data-version"))


def seat_token(page, game_id):
    raw = page.evaluate("id => localStorage.getItem('royal-court:seat:' + id)", game_id)
    return json.loads(raw)["token"] if raw else None


def game_id_of(page):
    return re.fullmatch(r".*/play/([^/?#]+).*", page.url).group(1)


def offered(page):
    return [json.loads(m) for m in page.locator("[data-move]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.move)")]  # fmt: skip


def playable(page):
    """The visible, enabled legal-move controls, resign and undo left out."""
    controls = page.locator("[data-move]:visible:enabled")
    moves = [json.loads(m) for m in controls.evaluate_all("ns => ns.map(n => n.dataset.move)")]
    return [(i, m) for i, m in enumerate(moves) if m["type"] not in ("resign", "undo")], controls


def check_contract(page, base, game_id, token):
    """Every data-move is a legal move of the seat's view, exactly as listed, and every legal
    move is offered (the builder's button repeats one of them)."""
    status, _, body = call(base, "GET", f"/v1/games/{game_id}", token=token)
    assert status == 200
    legal = body["view"]["legal_moves"]
    on_page = offered(page)
    assert all(m in legal for m in on_page), [m for m in on_page if m not in legal][:3]
    assert all(m in on_page for m in legal), [m for m in legal if m not in on_page][:3]
    assert body["game"]["version"] == shown(page)[1]


def click_one(page, rng):
    """Clicks a random legal move and waits until the page shows a newer version."""
    _, version = shown(page)
    moves, controls = playable(page)
    index, _ = rng.choice(moves)
    controls.nth(index).click()
    moved = page.locator(f"[data-status]:not([data-version='{version}'])")
    moved.or_(page.locator("#message.error")).first.wait_for()
    assert moved.count() == 1, page.locator("#message").inner_text()


def deal(page, base, ruleset, seats=None):
    page.goto(base + "/")
    card = page.locator(f"[data-ruleset='{ruleset}']")
    for seat, choice in (seats or {}).items():
        card.locator(f"select[name='seat-{seat}']").select_option(choice)
    card.locator("button[type=submit]").click()
    page.locator("[data-status]").wait_for()
    return game_id_of(page)


def chain_line(moves):
    """The verify panel's line for the record's hash chain (js/record.js)."""
    if moves == 1:
        return "The 1 move forms an unbroken hash chain from the commitment"
    return f"The {moves} moves form an unbroken hash chain from the commitment"


def passed_checks(result):
    """The names of the verify panel's passing checks."""
    names = "ns => ns.map(n => n.firstChild.textContent.replace(/^✔ /, ''))"
    return result.locator("li.ok").evaluate_all(names)


def check_secret_deal_end(page, base, game_id):
    """A finished game whose deals are always secret: its seed shows, no same-deal link."""
    _, _, body = call(base, "GET", f"/v1/games/{game_id}")
    share = body["game"]["share"]
    assert "same_deal" not in share and share["seed"] == body["game"]["seed"]
    page.locator("#no-same-deal").wait_for()
    assert page.locator("#share-deal").count() == 0
    assert page.locator("#share-link").count() == 0
    assert page.locator("a[href*='from_game']").count() == 0
    assert page.locator(".fairness .seed").text_content() == body["game"]["seed"]
    assert page.locator("#download-record").is_visible()


def axe_scan(page):
    """axe-core (from npm, tools/) on the page as it is: the serious and critical findings."""
    # Through the DevTools protocol, like an extension: the page's own CSP (no inline script)
    # stays on, so the scan sees the page exactly as users get it.
    page.evaluate(AXE.read_text() + "\n;undefined")
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def shoot(page, screenshots, name):
    """Screenshots at each width; at each, nothing may stick out sideways (readable on a phone)."""
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(screenshots / f"{name}-{label}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, label)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_start_page_offers_every_ruleset_and_passes_the_scan(
    browser, base, console, screenshots
):
    page = new_page(browser, console)
    page.goto(base + "/")
    page.locator("[data-ruleset]").first.wait_for()
    ids = page.locator("[data-ruleset]").evaluate_all("ns => ns.map(n => n.dataset.ruleset)")
    _, _, body = call(base, "GET", "/v1/rulesets")
    assert ids == [r["id"] for r in body["rulesets"]]
    # Two-seat games offer their bot policies; each option has a labelled control.
    for r in body["rulesets"]:
        card = page.locator(f"[data-ruleset='{r['id']}']")
        for option in r["options"]:
            assert card.get_by_label(option["name"].replace("_", " "), exact=True).count() == 1
        if r["seats"]["max"] > 1:
            choices = card.locator("select[name='seat-1'] option").evaluate_all(
                "os => os.map(o => o.value)"
            )
            assert choices == ["human", *(f"bot:{p}" for p in r["policies"])]
        # A seed only where a deal may be chosen: never for the two-seat games.
        assert card.locator("input[name='seed']").count() == (1 if r["chosen_deals"] else 0)
    secret_only = {r["id"] for r in body["rulesets"] if not r["chosen_deals"]}
    assert secret_only == {r["id"] for r in body["rulesets"] if r["seats"]["max"] > 1}
    assert secret_only  # the two-seat games are there, with no seed field
    assert axe_scan(page) == []
    shoot(page, screenshots, "start")


@pytest.mark.parametrize("ruleset", SOLITAIRES)
def test_a_whole_solitaire_by_clicking_its_moves(browser, base, console, screenshots, ruleset):
    page = new_page(browser, console)
    game_id = deal(page, base, ruleset)
    token = seat_token(page, game_id)
    assert token and token not in page.url  # the token stays in the browser
    rng = random.Random(ruleset)
    clicks = 0
    while shown(page)[0] == "playing":
        if clicks < 25 or clicks % 10 == 0:
            check_contract(page, base, game_id, token)
        if clicks == 3:
            assert axe_scan(page) == []
            shoot(page, screenshots, f"{ruleset}-playing")
        click_one(page, rng)
        clicks += 1
        assert clicks < MAX_CLICKS
    status, version = shown(page)
    assert status != "playing" and version >= clicks
    assert page.locator("[data-move]").count() == 0  # nothing to play once it is over
    _, _, body = call(base, "GET", f"/v1/games/{game_id}")
    assert (body["game"]["status"], body["game"]["version"]) == (status, version)

    # The deal, verified in the browser, agrees with the server's.
    page.locator("#verify-deal").click()
    result = page.locator("#verify-result")
    result.wait_for()
    assert result.get_attribute("data-verified") == "true", result.inner_text()
    deck = get_ruleset(ruleset).deck(body["game"]["seed"], body["game"]["options"])
    assert f"The {len(deck)} cards derived here are the deck that was played" in result.inner_text()
    assert chain_line(version) in passed_checks(result)
    verify_panel = page.locator("section.verify")
    verify_panel.screenshot(path=str(screenshots / f"{ruleset}-verify-panel.png"))
    # A solitaire's deal may be dealt again: the share link is the game's same_deal.
    assert body["game"]["share"]["same_deal"] == {"ruleset": ruleset, "from_game": game_id}
    assert page.locator("#share-deal").get_attribute("href") == f"/play?from_game={game_id}"

    # The record downloads, and the API verifies it.
    with page.expect_download() as download:
        page.locator("#download-record").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert record["id"] == game_id and len(record["moves"]) == version
    _, _, verdict = call(base, "POST", "/v1/records/verify", record)
    assert verdict["valid"] is True

    # The replay steps back to the deal and forward again.
    slider = page.locator("#replay-at")
    slider.fill("0")
    slider.dispatch_event("change")
    page.locator(".replay-step[data-at='0']").wait_for()
    page.get_by_role("button", name="Next ▶").click()  # (an Adaman deal may end at once)
    page.locator(f".replay-step[data-at='{min(1, version)}']").wait_for()
    assert axe_scan(page) == []
    shoot(page, screenshots, f"{ruleset}-over")


def test_two_players_in_two_browsers(browser, live, console, screenshots):
    base, log = live
    alice = new_page(browser, console)
    requested = []  # every URL either page asks for: the waiting is done by streams
    alice.on("request", lambda r: requested.append(r.url))
    game_id = deal(alice, base, "royal-ace-assin", {1: "human"})
    link = alice.locator(".invite-link").input_value()
    assert re.fullmatch(rf"{re.escape(base)}/play/{game_id}#invite=[^&]+&seat=1", link)
    bob = new_page(browser, console, width=375)
    bob.on("request", lambda r: requested.append(r.url))
    bob.goto(link)
    bob.locator("text=You joined as seat 2.").wait_for()
    assert "#" not in bob.url  # the invite left the address bar once used
    tokens = [seat_token(alice, game_id), seat_token(bob, game_id)]
    assert all(tokens) and tokens[0] != tokens[1]
    rng = random.Random(7)
    waited = False
    for _ in range(MAX_CLICKS):
        if shown(alice)[0] != "playing" and shown(bob)[0] != "playing":
            break
        for page in (alice, bob):
            if shown(page)[0] == "playing" and playable(page)[0]:
                click_one(page, rng)
            elif shown(page)[0] == "playing":
                waited |= page.locator("#waiting").is_visible()
        # Each page follows the other's moves on its event stream.
        alice.wait_for_timeout(50)
    else:
        pytest.fail("the game did not end")
    assert waited  # someone was shown "waiting for your opponent"
    assert any(url.endswith(f"/v1/games/{game_id}/events") for url in requested)
    assert not any("wait=" in url for url in requested)  # not a single long-poll
    for page in (alice, bob):
        page.locator("[data-status]:not([data-status='playing'])").wait_for()
    assert shown(alice) == shown(bob)
    shoot(bob, screenshots, "royal-ace-assin-two-players")
    check_secret_deal_end(bob, base, game_id)
    # Once it is over every hidden placement and sealed flip is shown with its salt: the chain
    # checks from a seat and from a browser with no seat at all.
    spectator = new_page(browser, console)
    spectator.goto(f"{base}/play/{game_id}")
    for page in (bob, spectator):
        version = shown(page)[1]
        page.locator("#verify-deal").click()
        result = page.locator("#verify-result")
        result.wait_for()
        assert result.get_attribute("data-verified") == "true", result.inner_text()
        assert chain_line(version) in passed_checks(result)
    # Nor does the start page offer its deal again from a link.
    spectator.goto(f"{base}/play?from_game={game_id}")
    spectator.locator("text=this game deals only secret deals").wait_for()
    assert spectator.locator("[data-ruleset]").count() == 0
    # No seat's token or invite ever reached the server: they travel in the fragment.
    logged = Path(log).read_text()
    assert game_id in logged
    assert not any(t in logged for t in tokens)
    assert link.split("#invite=")[1].split("&")[0] not in logged


def test_against_a_bot(browser, base, console, screenshots):
    page = new_page(browser, console)
    deal(page, base, "royal-assassin-duel", {1: "bot:random"})
    rng = random.Random(3)
    for clicks in range(MAX_CLICKS):
        if shown(page)[0] != "playing":
            break
        if clicks == 4:
            assert axe_scan(page) == []
            shoot(page, screenshots, "royal-assassin-duel-vs-bot")
        click_one(page, rng)
    else:
        pytest.fail("the game did not end")
    assert "(bot) plays" in page.locator("#effects").inner_text()
    page.locator("[data-status]:not([data-status='playing'])").wait_for()
    check_secret_deal_end(page, base, game_id_of(page))


def test_a_stale_click_from_a_second_tab_is_refused_and_refreshed(browser, base):
    noticed = Console()
    first = new_page(browser, noticed)
    game_id = deal(first, base, "royal-assassin")
    second = noticed.watch(first.context.new_page())  # same browser: the same seat
    second.goto(f"{base}/play/{game_id}")
    second.locator("[data-move]").first.wait_for()
    click_one(first, random.Random(1))
    moves, controls = playable(second)
    controls.nth(moves[0][0]).click()  # still showing version 0
    message = second.locator("#message")
    message.wait_for()
    assert "refreshed" in message.inner_text()
    assert shown(second) == shown(first)
    # The browser reports the refused request itself, and nothing else went wrong.
    assert all("409" in e for e in noticed.errors), noticed.errors


def test_keyboard_only(browser, base, console):
    page = new_page(browser, console)
    deal(page, base, "royal-assassin")
    for expected in (1, 2, 3):
        page.keyboard.press("Tab")
        while page.evaluate("document.activeElement.dataset.move === undefined"):
            page.keyboard.press("Tab")
        if json.loads(page.evaluate("document.activeElement.dataset.move"))["type"] == "resign":
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.locator(f"[data-status][data-version='{expected}']").wait_for()


def test_the_browser_deals_like_the_server(browser, base, console):
    """deal.js is a second implementation of docs/deal-algorithm.md: the documented vectors,
    then random seeds and labels, item for item against domain/deal.py."""
    page = new_page(browser, console)
    page.goto(base + "/")
    page.locator("[data-ruleset]").first.wait_for()
    derive = """async ([seed, label, items]) => {
        const m = await import('/web/js/deal.js');
        return await m.shuffled(seed, label, items);
    }"""
    standard = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    assert page.evaluate(derive, ["royal", "deal", standard])[:3] == ["JH", "4S", "2C"]
    dice = page.evaluate("""async () => {
        const m = await import('/web/js/deal.js');
        const s = new m.DealStream('royal', 'dice');
        const out = [];
        for (let i = 0; i < 12; i++) out.push(await s.uniform(6) + 1);
        return out;
    }""")
    assert dice == [2, 3, 2, 5, 5, 2, 4, 4, 4, 5, 6, 4]
    assert page.evaluate(
        "async s => (await import('/web/js/deal.js')).sha256Hex(s)", "royal"
    ) == seed_commitment("royal")
    rng = random.Random(11)
    for _ in range(40):
        seed = "".join(rng.choice("abcXYZ019._:-") for _ in range(rng.randint(1, 30)))
        label = rng.choice(["deal", "goal", "reshuffle-3", "dice"])
        items = list(range(rng.randint(1, 110)))
        assert page.evaluate(derive, [seed, label, items]) == DealRandom(seed, label).shuffle(items)
    # Every ruleset's whole deal, as `court deal` prints it.
    # Every game with its default options, and the options that change what is dealt. The page
    # knows no game: it takes the plan the domain publishes, checks it, and shuffles it.
    every_deal = [(ruleset, {}) for ruleset in GAMES] + [
        ("royal-assassin", {"jokers_in_deck": True}),
        ("royal-assassin-duel", {"decks": 1}),
        ("adaman", {"excuse": True, "extra_personalities": 2}),
        ("adaman", {"pawns_and_courts": True}),
    ]
    for ruleset, options in every_deal:
        plan = [step.to_json() for step in get_ruleset(ruleset).deal_plan(options)]
        problem, derived = page.evaluate(
            """async ([plan, seed]) => {
                const deal = await import('/web/js/deal.js');
                return [deal.planProblem(plan), await deal.deriveDeck(plan, seed)];
            }""",
            [plan, "court-42"],
        )
        assert problem is None, (ruleset, problem)
        assert derived == get_ruleset(ruleset).deck("court-42", options), ruleset
    # A plan out of canonical order (a server choosing the deck) is refused.
    reordered = [{"label": "deal", "cards": ["2C", "AC", "3C"]}]
    problem = page.evaluate(
        "async (plan) => (await import('/web/js/deal.js')).planProblem(plan)", reordered
    )
    assert problem == "step deal: AC is out of canonical order"


CHAIN_JS = """async ([commitment, record]) => {
    const m = await import('/web/js/record.js');
    const bodies = [], hashes = [];
    let previous = commitment;
    for (const e of record.moves) {
        const fields = {seq: e.seq, seat: e.seat, move: e.move};
        if (e.salt !== undefined) fields.salt = e.salt;
        bodies.push(m.canonicalJson(fields));
        hashes.push(await m.moveHash(previous, e));
        previous = e.hash;
    }
    return {bodies, hashes, chain: await m.chainCheck(commitment, record)};
}"""


def test_the_browser_chains_like_the_server(browser, base, console):
    """record.js is a second implementation of docs/record-format.md's chain: canonical JSON
    byte for byte as Python's, each move's hash as domain.record.move_hash, on a real record of
    each format, a tampered one, and a log seen in part (moves without their salt)."""
    page = new_page(browser, console)
    page.goto(base + "/")
    page.locator("[data-ruleset]").first.wait_for()
    canonical = "async v => (await import('/web/js/record.js')).canonicalJson(v)"
    # Every escape Python writes (and the characters it keeps as they are: DEL, U+2028, U+2029),
    # keys in code point order (U+FFFF before U+1F600, which UTF-16 order would swap).
    tricky = {
        "text": "".join(map(chr, range(0x80))) + "\u2028\u2029\ufeff\u00e9\u20ac\U0001f600",
        "\uffff": [0, -7, 2**53 - 1, -(2**53 - 1), True, False, None, [], {}],
        "\U0001f600": {"b": [{"z": 1, "a": [2, "\u2028"]}], "A": '\\"/'},
        "é": "",
        "e": "\u0000\u001f",
    }
    assert page.evaluate(canonical, tricky) == canonical_json(tricky)
    for text in ["\n", "\u2028", "\u2029", "\x7f", "\x1f\x00", 'a"b\\c', "\U0010ffff"]:
        assert page.evaluate(canonical, text) == canonical_json(text), repr(text)
    # What Python cannot hash (a lone surrogate has no UTF-8) or this page cannot write as
    # Python did (a fraction, an integer JSON.parse rounded) is refused, never guessed.
    refused = """async v => {
        const m = await import('/web/js/record.js');
        try { m.canonicalJson(JSON.parse(v)); return null; }
        catch (e) { return e instanceof m.CanonicalJsonError ? 'refused' : String(e); }
    }"""
    for raw in ['"\\ud800"', '{"a": "x\\udc00"}', "1.5", "9007199254740993"]:
        assert page.evaluate(refused, raw) == "refused", raw
    with pytest.raises(UnicodeEncodeError):
        move_hash("", 1, 0, {"type": "\ud800"})

    # A real format 2 record: the docs' example game, played through the API.
    body = {"ruleset": "royal-assassin", "seed": "royal", "options": {"undo": True}}
    _, _, created = call(base, "POST", "/v1/games", body)
    game_id, token = created["game"]["id"], created["token"]
    moves = [{"type": "attack", "column": "hearts"}, {"type": "undo"}, {"type": "reserve"},
             {"type": "resign"}]  # fmt: skip
    for version, move in enumerate(moves):
        status, _, _ = call(base, "POST", f"/v1/games/{game_id}/moves",
                            {"version": version, "move": move}, token)  # fmt: skip
        assert status == 201
    _, _, record = call(base, "GET", f"/v1/games/{game_id}/record")
    assert record["format"] == "royal-court-record/2" and all("salt" in m for m in record["moves"])
    commitment = record["seed_commitment"]
    out = page.evaluate(CHAIN_JS, [commitment, record])
    previous, expected = commitment, []
    for entry in record["moves"]:
        fields = {k: entry[k] for k in ("seq", "seat", "move", "salt")}
        assert out["bodies"][entry["seq"] - 1] == canonical_json(fields)
        expected.append(move_hash(previous, entry["seq"], entry["seat"], entry["move"],
                                  entry["salt"]))  # fmt: skip
        previous = entry["hash"]
    assert out["hashes"] == expected == [m["hash"] for m in record["moves"]]
    assert out["chain"] == {"moves": 4, "broken": [], "unsalted": [], "last": previous}

    # One move changed, or one salt: that link breaks, and only that one.
    for field, value in (("move", {"type": "draw"}), ("salt", "0" * 64), ("seat", 1)):
        tampered = json.loads(json.dumps(record))
        tampered["moves"][2][field] = value
        assert page.evaluate(CHAIN_JS, [commitment, tampered])["chain"]["broken"] == [3], field
    assert page.evaluate(CHAIN_JS, [seed_commitment("other"), record])["chain"]["broken"] == [1]

    # The same game as a format 1 record (no salts, as games stored before format 2): the page
    # checks it as `court verify` does.
    old = {**json.loads(json.dumps(record)), "format": RECORD_FORMAT_V1}
    previous = commitment
    for entry in old["moves"]:
        del entry["salt"]
        entry["hash"] = previous = move_hash(previous, entry["seq"], entry["seat"], entry["move"])
    assert verify(old).valid
    assert page.evaluate(CHAIN_JS, [commitment, old])["chain"]["broken"] == []
    misread = record | {"format": RECORD_FORMAT_V1}  # format 2 hashes read as format 1
    assert page.evaluate(CHAIN_JS, [commitment, misread])["chain"]["broken"] == [1, 2, 3, 4]
    # The worked examples of docs/record-format.md, one of each format, chain here too.
    text = (ROOT / "docs" / "record-format.md").read_text()
    for block in text.split("```json\n")[1:3]:
        example = json.loads(block.split("\n```", 1)[0])
        chain = page.evaluate(CHAIN_JS, [example["seed_commitment"], example])["chain"]
        assert chain["broken"] == chain["unsalted"] == [] and chain["moves"], example["format"]

    # A two-seat game in play, as its human seat sees the log: the bot's placements come without
    # their salt, and the page checks every other link and leaves those alone.
    _, _, created = call(base, "POST", "/v1/games", {"ruleset": "royal-ace-assin", "seats": [
        {"player": "human"}, {"player": "bot", "policy": "random"}]})  # fmt: skip
    game_id, token = created["game"]["id"], created["token"]
    rng = random.Random(4)
    for _ in range(40):
        _, _, log = call(base, "GET", f"/v1/games/{game_id}/moves", token=token)
        if any("salt" not in m for m in log["moves"]):
            break
        _, _, now = call(base, "GET", f"/v1/games/{game_id}", token=token)
        legal = [m for m in now["view"]["legal_moves"] if m["type"] != "resign"]
        assert legal and now["game"]["status"] == "playing"
        call(base, "POST", f"/v1/games/{game_id}/moves",
             {"version": now["game"]["version"], "move": rng.choice(legal)}, token)  # fmt: skip
    hidden = [m["seq"] for m in log["moves"] if "salt" not in m]
    assert hidden and all(m["move"] == {"type": "place"} for m in log["moves"] if "salt" not in m)
    partial = {"format": "royal-court-record/2", "moves": log["moves"]}
    chain = page.evaluate(CHAIN_JS, [created["game"]["seed_commitment"], partial])["chain"]
    assert chain["unsalted"] == hidden and chain["broken"] == []


def test_the_verify_panel_names_the_first_broken_link(browser, base, console, screenshots):
    """A record whose chain was edited (here: served edited to the page) fails the panel's
    chain line, which names the first seq that does not chain."""
    body = {"ruleset": "royal-assassin", "seed": "royal", "options": {"undo": True}}
    _, _, created = call(base, "POST", "/v1/games", body)
    game_id, token = created["game"]["id"], created["token"]
    for version, move in enumerate([{"type": "attack", "column": "hearts"}, {"type": "resign"}]):
        call(base, "POST", f"/v1/games/{game_id}/moves", {"version": version, "move": move}, token)
    _, _, record = call(base, "GET", f"/v1/games/{game_id}/record")
    record["moves"][0]["move"] = {"type": "attack", "column": "spades"}
    page = new_page(browser, console)
    page.route(f"**/v1/games/{game_id}/record", lambda route: route.fulfill(json=record))
    page.goto(f"{base}/play/{game_id}")
    page.locator("#verify-deal").click()
    result = page.locator("#verify-result")
    result.wait_for()
    assert result.get_attribute("data-verified") == "false"
    failed = result.locator("li.bad")
    assert failed.count() == 1
    assert chain_line(2) in failed.inner_text()
    assert "the chain breaks at seq 1" in failed.inner_text()
    page.locator("section.verify").screenshot(path=str(screenshots / "verify-panel-broken.png"))


def test_daily_challenge_and_leaderboard(browser, base, console, screenshots):
    page = new_page(browser, console)
    page.goto(base + "/daily")
    page.get_by_label("Your name on the leaderboards").fill("Browser Player")
    page.get_by_role("button", name="Save").click()
    start = page.locator("[data-daily='royal-assassin']")
    start.wait_for()
    start.click()
    page.locator("[data-status]").wait_for()
    rng = random.Random(5)
    for _ in range(MAX_CLICKS):
        if shown(page)[0] != "playing":
            break
        click_one(page, rng)
    page.goto(base + "/daily")
    board = page.locator("[data-daily-ruleset='royal-assassin'] table.leaderboard")
    board.wait_for()
    assert "Browser Player" in board.inner_text()
    assert axe_scan(page) == []
    shoot(page, screenshots, "daily")


def test_undo_and_the_shared_deal(browser, base, console):
    """Casual play: the undo option is a checkbox, undo a legal move like any other. A finished
    game's share link deals the same cards to a new game."""
    page = new_page(browser, console)
    page.goto(base + "/")
    card = page.locator("[data-ruleset='royal-assassin']")
    card.locator("summary").click()
    card.get_by_label("undo", exact=True).check()
    card.locator("button[type=submit]").click()
    page.locator("[data-status]").wait_for()
    game_id = game_id_of(page)
    table = page.locator(".board .columns, .board [aria-label='Reserve']")
    before = table.all_inner_texts()
    click_one(page, random.Random(2))
    page.locator('[data-move=\'{"type":"undo"}\']').click()
    page.locator("[data-status][data-version='2']").wait_for()
    assert table.all_inner_texts() == before  # the log keeps both events (and counts undos)
    page.locator('[data-move=\'{"type":"resign"}\']').click()
    page.locator("[data-status]:not([data-status='playing'])").wait_for()

    page.locator("#share-deal").click()
    page.get_by_role("button", name="Play this deal").click()
    page.locator("[data-status][data-version='0']").wait_for()
    again = game_id_of(page)
    assert again != game_id
    _, _, first = call(base, "GET", f"/v1/games/{game_id}/replay?at=0")
    _, _, second = call(base, "GET", f"/v1/games/{again}")
    assert second["game"]["from_game"] == game_id
    assert second["view"]["reserve"] == first["view"]["reserve"]
