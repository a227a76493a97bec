"""c4 serve under two loads, measured by hand (docs/gui.md, "Measured"), not a test: one WebSocket
message of 128 MiB, and 5,000 half-open connections. It starts its own `c4 serve` (the release
build) on a free port of 127.0.0.1, under a soft open-file limit of 1024 as many systems set it
(c4 serve lifts it to the hard limit), talks to nothing else, and stops by itself.

    python3 tests/browser/serve_load.py        # after cargo build --release and web/build

For each load it prints the server's resident memory before and at its peak (VmHWM), and whether
a real connection still plays a protocol line meanwhile.
"""

import os
import resource
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
C4 = TARGET / "release" / "c4"
DIST = ROOT / "web" / "dist"
HALF_OPEN = 5000
MESSAGE = 128 << 20


def memory(pid):
    """The process's resident memory now and at its peak, in MiB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return tuple(int(fields[name].split()[0]) / 1024 for name in ("VmRSS", "VmHWM"))


def websocket(port):
    """A WebSocket to the server's engine, from the page's origin, the handshake read."""
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall((f"GET /engine HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        assert chunk, f"no answer to the upgrade: {head!r}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def frame_header(length, final=True, opcode=1):
    """A client's (masked, with a zero mask) frame header for `length` bytes of payload."""
    first = (0x80 if final else 0) | opcode
    if length < 126:
        return struct.pack("!BB", first, 0x80 | length) + b"\0\0\0\0"
    if length < 1 << 16:
        return struct.pack("!BBH", first, 0x80 | 126, length) + b"\0\0\0\0"
    return struct.pack("!BBQ", first, 0x80 | 127, length) + b"\0\0\0\0"


def read_frame(s):
    """The next frame from the server: (opcode, payload)."""
    def exactly(n):
        data = b""
        while len(data) < n:
            chunk = s.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data
    first, second = exactly(2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", exactly(2))[0]
    elif length == 127:
        length = struct.unpack("!Q", exactly(8))[0]
    return first & 0x0F, exactly(length)


def plays(port):
    """Whether a new connection plays a protocol line."""
    s = websocket(port)
    line = b"1 moves 4453\n"
    s.sendall(frame_header(len(line)) + line)
    while True:
        opcode, payload = read_frame(s)
        if opcode == 1:
            s.close()
            return payload == b"=1 ply 4, x to move"


def send_message(port, fragment):
    """Sends one 128 MiB message (in one frame, or in frames of `fragment` bytes) until the
    server stops taking it; the bytes sent and the server's close frame."""
    s = websocket(port)
    chunk = b"x" * (1 << 20)
    sent = 0
    try:
        if fragment is None:
            s.sendall(frame_header(MESSAGE))
            while sent < MESSAGE:
                s.sendall(chunk)
                sent += len(chunk)
        else:
            piece = b"x" * fragment
            first = True
            while sent < MESSAGE:
                final = sent + fragment >= MESSAGE
                s.sendall(frame_header(fragment, final, 1 if first else 0) + piece)
                first = False
                sent += fragment
    except OSError:
        pass  # closed by the server
    s.settimeout(10)
    try:
        while True:
            opcode, payload = read_frame(s)
            if opcode == 8:
                return sent, struct.unpack("!H", payload[:2])[0], payload[2:].decode()
    except (EOFError, OSError):
        return sent, None, "no close frame"
    finally:
        s.close()


def main():
    assert C4.exists() and (DIST / "index.html").exists(), "cargo build --release, web/build"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this script's own sockets
    server = subprocess.Popen(
        ["bash", "-c", 'ulimit -Sn 1024 && exec "$0" serve --port 0 --dist "$1"', C4, DIST],
        stderr=subprocess.PIPE, text=True)
    try:
        first = server.stderr.readline()
        port = int(first.split("http://127.0.0.1:")[1].split("/")[0])
        limit = Path(f"/proc/{server.pid}/limits").read_text()
        print("server open-file limit:", [l for l in limit.splitlines() if "open files" in l][0])
        assert plays(port)
        before = memory(server.pid)
        print(f"idle, one game played: {before[0]:.1f} MiB resident")
        for fragment, name in [(None, "one frame"), (60 * 1024, "frames of 60 KiB")]:
            sent, code, reason = send_message(port, fragment)
            now, peak = memory(server.pid)
            print(f"128 MiB message in {name}: {sent / 2**20:.0f} MiB sent before the server "
                  f"closed with {code} '{reason}'; server {now:.1f} MiB now, peak {peak:.1f} MiB "
                  f"(+{peak - before[1]:.1f}); a new connection plays: {plays(port)}")
        started = time.monotonic()
        half_open = []
        for i in range(HALF_OPEN):
            s = socket.create_connection(("127.0.0.1", port), timeout=60)
            if i % 2:
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127")  # half a request; the rest never comes
            half_open.append(s)
        opened = time.monotonic() - started
        now, peak = memory(server.pid)
        print(f"{HALF_OPEN} half-open connections opened in {opened:.1f} s: server {now:.1f} MiB "
              f"now, peak {peak:.1f} MiB; a new connection plays: {plays(port)}")
        # The header timeout (10 s) closes them.
        closed = 0
        for s in half_open:
            s.settimeout(30)
            try:
                if s.recv(1) == b"":
                    closed += 1
            except OSError:
                closed += 1
            s.close()
        print(f"closed by the server within {time.monotonic() - started:.1f} s of the first: "
              f"{closed} of {HALF_OPEN}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
