//! `c4 serve`, the real binary on a port the system picks (read from the URL it prints): its
//! page and security headers, a WebSocket that plays the protocol with an untrusted engine, and
//! each defence of docs/gui.md's "Who can reach what": the page's origin only, the message-size
//! cap, the timeouts, the bounds on engines and connections, files only from the page's folder,
//! and engines killed with their socket and with the server.
#![cfg(target_os = "linux")]

mod common;

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tungstenite::client::IntoClientRequest;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The longest any step may take on a loaded machine before the test gives up on it (a guard
/// against hanging, not a measure).
const PATIENCE: Duration = Duration::from_secs(60);

/// A page folder for `name`'s server: its `index.html` and `app.js`, a sub-folder, and a
/// symbolic link to a file outside it.
fn page(name: &str) -> PathBuf {
    let folder = common::empty_folder("serve", name);
    fs::write(
        folder.join("index.html"),
        "<!doctype html><title>c4</title>\n",
    )
    .unwrap();
    fs::write(folder.join("app.js"), "export {};\n").unwrap();
    fs::create_dir(folder.join("sub")).unwrap();
    fs::write(folder.join("sub/inner.txt"), "inner\n").unwrap();
    let secret = folder.with_extension("secret");
    fs::write(&secret, "the secret outside the page\n").unwrap();
    std::os::unix::fs::symlink(&secret, folder.join("link-out")).unwrap();
    folder
}

/// `c4 serve` running, and the port it listens on.
struct Server {
    process: Child,
    port: u16,
}

impl Server {
    /// `c4 serve --port 0 --dist PAGE ARGS`, once it has said where it listens.
    fn start(page: &Path, args: &[&str]) -> Server {
        let mut process = Command::new(env!("CARGO_BIN_EXE_c4"))
            .args(["serve", "--port", "0", "--dist"])
            .arg(page)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(process.stderr.take().unwrap());
        let mut first = String::new();
        stderr.read_line(&mut first).unwrap();
        // The rest (the engines' standard error, the last words) is read, so that none waits.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let url = first
            .split_whitespace()
            .find(|word| word.starts_with("http://127.0.0.1:"))
            .unwrap_or_else(|| panic!("no URL in c4 serve's first line: {first}"));
        let port = url["http://127.0.0.1:".len()..]
            .trim_end_matches('/')
            .parse()
            .unwrap();
        Server { process, port }
    }

    /// The page's own origin.
    fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        stream
    }

    /// A WebSocket to the engine, from `origin`.
    fn websocket(&self, origin: &str) -> WebSocket<MaybeTlsStream<TcpStream>> {
        let url = format!("ws://127.0.0.1:{}/engine", self.port);
        let mut request = url.into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        let stream = MaybeTlsStream::Plain(self.connect());
        let (socket, _) = tungstenite::client(request, stream).expect("the upgrade is accepted");
        socket
    }

    /// A raw request (`Connection: close` is added) and its answer: the status, the head
    /// (lowercase) and the body (as long as its Content-Length says; none for a 101).
    fn request(&self, lines: &str) -> (u16, String, String) {
        let mut stream = BufReader::new(self.connect());
        write!(stream.get_mut(), "{lines}Connection: close\r\n\r\n").unwrap();
        let mut head = String::new();
        while !head.ends_with("\r\n\r\n") {
            let read = stream.read_line(&mut head).unwrap();
            assert!(read > 0, "the answer ended in its head: {head}");
        }
        let head = head.to_ascii_lowercase();
        let status = head.split(' ').nth(1).and_then(|s| s.parse().ok());
        let status = status.unwrap_or_else(|| panic!("not an HTTP answer: {head}"));
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .map_or(0, |n| n.trim().parse().unwrap());
        let mut body = vec![0; length];
        stream.read_exact(&mut body).unwrap();
        (status, head, String::from_utf8(body).unwrap())
    }

    fn get(&self, path: &str) -> (u16, String, String) {
        self.request(&format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
    }

    /// A WebSocket upgrade by hand, from `origin` (none if None): status, head and body.
    fn upgrade(&self, origin: Option<&str>) -> (u16, String, String) {
        let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
        self.request(&format!(
            "GET /engine HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Sec-WebSocket-Version: 13\r\n{origin}"
        ))
    }

    /// The engines running now: the server's children, read from /proc.
    fn engines(&self) -> Vec<u32> {
        children(self.process.id())
    }

    /// Waits until `count` engines run.
    fn wait_engines(&self, count: usize) {
        let deadline = Instant::now() + PATIENCE;
        while self.engines().len() != count {
            assert!(
                Instant::now() < deadline,
                "{} engines, expected {count}",
                self.engines().len()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// The live (not zombie) children of process `parent`.
fn children(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: the name may hold spaces, so split after its ')'.
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split(' ').collect();
        if fields.get(1) == Some(&parent.to_string().as_str()) && fields[0] != "Z" {
            found.push(entry.file_name().to_string_lossy().parse().unwrap());
        }
    }
    found
}

/// Whether process `pid` is gone (or a zombie, waiting for whoever inherited it).
fn is_gone(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat[stat.rfind(')').unwrap() + 2..].starts_with('Z'),
    }
}

/// Sends `line` and reads the engine's reply: its lines to the empty one that ends it.
fn ask(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>, line: &str) -> Vec<String> {
    socket.send(Message::text(line)).unwrap();
    reply(socket)
}

/// The next reply's lines, one message each, to the empty one that ends it.
fn reply(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        match socket.read().unwrap() {
            Message::Text(text) if text.is_empty() => return lines,
            Message::Text(text) => lines.push(text.to_string()),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("expected a line, got {other:?}"),
        }
    }
}

fn read_timeout(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>, timeout: Duration) {
    if let MaybeTlsStream::Plain(stream) = socket.get_mut() {
        stream.set_read_timeout(Some(timeout)).unwrap();
    }
}

/// The close frame the server ends `socket` with, answering its pings meanwhile.
fn close_code(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>) -> (CloseCode, String) {
    loop {
        match socket.read() {
            Ok(Message::Close(Some(frame))) => return (frame.code, frame.reason.to_string()),
            Ok(Message::Close(None)) => panic!("closed without a reason"),
            Ok(_) => {}
            Err(e) => panic!("no close frame: {e}"),
        }
    }
}

#[test]
fn the_page_is_served_with_security_headers_on_every_response() {
    let server = Server::start(&page("headers"), &[]);
    let (status, head, body) = server.get("/");
    assert_eq!(status, 200, "{head}");
    assert_eq!(body, "<!doctype html><title>c4</title>\n");
    assert!(head.contains("content-type: text/html"), "{head}");
    let (status, head, _) = server.get("/app.js");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/javascript"), "{head}");
    // Every answer carries them: a file, a refusal, a missing file, a foreign origin's upgrade.
    for (status, head, _) in [
        server.get("/"),
        server.get("/missing.js"),
        server.get("/../x"),
        server.upgrade(Some("http://evil.example")),
        server.request("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"),
    ] {
        assert!(status == 200 || status >= 400, "{head}");
        let csp = head
            .lines()
            .find_map(|l| l.strip_prefix("content-security-policy: "))
            .unwrap_or_else(|| panic!("no CSP: {head}"));
        assert!(csp.contains("frame-ancestors 'self'"), "{csp}");
        assert!(csp.contains("default-src 'self'"), "{csp}");
        assert!(head.contains("\r\nx-frame-options: sameorigin"), "{head}");
        assert!(
            head.contains("\r\nx-content-type-options: nosniff"),
            "{head}"
        );
        assert!(head.contains("\r\nreferrer-policy: no-referrer"), "{head}");
    }
    let (status, _, body) = server.request("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n");
    assert_eq!(status, 405);
    assert_eq!(
        body,
        "c4 serve serves its page's files to GET and HEAD only\n"
    );
}

#[test]
fn a_websocket_from_the_page_plays_an_untrusted_engine_killed_when_it_closes() {
    let server = Server::start(&page("plays"), &[]);
    let mut socket = server.websocket(&server.origin());
    assert_eq!(ask(&mut socket, "1 moves 4453\n"), ["=1 ply 4, x to move"]);
    // A message's last newline may be left out; a message may hold several lines.
    assert_eq!(ask(&mut socket, "2 fen"), ["=2 2oxx2/3o3/7/7/7/7 x"]);
    socket.send(Message::text("3 play 4\n4 legal\n")).unwrap();
    assert_eq!(reply(&mut socket), ["=3 ply 5, o to move"]);
    assert_eq!(reply(&mut socket), ["=4 1 2 3 4 5 6 7"]);
    // The engine runs with --untrusted: no command reads or writes a file.
    let refused = ask(&mut socket, "5 save served.c4");
    assert!(
        refused[0].starts_with("?5 save is refused: this c4 serves untrusted clients"),
        "{refused:?}"
    );
    server.wait_engines(1);
    let engine = server.engines()[0];
    socket.close(None).unwrap();
    while socket.read().is_ok() {}
    server.wait_engines(0);
    assert!(is_gone(engine));
    // From localhost, the page's other name, too.
    let mut socket = server.websocket(&format!("http://localhost:{}", server.port));
    assert_eq!(ask(&mut socket, "protocol_version"), ["= 3"]);
}

#[test]
fn only_the_pages_own_origin_may_open_a_websocket() {
    let server = Server::start(&page("origin"), &[]);
    let port = server.port;
    for origin in [
        None,
        Some("null".to_string()),
        Some("http://evil.example".to_string()),
        Some(format!("http://evil.example:{port}")),
        Some(format!("http://localhost.evil.example:{port}")),
        Some("http://localhost:1".to_string()),
        Some(format!("https://127.0.0.1:{port}")),
    ] {
        let (status, _, body) = server.upgrade(origin.as_deref());
        assert_eq!(status, 403, "{origin:?}");
        assert!(
            body.contains("opens a WebSocket only for its own page"),
            "{body}"
        );
    }
    assert_eq!(server.engines(), Vec::<u32>::new(), "an engine started");
    for origin in [format!("http://localhost:{port}"), server.origin()] {
        let (status, head, _) = server.upgrade(Some(&origin));
        assert_eq!(status, 101, "{origin}: {head}");
    }
}

#[test]
fn a_message_over_64_kib_is_refused_from_its_header_and_others_play_on() {
    let server = Server::start(&page("size"), &[]);
    let mut player = server.websocket(&server.origin());
    assert_eq!(ask(&mut player, "1 moves 44"), ["=1 ply 2, x to move"]);
    // A frame that says it holds 128 MiB, and holds 4 bytes so far: refused from the header,
    // without waiting for the rest.
    let mut greedy = server.websocket(&server.origin());
    let mut header = vec![0x81, 0xff];
    header.extend_from_slice(&(128u64 << 20).to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]); // the mask
    header.extend_from_slice(b"1 fe");
    greedy.get_mut().write_all(&header).unwrap();
    // The client goes on sending it, once refused: what it sends is read and dropped, for a
    // socket closed with bytes unread resets the connection, which may lose the close frame.
    std::thread::sleep(Duration::from_millis(200));
    for chunk in 0..8 {
        let sent = greedy.get_mut().write_all(&[0; 32 * 1024]);
        assert!(sent.is_ok(), "chunk {chunk} of a refused message: {sent:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        close_code(&mut greedy),
        (CloseCode::Size, "a message is at most 64 KiB".to_string())
    );
    // A whole message one byte over, in one frame or in small ones.
    let mut over = server.websocket(&server.origin());
    over.send(Message::text("x".repeat(64 * 1024 + 1))).unwrap();
    assert_eq!(close_code(&mut over).0, CloseCode::Size);
    server.wait_engines(1);
    assert_eq!(ask(&mut player, "2 fen"), ["=2 3x3/3o3/7/7/7/7 x"]);
}

#[test]
fn silent_connections_are_closed_by_the_timeouts() {
    let server = Server::start(
        &page("timeouts"),
        &["--header-timeout", "1", "--idle-timeout", "1"],
    );
    // Nothing sent, or half a request: closed without an answer.
    for sent in ["", "GET / HTTP/1.1\r\nHost: 127"] {
        let mut stream = server.connect();
        stream.write_all(sent.as_bytes()).unwrap();
        let mut answer = Vec::new();
        let read = stream.read_to_end(&mut answer);
        assert!(read.is_ok(), "{sent:?}: not closed: {read:?}");
    }
    // A whole request answered, then nothing more on the connection kept alive: closed too.
    let mut stream = server.connect();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    let mut answer = Vec::new();
    let read = stream.read_to_end(&mut answer);
    assert!(
        read.is_ok(),
        "a kept-alive connection was not closed: {read:?}"
    );
    assert!(answer.starts_with(b"HTTP/1.1 200 "));
    // A WebSocket whose client never answers a ping (a half-open connection): closed, its
    // engine killed.
    let mut stream = server.connect();
    write!(
        stream,
        "GET /engine HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
         Origin: {}\r\n\r\n",
        server.origin()
    )
    .unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    assert!(answer.starts_with(b"HTTP/1.1 101 "));
    // The last frame is the close: 1001 (going away), and why.
    let close = b"\x88\x16\x03\xe9nothing came for 1 s";
    assert!(
        answer.windows(close.len()).any(|w| w == close),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    server.wait_engines(0);
    // A client that answers its pings stays.
    let mut socket = server.websocket(&server.origin());
    for id in 1..=3 {
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            read_timeout(&mut socket, Duration::from_millis(100));
            match socket.read() {
                Ok(_) => {}
                Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => panic!("the connection ended: {e}"),
            }
        }
        read_timeout(&mut socket, PATIENCE);
        assert_eq!(ask(&mut socket, &format!("{id} ply")).len(), 1);
    }
}

#[test]
fn a_request_that_cannot_be_read_gets_an_empty_answer_and_the_connection_closed() {
    let server = Server::start(&page("unreadable"), &[]);
    let long_header = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(300 * 1024));
    for (sent, status) in [
        ("GARBAGE\r\n\r\n".to_string(), "400 Bad Request"),
        (long_header, "431 Request Header Fields Too Large"),
    ] {
        let mut stream = server.connect();
        // The server may close before taking the whole request.
        let _ = stream.write_all(sent.as_bytes());
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8(answer).unwrap().to_ascii_lowercase();
        assert!(
            answer.starts_with(&format!("http/1.1 {}\r\n", status.to_ascii_lowercase())),
            "{answer}"
        );
        assert!(answer.contains("\r\nconnection: close\r\n"), "{answer}");
        assert!(answer.contains("\r\ncontent-length: 0\r\n"), "{answer}");
        assert!(answer.ends_with("\r\n\r\n"), "a body came: {answer}");
    }
}

#[test]
fn a_client_that_stops_reading_a_download_loses_its_connection() {
    let folder = page("stalled");
    // Far more than the sockets' buffers hold, so that the server waits for its reader.
    let size = 32 << 20;
    fs::write(folder.join("big.bin"), vec![0u8; size]).unwrap();
    let server = Server::start(&folder, &["--max-connections", "1", "--idle-timeout", "3"]);
    let mut stream = server.connect();
    stream
        .write_all(b"GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    // Waiting for its reader, it holds the only connection...
    assert_eq!(server.get("/").0, 503);
    // ...until the limit: then it is closed, and its place free for the next.
    let deadline = Instant::now() + PATIENCE;
    while server.get("/").0 != 200 {
        assert!(
            Instant::now() < deadline,
            "the stalled download kept its connection"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    assert!(answer.len() < size, "the whole file came: {}", answer.len());
}

#[test]
fn engines_and_connections_past_their_bounds_are_refused_with_a_sentence() {
    let server = Server::start(&page("bounds"), &["--max-engines", "2"]);
    let mut first = server.websocket(&server.origin());
    let mut second = server.websocket(&server.origin());
    assert_eq!(ask(&mut first, "protocol_version"), ["= 3"]);
    assert_eq!(ask(&mut second, "protocol_version"), ["= 3"]);
    let (status, _, body) = server.upgrade(Some(&server.origin()));
    assert_eq!(status, 503);
    assert_eq!(
        body,
        "all 2 of c4 serve's engines are in use: try again when a game ends\n"
    );
    // The page itself is still served.
    assert_eq!(server.get("/").0, 200);
    // One game ends: its engine is freed for the next.
    first.close(None).unwrap();
    while first.read().is_ok() {}
    server.wait_engines(1);
    let mut third = server.websocket(&server.origin());
    assert_eq!(ask(&mut third, "protocol_version"), ["= 3"]);

    let server = Server::start(&page("connections"), &["--max-connections", "3"]);
    let held: Vec<TcpStream> = (0..3).map(|_| server.connect()).collect();
    let (status, _, body) = server.get("/");
    assert_eq!(status, 503);
    assert_eq!(
        body,
        "c4 serve has 3 connections open, its most: try again in a moment\n"
    );
    drop(held);
    let deadline = Instant::now() + PATIENCE;
    while server.get("/").0 != 200 {
        assert!(Instant::now() < deadline, "the connections were not freed");
    }
    // WebSockets count among them.
    let sockets: Vec<_> = (0..3).map(|_| server.websocket(&server.origin())).collect();
    assert_eq!(server.get("/").0, 503);
    drop(sockets);
}

#[test]
fn only_files_inside_the_pages_folder_are_served() {
    let server = Server::start(&page("paths"), &[]);
    assert_eq!(server.get("/sub/inner.txt").0, 200);
    for (path, status) in [
        ("/../Cargo.toml", 400),
        ("/%2e%2e/Cargo.toml", 400),
        ("/%2E%2E%2FCargo.toml", 400),
        ("/..%2fCargo.toml", 400),
        ("/..%5cCargo.toml", 400),
        ("/sub/../../Cargo.toml", 400),
        ("/%252e%252e/Cargo.toml", 404),
        ("/link-out", 404),
        ("/sub", 404),
        ("/sub/", 400),
        ("/.hidden", 404),
        ("/engine", 426),
    ] {
        let (got, _, body) = server.get(path);
        assert_eq!(got, status, "{path}: {body}");
        assert!(
            !body.contains("secret") && !body.contains("[package]"),
            "{path}"
        );
    }
}

#[test]
fn sigterm_stops_the_server_and_kills_its_engines() {
    let mut server = Server::start(&page("signal"), &[]);
    let mut socket = server.websocket(&server.origin());
    assert_eq!(ask(&mut socket, "protocol_version"), ["= 3"]);
    server.wait_engines(1);
    let engine = server.engines()[0];
    let killed = Command::new("kill")
        .args(["-TERM", &server.process.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = server.process.wait().unwrap();
    assert!(status.success(), "{status}");
    assert!(is_gone(engine), "engine {engine} still runs");
}

#[test]
fn another_engine_is_run_with_untrusted_and_a_missing_page_says_how_to_build_it() {
    let folder = page("engine");
    let engine = folder.with_extension("engine.sh");
    fs::write(
        &engine,
        "#!/bin/sh\necho \"args $*\"\necho\nwhile read -r line; do echo \"=$line\"; echo; done\n",
    )
    .unwrap();
    let mut permissions = fs::metadata(&engine).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    fs::set_permissions(&engine, permissions).unwrap();
    let server = Server::start(&folder, &["--engine", engine.to_str().unwrap()]);
    let mut socket = server.websocket(&server.origin());
    assert_eq!(reply(&mut socket), ["args --untrusted"]);
    assert_eq!(ask(&mut socket, "hello"), ["=hello"]);

    let missing = folder.join("nothing-here");
    let output = Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(["serve", "--port", "0", "--dist"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("index.html is missing; build the page with web/build"),
        "{stderr}"
    );
}
