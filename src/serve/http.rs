//! One HTTP connection: hyper's HTTP/1 server reads its requests, with a timeout on each
//! request's headers, and this module answers them: the page's files for `GET` and `HEAD`, and
//! at [`ENGINE_PATH`] a WebSocket upgrade, checked (its origin, the engines free) before an
//! engine starts and the connection is handed to [`session`]. Every response carries the
//! security headers ([`SECURITY_HEADERS`]); every refusal says why in a sentence. (A request
//! hyper cannot read gets hyper's own empty `400` or `431`, and the connection is closed.)

use std::cell::Cell;
use std::convert::Infallible;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpStream;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

use super::files::{Missing, Page};
use super::origin::Origins;
use super::write_limit::WriteLimit;
use super::{session, ENGINE_PATH};

/// The headers of every response. The page's scripts, styles, worker and WebAssembly are its
/// own files ('wasm-unsafe-eval' lets the worker compile c4.wasm); it talks to its own server
/// and, only when its user has confirmed, to an engine elsewhere (ws:, wss:); no page may frame
/// it but its own, and nothing is sniffed or sent as a referrer.
pub(super) const SECURITY_HEADERS: [(&str, &str); 6] = [
    (
        "content-security-policy",
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; \
         connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'",
    ),
    ("x-frame-options", "SAMEORIGIN"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
];

/// The bound on a connection's read buffer: a request head of up to this much is always read;
/// a longer one is refused with `431` once the buffer holds this much and the next read has not
/// completed the head (how much that read brings depends on how the bytes arrive: here heads of
/// 100 KiB were read and of 120 KiB refused). Far more than a browser sends, cookies of other
/// programs on localhost included; the buffer starts at 8 KiB.
const MAX_HEAD: usize = 64 * 1024;

/// What every connection shares.
#[derive(Debug)]
pub(super) struct Server {
    /// The page's files.
    pub(super) page: Page,
    /// The origins that may open a WebSocket.
    pub(super) origins: Origins,
    /// The engine program, run with `--untrusted` per WebSocket.
    pub(super) engine: PathBuf,
    /// One permit per engine that may run.
    pub(super) engines: Arc<Semaphore>,
    /// How many engines may run at once.
    pub(super) max_engines: usize,
    /// How long a client has for a request's headers, and for a WebSocket's handshake.
    pub(super) header_timeout: Duration,
    /// How long a WebSocket may stay without a word from its client, and a client without
    /// taking a byte of what is sent to it.
    pub(super) idle_timeout: Duration,
    /// Becomes true when the server stops: every session then ends.
    pub(super) stopping: watch::Receiver<bool>,
}

/// Serves one connection until it closes, or until its WebSocket (if it asks for one) has been
/// handed over, with the connection's place among those allowed (`slot`), which the WebSocket's
/// session then keeps.
pub(super) async fn serve_connection(
    stream: TcpStream,
    server: Rc<Server>,
    slot: OwnedSemaphorePermit,
) {
    let (header_timeout, idle_timeout) = (server.header_timeout, server.idle_timeout);
    let slot = Rc::new(Cell::new(Some(slot)));
    let service = service_fn(move |request| {
        let (server, slot) = (Rc::clone(&server), Rc::clone(&slot));
        async move { Ok::<_, Infallible>(answer(request, &server, &slot)) }
    });
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_buf_size(MAX_HEAD)
        .serve_connection(TokioIo::new(WriteLimit::new(stream, idle_timeout)), service)
        .with_upgrades();
    // A connection that fails (reset, timed out, malformed) has nothing more to be told.
    let _ = connection.await;
}

/// The response to one request.
fn answer(
    mut request: Request<Incoming>,
    server: &Server,
    slot: &Cell<Option<OwnedSemaphorePermit>>,
) -> Response<Full<Bytes>> {
    let mut response = if is_upgrade(&request) {
        upgrade(&mut request, server, slot)
    } else {
        file(&request, &server.page)
    };
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// Whether a request asks for a WebSocket.
fn is_upgrade(request: &Request<Incoming>) -> bool {
    request
        .headers()
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// A file of the page, for `GET` and `HEAD`.
fn file(request: &Request<Incoming>, page: &Page) -> Response<Full<Bytes>> {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut response = refusal(
            StatusCode::METHOD_NOT_ALLOWED,
            "c4 serve serves its page's files to GET and HEAD only",
        );
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let path = request.uri().path();
    match page.file(path) {
        Ok(file) => {
            let mut response = Response::new(Full::new(file.bytes));
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(file.content_type),
            );
            // A rebuilt page (web/build) is seen at the next load.
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            response
        }
        Err(Missing::BadPath) => refusal(
            StatusCode::BAD_REQUEST,
            "c4 serve refuses this path: it would leave the page's folder, or is not a path",
        ),
        Err(Missing::NotFound) if path == ENGINE_PATH => refusal(
            StatusCode::UPGRADE_REQUIRED,
            "this is the native engine's WebSocket: the page opens it with ?engine=native",
        ),
        Err(Missing::NotFound) => refusal(
            StatusCode::NOT_FOUND,
            &format!(
                "c4 serve has no file {} in the page's folder (web/build builds the page)",
                printable(path)
            ),
        ),
    }
}

/// A WebSocket upgrade: checked, an engine started, `101 Switching Protocols` answered, and the
/// connection handed to a session once hyper lets it go, with its `slot`.
fn upgrade(
    request: &mut Request<Incoming>,
    server: &Server,
    slot: &Cell<Option<OwnedSemaphorePermit>>,
) -> Response<Full<Bytes>> {
    if request.uri().path() != ENGINE_PATH {
        return refusal(
            StatusCode::NOT_FOUND,
            &format!("c4 serve's WebSocket is at {ENGINE_PATH}, not here"),
        );
    }
    let headers = request.headers();
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let key = text(header::SEC_WEBSOCKET_KEY);
    let connection_upgrade = text(header::CONNECTION).is_some_and(|v| {
        v.split(',')
            .any(|token| token.trim().eq_ignore_ascii_case("upgrade"))
    });
    let (Some(key), true, true, Some("13")) = (
        key,
        connection_upgrade,
        request.method() == Method::GET,
        text(header::SEC_WEBSOCKET_VERSION),
    ) else {
        return refusal(
            StatusCode::BAD_REQUEST,
            "c4 serve takes a WebSocket upgrade as a GET with Connection: Upgrade, \
             Sec-WebSocket-Version: 13 and a Sec-WebSocket-Key",
        );
    };
    if !server.origins.allows(text(header::ORIGIN)) {
        return refusal(
            StatusCode::FORBIDDEN,
            "c4 serve opens a WebSocket only for its own page: this request's Origin is \
             another site's (or missing)",
        );
    }
    let Ok(permit) = Arc::clone(&server.engines).try_acquire_owned() else {
        return refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "all {} of c4 serve's engines are in use: try again when a game ends",
                server.max_engines
            ),
        );
    };
    let engine = match session::start_engine(&server.engine) {
        Ok(engine) => engine,
        Err(e) => {
            return refusal(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!(
                    "c4 serve could not start its engine {}: {}",
                    server.engine.display(),
                    c4_core::describe_io_error(&e)
                ),
            )
        }
    };
    let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes());
    let upgrading = hyper::upgrade::on(request);
    let (handshake, idle) = (server.header_timeout, server.idle_timeout);
    let connection = slot.take();
    let mut stopping = server.stopping.clone();
    tokio::task::spawn_local(async move {
        let stopped = async move {
            // The server's end, or its sender gone with it: either way, stop.
            let _ = stopping.wait_for(|stopped| *stopped).await;
        };
        tokio::pin!(stopped);
        let upgraded = tokio::select! {
            upgraded = tokio::time::timeout(handshake, upgrading) => upgraded.ok(),
            () = &mut stopped => None,
        };
        match upgraded {
            Some(Ok(upgraded)) => {
                session::run(TokioIo::new(upgraded), engine, permit, idle, stopped).await;
            }
            // The handshake did not finish, or the server is stopping: the engine goes.
            _ => {
                session::end_engine(engine).await;
                drop(permit);
            }
        }
        drop(connection);
    });
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    if let Ok(accept) = HeaderValue::from_str(&accept) {
        headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    }
    response
}

/// A refusal: `status`, with `sentence` as its plain-text body.
fn refusal(status: StatusCode, sentence: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(format!("{sentence}\n"))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// A request's path as a refusal may quote it: at most 200 characters, controls dropped.
fn printable(path: &str) -> String {
    path.chars().filter(|c| !c.is_control()).take(200).collect()
}

/// A whole `503 Service Unavailable` response with `sentence`, security headers and all, for a
/// connection refused before HTTP is read on it.
pub(super) fn raw_refusal(sentence: &str) -> Vec<u8> {
    let body = format!("{sentence}\n");
    let mut head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n\
         content-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (name, value) in SECURITY_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(&body);
    head.into_bytes()
}
