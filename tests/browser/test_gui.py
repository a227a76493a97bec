"""The GUI, driven in a real headless Chromium, on both ways it reaches c4, each served by
`c4 serve` as README.md starts it: c4 compiled to WebAssembly in a worker of the page (web/dist/
from web/build), and a native c4 per WebSocket (`?engine=native`).

Every answer the page shows is checked against c4 itself, run directly as a reference process:
the moves, the FEN, the highlighted winning cells (`status`), every column's score (`analyze`) and
the estimates where the solver does not play (`analyze stream`). Screenshots of each state go to
target/gui-screenshots/. Run it with tests/browser/run (see README.md, "The GUI").

Needs: Debian's chromium, and Playwright for Python (`pip install playwright`; its own browser
download is not used); the release c4 and web/dist/ built (tests/browser/run builds them). Waits are on conditions, with generous limits for a slow,
loaded machine; nothing is asserted after a fixed sleep.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
C4 = TARGET / "release" / "c4"
DIST = ROOT / "web" / "dist"
SHOTS = TARGET / "gui-screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 180_000  # the longest any condition may take on a loaded 2-core machine


class Reference:
    """c4 run directly: the answers the page must agree with."""

    def __init__(self):
        self.process = subprocess.Popen(
            [str(C4)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, command):
        """The reply's first line (after the marker) and its further lines; fails on `?`."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            assert line, f"the reference c4 ended after '{command}'"
            line = line.rstrip("\n")
            if line == "":
                break
            lines.append(line)
        head = lines[0]
        assert head.startswith("="), f"reference c4 refused '{command}': {head}"
        return head[2:] if len(head) > 1 else "", lines[1:]

    def refusal(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline().rstrip("\n")
        assert self.process.stdout.readline() == "\n"
        assert line.startswith("?"), f"reference c4 accepted '{command}'"
        return line[2:]

    def stream_until(self, command, done):
        """`analyze stream`'s info lines until `done(line)`; then ends the stream with `stop`."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().startswith("=")
        last = None
        while True:
            last = self.process.stdout.readline().rstrip("\n")
            if done(last):
                break
        self.process.stdin.write("stop\n")
        self.process.stdin.flush()
        while self.process.stdout.readline() != "\n":
            pass  # the rest of the stream
        assert self.process.stdout.readline().startswith("=")  # stop's reply
        self.process.stdout.readline()
        return last

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A server process on a free port of this machine, once it accepts connections."""

    def __init__(self, name, command, **popen):
        self.port = free_port()
        self.process = subprocess.Popen(
            [str(part) for part in command(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **popen,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, f"{name} did not start"
                assert self.process.poll() is None, f"{name} exited"
                time.sleep(0.1)
        self.url = f"http://127.0.0.1:{self.port}/"

    def close(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


class Server(Served):
    """`c4 serve` as README starts it, the native transport: the page of web/dist/ (or `dist`) and
    one `c4 --untrusted` (or `engine`, given with --engine) per WebSocket, from the page's own
    origin only."""

    def __init__(self, engine=None, dist=DIST):
        extra = ["--engine", engine] if engine is not None else []
        super().__init__("c4 serve", lambda port: [C4, "serve", "--port", port, "--dist", dist] + extra,
                         cwd=ROOT)
        # The page reaches this server's c4 through the WebSocket; the client, the same.
        self.page_url = f"{self.url}?engine=native"
        self.engine = f"ws://127.0.0.1:{self.port}/engine"

    def engines(self):
        """The engines c4 serve runs now (its children), read from /proc."""
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:
                continue  # the process ended meanwhile
            # pid (comm) state ppid ...: comm may hold spaces, so split after its ')'
            ppid = int(text[text.rindex(")") + 2:].split()[1])
            if ppid == self.process.pid and not text[text.rindex(")") + 2:].startswith("Z"):
                children.append(int(stat.parent.name))
        return children


class WorkerServer(Server):
    """`c4 serve`'s page without `?engine=native`: c4 as WebAssembly in a worker of the page, the
    page's default."""

    def __init__(self):
        super().__init__()
        self.page_url = self.url
        self.engine = "worker:"


# ------------------------------------------------------------------------------------------------
# Reading the page.

def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    print(f"  screenshot {name}.png")


def wait_turn(page, *turns):
    """Until the page waits for a person (or the game is over): no move or search in flight."""
    expr = " || ".join(f"document.body.dataset.turn === '{t}'" for t in turns)
    page.wait_for_function(expr, timeout=WAIT_MS)


def page_moves(page):
    text = page.input_value("#moves-text")
    if text == "":
        return []
    return [int(m) for m in (text.split(" ") if " " in text else list(text))]


def wait_moves(page, count):
    page.wait_for_function(
        """n => { const t = document.getElementById('moves-text').value;
                  return (t === '' ? 0 : (t.includes(' ') ? t.split(' ').length : t.length)) === n; }""",
        arg=count, timeout=WAIT_MS)


def moves_arg(moves):
    return " ".join(str(m) for m in moves)


def shown_scores(page):
    return page.eval_on_selector_all(
        "#scores .score",
        "cells => cells.map(c => ({kind: c.dataset.kind || null, score: c.dataset.score ?? null,"
        " words: c.dataset.words || '', title: c.title}))")


def expected_words(score, ply, cells, mover, other):
    """protocol.md's score, in the page's words, computed here independently."""
    if score == "full":
        return "full"
    score = int(score)
    if score == 0:
        return "draw"
    # A win on ply p scores (cells + 2 - p) // 2: the latest ply of the winner's (the mover's
    # are ply + 1, ply + 3, ...) that scores this much.
    first = ply + 1 if score > 0 else ply + 2
    win_ply = max(p for p in range(first, cells + 1, 2) if (cells + 2 - p) // 2 == abs(score))
    moves = (win_ply - first) // 2 + 1
    if score > 0:
        return f"{mover} wins now" if moves == 1 else f"{mover} wins in {moves}"
    return f"{other} wins in {moves}"


def check_exact_scores(page, ref, moves, mover, other, width=7, height=6):
    """Every column's shown score and words against `analyze`, and the best against `solve`."""
    page.wait_for_function(
        "document.getElementById('analysis').dataset.state === 'exact'", timeout=WAIT_MS)
    ref.ask(f"position startpos moves {moves_arg(moves)}" if moves else "position startpos")
    analyze, _ = ref.ask("analyze")
    want = analyze.split(" ")
    shown = shown_scores(page)
    ply = len(moves)
    for col, (w, s) in enumerate(zip(want, shown), start=1):
        if w == "full":
            assert s["words"] == "full", (col, s)
            continue
        assert s["kind"] == "exact" and s["score"] == w, f"column {col}: shown {s}, analyze {w}"
        words = expected_words(w, ply, width * height, mover, other)
        assert s["words"] == words, f"column {col}: shown '{s['words']}', expected '{words}'"
    # The best column's words against solve's own sentence (`x wins with its 4th stone, on ply 7`).
    solve, _ = ref.ask("solve")
    best = int(re.search(r"best (\d+)", solve).group(1))
    meaning = solve.split("; ")[1]
    title = shown[best - 1]["title"]
    if "draw" not in meaning:
        assert title.endswith(meaning), f"column {best}: '{title}' against solve's '{meaning}'"
    print(f"  scores after {moves_arg(moves) or 'no moves'}: {analyze}")


def winning_cells(page):
    return sorted(page.eval_on_selector_all(".cell.win", "cells => cells.map(c => c.dataset.cell)"))


def status_cells(status_lines):
    cells = set()
    for line in status_lines:
        if line.startswith("line "):
            cells.update(line.split(" ")[2:])
    return sorted(cells)


def click_column(page, col):
    page.click(f"#drops button[data-col='{col}']")


def new_game(page, width, height, connect, players, submit=True, early_draw=False):
    """Fills the new-game dialog: players is a list of (name, level)."""
    page.click("#new-game")
    expect(page.locator("#new-dialog")).to_be_visible()
    page.fill("#g-width", str(width))
    page.fill("#g-height", str(height))
    page.fill("#g-connect", str(connect))
    page.fill("#g-players", str(len(players)))
    page.set_checked("#g-early-draw", early_draw)
    rows = page.locator("#g-player-table tbody tr")
    expect(rows).to_have_count(len(players))
    for i, (name, level) in enumerate(players):
        rows.nth(i).locator(".p-name").fill(name)
        rows.nth(i).locator(".p-level").select_option(level)
    for i, (name, _) in enumerate(players):
        expect(page.locator("#g-player-table tbody tr").nth(i).locator(".p-name")).to_have_value(name)
    if not submit:
        return
    page.click("#new-start")
    expect(page.locator("#new-dialog")).to_be_hidden(timeout=WAIT_MS)


# ------------------------------------------------------------------------------------------------
# The tests, in order: each goes on from the state the last one left.

def test_protocol_client(page, ref, server):
    """web/c4-client.js alone, on its own connection: ids, one-line and multi-line replies,
    refusals in c4's words, analyze stream's lines as they come, and a connection that ends."""
    out = page.evaluate(
        """async (url) => {
          const { C4Client, RefusedError, ConnectionLost } = await import("/c4-client.js");
          const c4 = new C4Client(url);
          await c4.connect();
          const out = {};
          out.play = await c4.send("moves 4455");
          out.refused = await c4.send("play 99").then(() => null, (e) => [e instanceof RefusedError, e.command, e.message]);
          const lines = [];
          const stream = c4.send("analyze stream interval 86400000", { onLine: (line) => lines.push(line) });
          const deadline = Date.now() + 120000;
          while (lines.length < 8) {
            if (Date.now() > deadline) throw new Error(`8 info lines expected, got ${lines}`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          out.linesBeforeEnd = lines.length;
          const status = c4.send("status");
          out.stream = await stream;
          out.streamed = lines;
          out.status = await status;
          const quit = c4.send("quit");
          const after = c4.send("fen");
          out.quit = await quit;
          out.after = await after.then(() => null, (e) => [e instanceof ConnectionLost, e.command]);
          return out;
        }""",
        server.engine)
    ref.ask("new 7x6 connect 4 players 2")
    assert out["play"] == {"text": ref.ask("moves 4455")[0], "lines": []}, out["play"]
    assert out["refused"] == [True, "play 99", ref.refusal("play 99")], out["refused"]
    final = ref.stream_until("analyze stream interval 86400000", lambda l: l.endswith("pv 3 4 2"))
    # The lines go to onLine as they come, and the reply keeps none of them.
    assert out["linesBeforeEnd"] == 8 and out["streamed"][-1] == final, out["streamed"]
    assert out["stream"] == {"text": "", "lines": []}, out["stream"]
    assert out["status"] == {"text": "", "lines": ref.ask("status")[1]}, out["status"]
    assert out["quit"] == {"text": "", "lines": []} and out["after"] == [True, "fen"], out
    ref.ask("position startpos")


def upgrade(port, origin):
    """A WebSocket upgrade sent by hand to 127.0.0.1:`port` with `origin` (none if None): the
    open socket and the status line of the answer."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    request = (f"GET /engine HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n")
    if origin is not None:
        request += f"Origin: {origin}\r\n"
    s.sendall((request + "\r\n").encode())
    answer = b""
    while b"\r\n" not in answer:
        chunk = s.recv(4096)
        if not chunk:
            break
        answer += chunk
    return s, answer.split(b"\r\n")[0].decode()


def wait_engines(server, count):
    deadline = time.monotonic() + 60
    while len(server.engines()) != count:
        assert time.monotonic() < deadline, f"{len(server.engines())} engines, expected {count}"
        time.sleep(0.05)


def test_served_safely(context, server):
    """c4 serve's defences (docs/gui.md, "Who can reach what"): a WebSocket only from the page's
    own origin, at most 8 engines at once, and each engine refusing every file command. (The
    others, timeouts and caps, are tests/serve.rs's.)"""
    port = server.port
    # By hand: only the two forms of the page's own origin are served.
    for origin, expected in [(None, "403"), ("null", "403"), ("http://evil.example", "403"),
                             (f"http://evil.example:{port}", "403"), ("http://localhost:1", "403"),
                             (f"http://localhost.evil.example:{port}", "403"),
                             (f"http://localhost:{port}", "101"), (f"http://127.0.0.1:{port}", "101")]:
        s, status = upgrade(port, origin)
        s.close()
        assert status.split(" ")[1] == expected, (origin, status)
    # From a page of another site (served here by Playwright's routing, no network needed), in
    # the browser: the upgrade is refused, so the page never reaches c4.
    page = context.new_page()
    html = "<!doctype html><title>another site</title>"
    for other in ["http://evil.example/", f"http://localhost:{free_port()}/"]:
        page.route(other, lambda route: route.fulfill(status=200, content_type="text/html", body=html))
        page.goto(other)
        result = page.evaluate(
            """(url) => new Promise((resolve) => {
                 const ws = new WebSocket(url);
                 ws.onopen = () => { ws.send("save README.md"); resolve("open"); };
                 ws.onclose = (e) => resolve(`closed ${e.code}`);
               })""",
            f"ws://127.0.0.1:{port}/engine")
        assert result == "closed 1006", (other, result)
    page.close()
    # At most 8 engines at once: the main page's own connection is one of them.
    before = 1
    wait_engines(server, before)
    sockets, statuses = [], []
    for _ in range(9 - before):
        s, status = upgrade(port, f"http://localhost:{port}")
        sockets.append(s)
        statuses.append(status.split(" ")[1])
    assert statuses == ["101"] * (8 - before) + ["503"], statuses
    wait_engines(server, 8)
    for s in sockets:
        s.close()
    wait_engines(server, before)
    # Through the page's own origin, c4 refuses every file command and keeps its game.
    readme = (ROOT / "README.md").read_bytes()
    page = context.new_page()
    page.goto(server.page_url)
    out = page.evaluate(
        """async (url) => {
          const { C4Client } = await import("/c4-client.js");
          const c4 = new C4Client(url);
          await c4.connect();
          const out = [];
          for (const command of ["moves 44", "save README.md", "load /etc/passwd",
                                 "book load /dev/zero", "hash 16384", "threads 64", "fen"]) {
            out.push(await c4.send(command).then((r) => r.text, (e) => `? ${e.message}`));
          }
          await c4.send("quit");
          return out;
        }""",
        server.engine)
    page.close()
    untrusted = "this c4 serves untrusted clients (--untrusted)"
    assert out[0] == "ply 2, x to move", out
    assert all(reply.startswith("? ") and untrusted in reply for reply in out[1:6]), out
    assert out[-1] == "3x3/3o3/7/7/7/7 x", out
    assert (ROOT / "README.md").read_bytes() == readme


def test_page_without_its_engine(context):
    """The page served without its WebAssembly engine (a folder of web/'s files alone, as a
    static server would serve them) opened without ?engine=native: the page says where the
    engine is built, instead of only that it is away."""
    folder = Path(tempfile.mkdtemp(prefix="c4-gui-page-"))
    for name in ["index.html", "style.css", "app.js", "c4-client.js", "c4-worker.js"]:
        shutil.copy(ROOT / "web" / name, folder / name)
    server = Server(dist=folder)
    page = context.new_page()
    try:
        page.goto(server.url)
        expect(page.locator("#connection-text")).to_contain_text(
            "The engine is not answering: the engine could not be loaded: the server answered 404 "
            "for /c4.wasm; web/build builds it", timeout=WAIT_MS)
    finally:
        page.close()
        server.close()
        shutil.rmtree(folder)


def test_poisoned_saved_game(context, server):
    """A saved game whose player colour would be markup if put into the page as it is
    (`#000"><img ...>`) runs nothing and adds nothing: the page refuses the record, says why,
    and starts a new game. So does a record with moves off its board."""
    poison = '#000"><img src=x onerror=window.__pwned=1>'
    players = [{"token": "x", "name": "Ann", "colour": poison, "level": "person"},
               {"token": "o", "name": "Bob", "colour": "#f2b705", "level": "person"}]
    record = {"width": 7, "height": 6, "connect": 4, "earlyDraw": False, "players": players,
              "start": None, "moves": [4, 4]}
    for saved, fault in [(record, "player 1's colour is not a colour (#rrggbb)"),
                         ({**record, "players": players[1:] + [{**players[1], "token": "x"}],
                           "moves": [4, 9]}, "its moves are not columns of its board"),
                         ("{not json", "it is not a record of a game")]:
        text = saved if isinstance(saved, str) else json.dumps(saved)
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('c4-gui-game', {json.dumps(text)});")
        page.goto(server.page_url)
        wait_turn(page, "person")
        expect(page.locator("#message-text")).to_have_text(
            f"The game saved in this browser could not be used ({fault}); a new game starts.")
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert page.locator("img").count() == 0
        assert page_moves(page) == [], page_moves(page)
        expect(page.locator("#players li .name")).to_have_text(["You (x)", "Computer (o)"])
        page.close()


def test_foreign_engine(context, server):
    """`?engine=` naming a WebSocket elsewhere than the page's own server (here a socket of the
    test's own, on 127.0.0.2) is reached only if the user confirms: dismissed, nothing connects
    to it, and the page says so and plays in the page; confirmed, the page connects to it."""
    listener = socket.socket()
    listener.bind(("127.0.0.2", 0))
    listener.listen()
    foreign = f"ws://127.0.0.2:{listener.getsockname()[1]}/"
    try:
        page = context.new_page()
        asked = []
        page.on("dialog", lambda dialog: (asked.append((dialog.type, dialog.message)), dialog.dismiss()))
        page.goto(f"{server.url}?engine={foreign}")
        expect(page.locator("#message-text")).to_have_text(
            f"The engine at {foreign} was not used (it is not this page's own server); c4 runs in "
            "this page instead.", timeout=WAIT_MS)
        wait_turn(page, "person")
        assert len(asked) == 1 and asked[0][0] == "confirm" and foreign in asked[0][1], asked
        page.close()
        listener.setblocking(False)
        try:
            connection, _ = listener.accept()
            connection.close()
            raise AssertionError(f"the page connected to {foreign}, which the user declined")
        except BlockingIOError:
            pass  # nothing came
        # Confirmed, it connects (the check above can see a connection).
        listener.setblocking(True)
        listener.settimeout(WAIT_MS / 1000)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{server.url}?engine={foreign}")
        connection, _ = listener.accept()
        request = connection.recv(4096).decode(errors="replace").lower()
        connection.close()
        page.close()
        assert request.startswith("get / http/1.1") and "upgrade: websocket" in request, request
    finally:
        listener.close()


def test_page_engine_refusals(context, server):
    """c4 in the page's worker refuses what a page cannot do (docs/gui.md): files, threads,
    tables past 1 GiB, the UGI dialect; in its own words, keeping its game."""
    page = context.new_page()
    page.goto(server.page_url)
    out = page.evaluate(
        """async (engine) => {
          const { C4Client } = await import("/c4-client.js");
          const c4 = new C4Client(engine);
          await c4.connect();
          const out = [];
          for (const command of ["moves 44", "save README.md", "load /etc/passwd",
                                 "book load c4.book", "hash 2048", "threads 2", "ugi", "fen"]) {
            out.push(await c4.send(command).then((r) => r.text, (e) => `? ${e.message}`));
          }
          c4.close();
          return out;
        }""",
        server.engine)
    page.close()
    web_page = "this c4 runs in a web page (WebAssembly)"
    assert out[0] == "ply 2, x to move", out
    assert all(reply.startswith("? ") and web_page in reply for reply in out[1:6]), out
    assert out[6] == "? unknown command 'ugi'; 'help' lists the commands", out
    assert out[-1] == "3x3/3o3/7/7/7/7 x", out


def first_scores_ms(page):
    """The time from the start of the page's loading to its first exact scores on screen (to
    the 5 ms the page is looked at; animation frames are not used: a page not in front has
    none)."""
    return page.wait_for_function(
        "() => document.getElementById('analysis').dataset.state === 'exact' && performance.now()",
        polling=5, timeout=WAIT_MS).json_value()


def test_first_look_and_keyboard(page, ref):
    """The default game; the first move by keyboard alone; the book's scores at once."""
    wait_turn(page, "person")
    expect(page.locator("#status")).to_have_text("You (x) to move.")
    expect(page.locator("#engine")).to_have_text(re.compile(r"^Engine: c4 \d+\.\d+\.\d+, protocol 3$"))
    check_exact_scores(page, ref, [], "x", "o")
    shot(page, "01-start")
    page.focus("#board")
    for _ in range(3):
        page.keyboard.press("ArrowRight")  # the cursor starts on column 4: to 7, then back to 4
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    wait_moves(page, 2)
    wait_turn(page, "person")
    moves = page_moves(page)
    assert moves[0] == 4, moves
    check_exact_scores(page, ref, moves, "x", "o")
    # The protocol log shows the page's commands with their ids, and c4's replies.
    page.click("#log-box summary")
    # (the stream's empty line, which the play ends, comes before the play's reply)
    expect(page.locator("#log")).to_contain_text(re.compile(r"> (\d+) play 4\n< \n< =\1 ply 1, o to move\n"))
    expect(page.locator("#log")).to_contain_text("analyze stream interval 250")
    shot(page, "02-keyboard-move")
    page.click("#log-box summary")
    # A drop button pressed by keyboard leaves the focus on the buttons (or, while they cannot be
    # pressed, on the board), not on the page.
    page.focus("#drops .drop[data-col='3']")
    page.keyboard.press("Enter")
    wait_moves(page, 4)
    wait_turn(page, "person")
    assert page.evaluate("document.activeElement.matches('#drops .drop, #board')"), \
        page.evaluate("document.activeElement.outerHTML")


def test_win_against_computer(page, ref):
    """x (the test, playing c4's perfect moves) against a look-ahead computer, to a win."""
    new_game(page, 7, 6, 4, [("Ann", "person"), ("Computer", "lookahead 2")])
    wait_turn(page, "person")
    expect(page.locator("#players li").nth(1)).to_contain_text("look-ahead 2")
    checked = 0
    while page.evaluate("document.body.dataset.turn") != "over":
        moves = page_moves(page)
        ref.ask(f"position startpos moves {moves_arg(moves)}" if moves else "position startpos")
        if len(moves) <= 8 and checked < 4:
            check_exact_scores(page, ref, moves, "x", "o")
            checked += 1
        reply, _ = ref.ask("go")
        col = int(reply.split(" ")[1])
        click_column(page, col)
        page.wait_for_function(
            "n => document.body.dataset.turn === 'over' || ("
            "document.body.dataset.turn === 'person' &&"
            " document.getElementById('moves-text').value.length === n)",
            arg=len(moves) + 2, timeout=WAIT_MS)
    assert checked >= 2, "too few positions were checked against analyze"
    moves = page_moves(page)
    ref.ask(f"position startpos moves {moves_arg(moves)}")
    _, status = ref.ask("status")
    assert "result win x" in status, status
    assert page.input_value("#fen") == ref.ask("fen")[0]
    assert winning_cells(page) == status_cells(status), (winning_cells(page), status)
    expect(page.locator("#status")).to_contain_text("Ann (x) wins with a ")
    print(f"  won: {moves_arg(moves)}; {page.inner_text('#status')}")
    shot(page, "03-win")
    return moves


def test_undo_and_hint(page, ref, won):
    """Undo takes back the winning move; a hint names the same column as c4's `hint`."""
    page.click("#undo")
    wait_moves(page, len(won) - 1)
    wait_turn(page, "person")
    ref.ask(f"position startpos moves {moves_arg(won[:-1])}")
    assert page.input_value("#fen") == ref.ask("fen")[0]
    assert winning_cells(page) == []
    page.click("#hint")
    hint, _ = ref.ask("hint")
    expect(page.locator("#message-text")).to_have_text(f"Hint: {hint}.", timeout=WAIT_MS)
    col = re.search(r"column (\d+)", hint).group(1)
    expect(page.locator(f"#drops button[data-col='{col}']")).to_have_class(re.compile("hinted"))
    check_exact_scores(page, ref, won[:-1], "x", "o")
    shot(page, "04-undo-hint")


def test_refusals(page, ref):
    """A command c4 refuses shows c4's own message and changes nothing."""
    before = page.input_value("#fen")
    bad = "8/7/7/7/7/7 x"  # ragged rows: c4 names the row
    page.fill("#paste", bad)
    page.press("#paste", "Enter")
    message = ref.refusal(f"position fen {bad}")
    expect(page.locator("#message")).to_have_class(re.compile("error"), timeout=WAIT_MS)
    expect(page.locator("#message-text")).to_have_text(f"c4 refused 'position fen {bad}': {message}")
    wait_turn(page, "person")
    assert page.input_value("#fen") == before
    shot(page, "05-refused")


def test_paste_moves(page, ref):
    """A pasted move list sets the position; the scores come from the book at once."""
    page.fill("#paste", "4343")
    page.press("#paste", "Enter")
    page.wait_for_function("document.getElementById('moves-text').value === '4343'", timeout=WAIT_MS)
    wait_turn(page, "person")
    check_exact_scores(page, ref, [4, 3, 4, 3], "x", "o")
    page.click("#message-close")
    shot(page, "00-readme")  # wins, draws and losses side by side: README.md's picture
    # A one-row board's FEN has no '/': "fen" says it is one (read as moves, it is refused).
    for pasted, fen in [("fen 2x3o x", "2x3o x"), ("fen 7/7/7/7/7/7 x", "7/7/7/7/7/7 x")]:
        page.fill("#paste", pasted)
        page.press("#paste", "Enter")
        page.wait_for_function(f"document.getElementById('fen').value === '{fen}'", timeout=WAIT_MS)
    page.fill("#paste", "moves 44")
    page.press("#paste", "Enter")
    page.wait_for_function("document.getElementById('moves-text').value === '44'", timeout=WAIT_MS)
    wait_turn(page, "person")
    page.fill("#paste", "4453")
    page.press("#paste", "Enter")
    page.wait_for_function("document.getElementById('moves-text').value === '4453'", timeout=WAIT_MS)
    wait_turn(page, "person")
    ref.ask("position startpos moves 4453")
    assert page.input_value("#fen") == ref.ask("fen")[0]
    check_exact_scores(page, ref, [4, 4, 5, 3], "x", "o")


def test_engine_killed(page, ref, server):
    """The engine dies mid-game: the page says so, reconnects, restores the game, plays on."""
    click_column(page, 2)
    wait_moves(page, 6)
    wait_turn(page, "person")
    moves = page_moves(page)
    fen = page.input_value("#fen")
    engines = server.engines()
    assert len(engines) == 1, engines
    os.kill(engines[0], signal.SIGKILL)
    expect(page.locator("#connection")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#connection-text")).to_contain_text("not answering")
    shot(page, "06-engine-gone")
    expect(page.locator("#connection")).to_be_hidden(timeout=WAIT_MS)
    wait_turn(page, "person")
    assert server.engines() != engines, "the same c4 process again"
    assert page_moves(page) == moves and page.input_value("#fen") == fen
    check_exact_scores(page, ref, moves, "x", "o")
    # A reload keeps the game too: the page's record is in the browser's storage.
    page.reload()
    wait_turn(page, "person")
    assert page_moves(page) == moves and page.input_value("#fen") == fen
    # and the game goes on
    click_column(page, 1)
    wait_moves(page, len(moves) + 2)
    wait_turn(page, "person", "over")
    ref.ask(f"position startpos moves {moves_arg(page_moves(page))}")
    assert page.input_value("#fen") == ref.ask("fen")[0]
    shot(page, "07-restored")


def test_three_players(page, ref):
    """9x7, connect 5, three players: shapes, estimates against c4's own, computers move."""
    new_game(page, 9, 7, 5, [("Ann", "person"), ("Bob", "perfect"), ("Cy", "lookahead 2")], submit=False)
    # A token twice: c4 refuses the game, and says why in the dialog, which stays open.
    third = page.locator("#g-player-table tbody tr").nth(2).locator(".p-token")
    third.fill("o")
    page.click("#new-start")
    message = ref.refusal("new 9x7 connect 5 tokens xoo early-draw on")
    expect(page.locator("#new-error")).to_have_text(f"c4 refused it: {message}", timeout=WAIT_MS)
    shot(page, "08-refused-tokens")
    # A '#' would cut the line (the rest a comment): the page says so itself.
    third.fill("#")
    page.click("#new-start")
    expect(page.locator("#new-error")).to_have_text("A token cannot be a space or '#': player 3's is '#'.")
    third.fill("a")
    page.click("#new-start")
    expect(page.locator("#new-dialog")).to_be_hidden(timeout=WAIT_MS)
    # The old board stays until c4 has accepted the new game: wait for the new one first.
    expect(page.locator("#board .cell")).to_have_count(63, timeout=WAIT_MS)
    wait_turn(page, "person")
    expect(page.locator("#players li .name")).to_have_text(["Ann (x)", "Bob (o)", "Cy (a)"])
    for col in (5, 4, 6):
        n = len(page_moves(page))
        click_column(page, col)
        wait_moves(page, n + 3)
        wait_turn(page, "person", "over")
    moves = page_moves(page)
    shapes = page.eval_on_selector_all(
        "#board .cell[data-token] .token", "ts => [...new Set(ts.map(t => t.classList[1]))].sort()")
    assert shapes == ["circle", "square", "triangle"], shapes
    page.wait_for_function(
        "document.getElementById('analysis').dataset.state === 'estimate'"
        " && document.getElementById('analysis').dataset.depth === '5'", timeout=WAIT_MS)
    ref.ask("new 9x7 connect 5 players 3")
    ref.ask(f"position startpos moves {moves_arg(moves)}")
    assert page.input_value("#fen") == ref.ask("fen")[0]
    final = ref.stream_until("analyze stream interval 86400000", lambda l: l.startswith("info depth 5"))
    values = final.split(" values ")[1].split(" pv ")[0].split(" ")
    shown = [s["score"] if s["kind"] == "value" else "full" for s in shown_scores(page)]
    assert shown == values, (shown, values)
    print(f"  3 players after {moves_arg(moves)}: {final}")
    shot(page, "09-three-players")
    ref.ask("new 7x6 connect 4 players 2")


def test_early_draw(page, ref):
    """With the early draw rule chosen, a game nobody can win is a draw at once, and the page
    says why; without it (standard rules, the dialog's default) the same game goes on."""
    new_game(page, 2, 2, 3, [("Ann", "person"), ("Bob", "person")])
    wait_turn(page, "person")
    expect(page.locator("#status")).to_have_text(
        "Ann (x) to move. Nobody can complete a line of 3 any more: the game will be a draw.")
    new_game(page, 2, 2, 3, [("Ann", "person"), ("Bob", "person")], early_draw=True)
    wait_turn(page, "over")
    ref.ask("new 2x2 connect 3 players 2 early-draw on")
    _, status = ref.ask("status")
    assert "result draw no-line-left" in status, status
    expect(page.locator("#status")).to_have_text(
        "Draw: nobody can complete a line of 3 any more (4 cells still empty).")
    expect(page.locator("#hint")).to_be_disabled()
    shot(page, "10-early-draw")
    ref.ask("new 7x6 connect 4 players 2 early-draw off")


def test_other_board(page, ref):
    """Exact scores in words on other boards the solver plays, with no book: 6x5 (30 cells), and
    5x5, whose odd number of cells makes the first player's wins score one more than the
    second's (x wins now, at the end)."""
    for width, height, columns in ((6, 5, (3, 3, 1)), (5, 5, (1, 1, 2, 2, 3, 3))):
        new_game(page, width, height, 4, [("Ann", "person"), ("Bob", "person")])
        wait_turn(page, "person")
        ref.ask(f"new {width}x{height} connect 4 players 2")
        for n, col in enumerate(columns, start=1):
            click_column(page, col)
            wait_moves(page, n)
            wait_turn(page, "person")
            check_exact_scores(page, ref, page_moves(page), "xo"[n % 2], "ox"[n % 2],
                               width=width, height=height)
    assert shown_scores(page)[3]["words"] == "x wins now"
    shot(page, "11-five-by-five")
    ref.ask("new 7x6 connect 4 players 2")


def test_undo_while_thinking(page, ref, server, native):
    """The computer searching on 8x7, which has no book (its first reply takes minutes). Natively,
    the engine is killed: restored, the computer searches again. A refused paste leaves it
    searching; undo then stops the search and takes back the person's move and the computer's:
    natively with `stop` (the move it answers is taken back), in a worker by a fresh worker set up
    with the game (the search answers nothing)."""
    new_game(page, 8, 7, 4, [("Ann", "person"), ("Computer", "perfect")])
    wait_turn(page, "person")
    # While a change of position is read from c4, the page takes no move (a click would be lost):
    # turning the scores off and on reads the position again, and right after each the drop
    # buttons are off and the page says so.
    for _ in range(2):
        turn, enabled = page.evaluate(
            """() => {
              document.getElementById('show-scores').click();
              return [document.body.dataset.turn,
                      document.querySelectorAll('#drops button:enabled').length];
            }""")
        assert (turn, enabled) == ("busy", 0), (turn, enabled)
        wait_turn(page, "person")
    expect(page.locator("#show-scores")).to_be_checked()
    click_column(page, 4)
    page.wait_for_function("document.body.dataset.turn === 'computer'", timeout=WAIT_MS)
    expect(page.locator("#status")).to_contain_text("Computer (o) is thinking…")
    if native:
        engines = server.engines()
        for pid in engines:
            os.kill(pid, signal.SIGKILL)
        expect(page.locator("#connection")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#connection")).to_be_hidden(timeout=WAIT_MS)
        page.wait_for_function("document.body.dataset.turn === 'computer'", timeout=WAIT_MS)
        expect(page.locator("#status")).to_contain_text("Computer (o) is thinking…")
    assert page.input_value("#moves-text") == "4"
    shot(page, "12-thinking")
    # A paste c4 refuses, while the computer thinks, changes nothing: the search it stopped is
    # undone, and the computer thinks again.
    bad = "9/8/8/8/8/8/8 x"
    page.fill("#paste", bad)
    page.press("#paste", "Enter")
    expect(page.locator("#message")).to_have_class(re.compile("error"), timeout=WAIT_MS)
    expect(page.locator("#message-text")).to_contain_text(f"c4 refused 'position fen {bad}'")
    page.wait_for_function("document.body.dataset.turn === 'computer'", timeout=WAIT_MS)
    expect(page.locator("#status")).to_contain_text("Computer (o) is thinking…")
    assert page.input_value("#moves-text") == "4"
    started = time.monotonic()
    page.click("#undo")
    page.wait_for_function(
        "document.body.dataset.turn === 'person' && document.getElementById('moves-text').value === ''",
        timeout=WAIT_MS)
    took = time.monotonic() - started
    print(f"  the search stopped and both moves were taken back in {took:.1f} s")
    # A search of this position runs for minutes (to the 60 s cap in a worker): the undo did not
    # wait for it.
    assert took < 20, f"the undo took {took:.1f} s: it waited for the search"
    page.click("#log-box summary")
    if native:
        expect(page.locator("#log")).to_contain_text(
            re.compile(r"> (\d+) genmove perfect\n> \d+ stop\n< =\1 bestmove"))
    else:
        # The search answers nothing; the fresh worker is set up with the game, then the undo.
        expect(page.locator("#log")).to_contain_text(re.compile(
            r"> \d+ genmove perfect\n> \d+ new 8x7 connect 4 tokens xo early-draw off\n"
            r"> \d+ name x Ann\n> \d+ name o Computer\n> \d+ position startpos moves 4\n"
            r"> \d+ undo 1\n"))
    page.click("#log-box summary")
    assert page.input_value("#fen") == "8/8/8/8/8/8/8 x"


def test_phone(browser_context, server, ref):
    """A phone-sized screen: the board and its scores fit the width."""
    page = browser_context.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_default_timeout(WAIT_MS)
    page.goto(server.page_url)
    # The saved game (the last step's, a person to move) restored first: a game started before the
    # engine is connected is refused, as the dialog says.
    wait_turn(page, "person")
    new_game(page, 7, 6, 4, [("Ann", "person"), ("Computer", "perfect")])
    wait_turn(page, "person")
    click_column(page, 4)
    wait_moves(page, 2)
    wait_turn(page, "person")
    check_exact_scores(page, ref, page_moves(page), "x", "o")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"
    shot(page, "13-phone")
    page.close()


def test_other_protocol(context):
    """An engine that speaks another protocol version: the page says so and offers Reconnect,
    instead of waiting at 'Connecting…'."""
    folder = Path(tempfile.mkdtemp(prefix="c4-gui-fake-"))
    fake = folder / "engine"
    fake.write_text('#!/bin/sh\nwhile IFS= read -r line; do echo "=${line%% *} 2"; echo; done\n')
    fake.chmod(0o755)
    server = Server(engine=fake)
    page = context.new_page()
    try:
        page.goto(server.page_url)
        expect(page.locator("#connection-text")).to_have_text(
            "The engine cannot be used: c4 speaks protocol 2; this page speaks 3", timeout=WAIT_MS)
        expect(page.locator("#reconnect")).to_be_visible()
        shot(page, "14-other-protocol")
    finally:
        page.close()
        server.close()
        shutil.rmtree(folder)


def test_under_csp(browser_type, server):
    """The page as c4 serve serves it, its Content-Security-Policy enforced (the other steps'
    browser bypasses it, so that Playwright may evaluate the test's own expressions in the page):
    it loads, reaches its engine, shows exact scores and plays a game's first moves, and breaks no
    rule of the policy (each violation is an error in the console)."""
    browser = browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        page = browser.new_context(viewport={"width": 1100, "height": 820}).new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(server.page_url)
        expect(page.locator("#analysis")).to_have_attribute("data-state", "exact", timeout=WAIT_MS)
        expect(page.locator("#engine")).to_have_text(re.compile(r"^Engine: c4 \d+\.\d+\.\d+"))
        expect(page.locator("#players li .token")).to_have_count(2)
        page.click("#drops button[data-col='4']")
        # You (x) against the computer: its answer follows.
        expect(page.locator("#moves-text")).to_have_value(re.compile(r"^4\d$"), timeout=WAIT_MS)
        expect(page.locator("#analysis")).to_have_attribute("data-state", "exact", timeout=WAIT_MS)
        shot(page, "15-under-csp")
        assert not errors, f"errors in the page under its CSP: {errors}"
    finally:
        browser.close()


def steps(transport, server, context, page, ref, browser_type):
    """The checks for one way of reaching c4, in order. The worker has no process to kill and no
    server to defend: those checks are the native engine's only; it has the page's refusals
    instead."""
    state = {}
    native = transport == "native"
    return [
        ("protocol client", lambda: test_protocol_client(page, ref, server)),
        ("under the server's Content-Security-Policy", lambda: test_under_csp(browser_type, server)),
        ("served safely", lambda: test_served_safely(context, server)) if native else
        ("refusals of the page's engine", lambda: test_page_engine_refusals(context, server)),
        ("first look and keyboard", lambda: test_first_look_and_keyboard(page, ref)),
        ("win against the computer", lambda: state.update(won=test_win_against_computer(page, ref))),
        ("undo and hint", lambda: test_undo_and_hint(page, ref, state["won"])),
        ("refused command", lambda: test_refusals(page, ref)),
        ("pasted moves", lambda: test_paste_moves(page, ref)),
    ] + ([("engine killed mid-game", lambda: test_engine_killed(page, ref, server)),
          ("the page without its engine", lambda: test_page_without_its_engine(context))]
         if native else []) + [
        ("three players, 9x7, connect 5", lambda: test_three_players(page, ref)),
        ("early draw", lambda: test_early_draw(page, ref)),
        ("another board", lambda: test_other_board(page, ref)),
        ("undo while the computer thinks", lambda: test_undo_while_thinking(page, ref, server, native)),
        ("phone-sized screen", lambda: test_phone(context, server, ref)),
    ] + ([("another protocol version", lambda: test_other_protocol(context))] if native else []) + [
        # Last: each rewrites the game saved in the browser.
        ("a poisoned saved game", lambda: test_poisoned_saved_game(context, server)),
        ("an engine elsewhere", lambda: test_foreign_engine(context, server)),
    ]


def run_transport(transport, server, browser, ref):
    """Every step on one transport, in a browser profile of its own; the number that failed."""
    global SHOTS
    shots = SHOTS
    SHOTS = shots / transport
    profile = tempfile.mkdtemp(prefix="c4-gui-chromium-")
    failures = 0
    try:
        context = browser.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1100, "height": 820}, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(server.page_url)
        print(f"{transport}: first exact scores {first_scores_ms(page):.0f} ms after the page "
              "started loading (no cache)", flush=True)
        for name, step in steps(transport, server, context, page, ref, browser):
            started = time.monotonic()
            print(f"{transport}, {name}:", flush=True)
            try:
                step()
                print(f"  ok ({time.monotonic() - started:.1f} s)", flush=True)
            except Exception:
                failures += 1
                traceback.print_exc()
                shot(page, f"failed-{name.replace(' ', '-')}")
                break  # the later steps go on from this one's state
        assert not errors, f"errors in the page: {errors}"
        context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
        SHOTS = shots
    return failures


def main():
    assert C4.exists(), f"{C4} is missing: cargo build --release"
    assert (DIST / "c4.wasm").exists(), f"{DIST} is missing: web/build"
    if SHOTS.exists():
        shutil.rmtree(SHOTS)
    ref = Reference()
    failures = 0
    try:
        with sync_playwright() as p:
            for transport, serve in [("worker", WorkerServer), ("native", Server)]:
                server = serve()
                try:
                    failures += run_transport(transport, server, p.chromium, ref)
                finally:
                    server.close()
    finally:
        ref.close()
    print(f"screenshots in {SHOTS}")
    if failures:
        print("browser test FAILED")
        sys.exit(1)
    print("browser test passed")


if __name__ == "__main__":
    main()
