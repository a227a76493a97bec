//! `c4 serve`: the GUI's server. It serves the page (the static folder `web/build` makes) over
//! HTTP and, at [`ENGINE_PATH`], runs one `c4 --untrusted` per WebSocket connection, a child
//! process of its own with its standard input and output on the socket, killed when the socket
//! closes. Anything that reaches the port is treated as hostile (docs/gui.md, "Who can reach
//! what"): a WebSocket only from the page's own origin (`origin.rs`), bounded numbers of
//! connections and engines, timeouts on every stage of a connection (`write_limit.rs`: on a
//! client that stops reading, too), a cap on a message's size, security headers on every
//! response this server writes (`http.rs`), and files only from the page's folder (`files.rs`).
//! The sessions themselves are `session.rs`'s.
//!
//! This module owns the process-level parts: the runtime, the listening socket, the open-file
//! limit, and the signals that stop it.

mod files;
mod http;
mod origin;
mod session;
mod write_limit;

use std::io::{self, Write};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};

use files::Page;
use http::Server;
use origin::Origins;

/// The path of the WebSocket that reaches a native `c4`; the page's `?engine=native` opens it.
pub const ENGINE_PATH: &str = "/engine";

/// The largest WebSocket message (and frame) taken from a client: a protocol line is far
/// smaller. A larger frame is refused from its header, before its payload is read.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// How long the engines have to end once the server is stopped.
const STOPPING: Duration = Duration::from_secs(5);

/// How long a connection past the bound is kept to be told so.
const REFUSING: Duration = Duration::from_secs(1);

/// How `c4 serve` runs: the command line's settings (`c4 serve --help`).
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The address to listen on.
    pub address: IpAddr,
    /// The port (0: one the system picks, said in the URL printed).
    pub port: u16,
    /// The page's folder, as `web/build` writes it.
    pub dist: PathBuf,
    /// The engine program run per WebSocket (with `--untrusted`); `None`: this `c4`.
    pub engine: Option<PathBuf>,
    /// At most this many engines (WebSocket connections) at once.
    pub max_engines: usize,
    /// At most this many connections at once, WebSockets included (lowered to what the
    /// open-file limit allows).
    pub max_connections: usize,
    /// How long a client has to send a request's headers, and to finish a WebSocket's
    /// handshake.
    pub header_timeout: Duration,
    /// How long a WebSocket may stay without a word from its client (pings are sent to it
    /// meanwhile, which a live client answers), and any connection's client without taking a
    /// byte of what is sent to it.
    pub idle_timeout: Duration,
}

/// Why `c4 serve` could not serve.
#[derive(Debug, Error)]
pub enum ServeError {
    /// The page's folder holds no page.
    #[error(
        "c4 serve: there is no page to serve: {} is missing; build the page with web/build in a \
         clone of c4 (it needs `rustup target add wasm32-unknown-unknown` once), or name the \
         folder that holds it with --dist DIR",
        .index.display()
    )]
    NoPage {
        /// The page's `index.html` looked for.
        index: PathBuf,
    },
    /// The engine program cannot be found.
    #[error("c4 serve: the engine {} cannot be run: {reason}", .path.display())]
    NoEngine {
        /// The program.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The address cannot be listened on.
    #[error("c4 serve: cannot listen on {address}: {reason}")]
    Listen {
        /// The address and port.
        address: SocketAddr,
        /// Why, in words.
        reason: String,
    },
    /// The server itself failed (its runtime, its signals, or writing where it listens).
    #[error("c4 serve: {0}")]
    Io(String),
}

impl ServeError {
    /// Whether this is a setting of the command line that cannot be used (the usage status).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            ServeError::NoPage { .. } | ServeError::NoEngine { .. }
        )
    }
}

fn io_error(e: io::Error) -> ServeError {
    ServeError::Io(c4_core::describe_io_error(&e))
}

/// Serves the GUI until SIGINT or SIGTERM, then kills its engines and returns. Where it listens
/// (a URL) and why it stopped are written to `log`.
///
/// # Errors
/// A page folder without a page, an engine that cannot be run, an address that cannot be
/// listened on, or a failure of the runtime.
pub fn run(options: &ServeOptions, log: &mut dyn Write) -> Result<(), ServeError> {
    let page = Page::open(&options.dist)?;
    let engine = match &options.engine {
        Some(path) => checked_engine(path)?,
        None => std::env::current_exe().map_err(io_error)?,
    };
    let open_files = raise_open_file_limit();
    // Each engine holds three pipes and its socket, each refusal under way its socket; the
    // rest, and some spare, go to connections.
    let reserve = 64 + 4 * options.max_engines + MAX_REFUSALS;
    let max_connections = options
        .max_connections
        .min(open_files.saturating_sub(reserve as u64).max(1) as usize);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(io_error)?;
    let served = runtime.block_on(async {
        let address = SocketAddr::new(options.address, options.port);
        let listener = TcpListener::bind(address)
            .await
            .map_err(|e| ServeError::Listen {
                address,
                reason: c4_core::describe_io_error(&e),
            })?;
        let bound = listener.local_addr().map_err(io_error)?;
        let url = format!("http://{}/", url_host(bound));
        writeln!(
            log,
            "c4 serve: {url} (the page from {}; {url}?engine=native plays a native c4 through a \
             WebSocket; at most {} engines and {max_connections} connections at once; Ctrl-C \
             stops it)",
            page.folder().display(),
            options.max_engines,
        )
        .map_err(io_error)?;
        let (stop, stopping) = watch::channel(false);
        let server = Rc::new(Server {
            page,
            origins: Origins::new(options.address, bound.port()),
            engine,
            engines: Arc::new(Semaphore::new(options.max_engines)),
            max_engines: options.max_engines,
            header_timeout: options.header_timeout,
            idle_timeout: options.idle_timeout,
            stopping,
        });
        let local = tokio::task::LocalSet::new();
        local
            .run_until(async {
                let signal = accept_until_stopped(listener, &server, max_connections).await?;
                // Every session ends, killing its engine and waiting for it to exit, before the
                // server does (those that cannot in time are killed as the runtime drops them).
                let _ = stop.send(true);
                let all = u32::try_from(options.max_engines).unwrap_or(u32::MAX);
                let _ = tokio::time::timeout(STOPPING, server.engines.acquire_many(all)).await;
                Ok(signal)
            })
            .await
    });
    // Dropping the runtime drops every connection's task, and with each its engine, killed.
    drop(runtime);
    let signal = served?;
    writeln!(log, "c4 serve: {signal}: stopped, its engines killed").map_err(io_error)?;
    Ok(())
}

/// The engine `--engine` names, if it is a file.
fn checked_engine(path: &std::path::Path) -> Result<PathBuf, ServeError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(path.to_path_buf()),
        Ok(_) => Err(ServeError::NoEngine {
            path: path.to_path_buf(),
            reason: "it is not a file".to_string(),
        }),
        Err(e) => Err(ServeError::NoEngine {
            path: path.to_path_buf(),
            reason: c4_core::describe_io_error(&e),
        }),
    }
}

/// The host part of a URL for `address`: IPv6 in brackets, and an unspecified address (all of
/// them) as this machine's loopback, which it includes.
fn url_host(address: SocketAddr) -> String {
    match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => format!("127.0.0.1:{}", address.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => format!("[::1]:{}", address.port()),
        _ => address.to_string(),
    }
}

/// Lifts the soft limit on open files to the hard one, so that idle sockets cannot use up a low
/// soft limit (1024 on many systems) and keep a real page out; the limit now in force.
#[cfg(unix)]
fn raise_open_file_limit() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(_) => rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft),
    }
}

/// Without Unix's limits, none is lifted.
#[cfg(not(unix))]
fn raise_open_file_limit() -> u64 {
    u64::MAX
}

/// The connections past the bound that are answered with a refusal at once; past them, one is
/// closed unanswered.
const MAX_REFUSALS: usize = 256;

/// Accepts connections, each served on a task of its own, until a stopping signal comes; its
/// name.
async fn accept_until_stopped(
    listener: TcpListener,
    server: &Rc<Server>,
    max_connections: usize,
) -> Result<&'static str, ServeError> {
    let connections = Arc::new(Semaphore::new(max_connections));
    // Refusals hold their socket for up to a second each: bounded too, past which a connection
    // is simply closed, so that a flood cannot take the files the engines' pipes need.
    let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
    let stopped = stopping_signal()?;
    tokio::pin!(stopped);
    loop {
        let (stream, _) = tokio::select! {
            signal = &mut stopped => return Ok(signal),
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of files or memory for a moment, or a connection reset before it was
                    // taken: the listener goes on once the moment has passed.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        match Arc::clone(&connections).try_acquire_owned() {
            Ok(permit) => {
                let server = Rc::clone(server);
                tokio::task::spawn_local(http::serve_connection(stream, server, permit));
            }
            Err(_) => {
                if let Ok(refusal) = Arc::clone(&refusals).try_acquire_owned() {
                    tokio::task::spawn_local(async move {
                        refuse_connection(stream, max_connections).await;
                        drop(refusal);
                    });
                }
            }
        }
    }
}

/// A connection past the bound: a 503 with the reason, then closed.
async fn refuse_connection(mut stream: TcpStream, max_connections: usize) {
    use tokio::io::AsyncWriteExt;
    let reply = http::raw_refusal(&format!(
        "c4 serve has {max_connections} connections open, its most: try again in a moment"
    ));
    let _ = tokio::time::timeout(REFUSING, async {
        stream.write_all(&reply).await?;
        close_after_reading(&mut stream).await
    })
    .await;
}

/// Closes a connection whose last answer has been written: the writing side first, then what
/// the client still sends is read and dropped until it closes too (callers bound the time).
/// Closing with unread bytes would reset the connection, and a reset may discard the answer
/// before the client has read it.
async fn close_after_reading<S>(stream: &mut S) -> io::Result<()>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream.shutdown().await?;
    let mut dropped = [0; 4096];
    while stream.read(&mut dropped).await? > 0 {}
    Ok(())
}

/// The first SIGINT or SIGTERM (Ctrl-C alone where there are no Unix signals), as a future of
/// its name.
#[cfg(unix)]
fn stopping_signal() -> Result<impl std::future::Future<Output = &'static str>, ServeError> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt()).map_err(io_error)?;
    let mut terminate = signal(SignalKind::terminate()).map_err(io_error)?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => "SIGINT",
            _ = terminate.recv() => "SIGTERM",
        }
    })
}

/// Ctrl-C, where there are no Unix signals.
#[cfg(not(unix))]
fn stopping_signal() -> Result<impl std::future::Future<Output = &'static str>, ServeError> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_names_a_reachable_host() {
        let at = |text: &str| url_host(text.parse().unwrap());
        assert_eq!(at("127.0.0.1:8080"), "127.0.0.1:8080");
        assert_eq!(at("0.0.0.0:8080"), "127.0.0.1:8080");
        assert_eq!(at("[::]:80"), "[::1]:80");
        assert_eq!(at("[::1]:9000"), "[::1]:9000");
        assert_eq!(at("192.168.1.5:1"), "192.168.1.5:1");
    }
}
