//! One WebSocket and its engine: a child process (`ENGINE --untrusted`) whose standard input
//! takes the client's text messages, as lines, and whose every output line (the empty lines that
//! end replies included) is one text message back, as websocketd did before. The session ends
//! when either side does, or when the client has been silent for the idle timeout although
//! pinged meanwhile (a half-open connection); the engine is then killed. Messages and frames are
//! at most [`MAX_MESSAGE`] bytes, refused from the frame's header. Each direction waits for the
//! other end to take what it has, so nothing piles up in the server.

use std::cell::Cell;
use std::io;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::error::{CapacityError, Error as WsError};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::MAX_MESSAGE;

/// How long the closing frame may take to go out once a session has ended.
const CLOSING: Duration = Duration::from_secs(2);

/// Why a session ended, and what its client is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// The client closed the socket, or it broke: nothing to tell.
    ClientLeft,
    /// The client sent a message or frame over the cap.
    TooLarge,
    /// The client sent a binary message.
    Binary,
    /// Nothing came from the client for the idle timeout, pings included.
    Idle,
    /// The engine ended (`quit`, or killed).
    EngineEnded,
    /// Everything the engine wrote went to the client (its output has ended).
    Drained,
    /// The engine wrote a line over the cap.
    EngineLineTooLong,
    /// The server is stopping.
    Stopping,
}

impl End {
    /// The close frame that tells the client, if it can still be told.
    fn close_frame(self, idle: Duration) -> Option<CloseFrame> {
        let (code, reason) = match self {
            End::ClientLeft => return None,
            End::TooLarge => (
                CloseCode::Size,
                format!("a message is at most {} KiB", MAX_MESSAGE / 1024),
            ),
            End::Binary => (
                CloseCode::Unsupported,
                "protocol lines are text".to_string(),
            ),
            End::Idle => (
                CloseCode::Away,
                format!("nothing came for {} s", idle.as_secs_f64()),
            ),
            End::EngineEnded | End::Drained => (CloseCode::Normal, "the engine ended".to_string()),
            End::Stopping => (CloseCode::Away, "the server is stopping".to_string()),
            End::EngineLineTooLong => (
                CloseCode::Error,
                format!("the engine wrote a line over {} KiB", MAX_MESSAGE / 1024),
            ),
        };
        Some(CloseFrame {
            code,
            reason: reason.into(),
        })
    }
}

/// Starts the engine for one session: `engine --untrusted`, its standard input and output
/// piped, killed if the session drops it.
pub(super) fn start_engine(engine: &Path) -> io::Result<Child> {
    Command::new(engine)
        .arg("--untrusted")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
}

/// Runs the session on an upgraded connection until it ends, or until `stopping` (the server's
/// end) comes; the engine is killed then, and waited for, and its permit freed for the next
/// game before the connection is closed.
pub(super) async fn run<S, F>(
    stream: S,
    mut engine: Child,
    permit: OwnedSemaphorePermit,
    idle: Duration,
    stopping: F,
) where
    S: AsyncRead + AsyncWrite + Unpin,
    F: std::future::Future<Output = ()>,
{
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
        .read_buffer_size(16 * 1024)
        .write_buffer_size(0);
    let socket = WebSocketStream::from_raw_socket(stream, Role::Server, Some(config)).await;
    let (mut sink, mut messages) = socket.split();
    let (Some(stdin), Some(stdout)) = (engine.stdin.take(), engine.stdout.take()) else {
        return end_engine(engine).await;
    };
    let heard = Cell::new(Instant::now());
    // The engine's lines on their way to the client: a few at most, so that the engine waits
    // for a client that does not read.
    let (outgoing, queue) = mpsc::channel::<Message>(4);
    let end = {
        let to_engine = from_client(&mut messages, stdin, &heard);
        let reading = from_engine(BufReader::new(stdout), outgoing);
        let writing = to_client(queue, &mut sink, &heard, idle);
        let from_engine_to_client = async {
            tokio::pin!(reading, writing);
            tokio::select! {
                end = &mut writing => end,
                engine = &mut reading => match writing.await {
                    // Everything the engine wrote has gone to the client.
                    End::Drained => engine,
                    end => end,
                },
            }
        };
        tokio::select! {
            end = to_engine => end,
            end = from_engine_to_client => end,
            () = stopping => End::Stopping,
        }
    };
    let _ = engine.start_kill();
    if let Some(frame) = end.close_frame(idle) {
        let _ = tokio::time::timeout(CLOSING, sink.send(Message::Close(Some(frame)))).await;
    }
    let _ = tokio::time::timeout(CLOSING, sink.close()).await;
    end_engine(engine).await;
    drop(permit);
    // The rest of a refused message may be on its way: read and dropped, so that the close
    // frame is not lost to a reset.
    if let Ok(mut socket) = sink.reunite(messages) {
        let _ = tokio::time::timeout(CLOSING, super::close_after_reading(socket.get_mut())).await;
    }
}

/// Kills an engine, and waits for it to exit.
pub(super) async fn end_engine(mut engine: Child) {
    let _ = engine.start_kill();
    let _ = engine.wait().await;
}

/// The client's messages, each written to the engine as a line (a message may hold several,
/// and its last newline may be left out); until the client goes, breaks a rule, or the engine
/// stops reading.
async fn from_client<M>(messages: &mut M, mut stdin: ChildStdin, heard: &Cell<Instant>) -> End
where
    M: futures_util::Stream<Item = Result<Message, WsError>> + Unpin,
{
    while let Some(message) = messages.next().await {
        heard.set(Instant::now());
        let text = match message {
            Ok(Message::Text(text)) => text,
            Ok(Message::Binary(_)) => return End::Binary,
            Ok(Message::Close(_)) => return End::ClientLeft,
            Ok(_) => continue, // pings (answered by tungstenite), pongs
            Err(WsError::Capacity(CapacityError::MessageTooLong { .. })) => return End::TooLarge,
            Err(_) => return End::ClientLeft,
        };
        let mut line = text.as_str().as_bytes().to_vec();
        if !line.ends_with(b"\n") {
            line.push(b'\n');
        }
        if stdin.write_all(&line).await.is_err() || stdin.flush().await.is_err() {
            // The engine has ended: its last lines go out before the session ends (the end
            // of its output ends it).
            return std::future::pending().await;
        }
    }
    End::ClientLeft
}

/// The engine's output, a message per line, until it ends.
async fn from_engine<R>(mut stdout: R, outgoing: mpsc::Sender<Message>) -> End
where
    R: AsyncBufRead + Unpin,
{
    loop {
        match read_line(&mut stdout, MAX_MESSAGE).await {
            Ok(Some(line)) => {
                if outgoing.send(Message::text(line)).await.is_err() {
                    return End::ClientLeft;
                }
            }
            Ok(None) => return End::EngineEnded,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => return End::EngineLineTooLong,
            Err(_) => return End::EngineEnded,
        }
    }
}

/// The queue's messages to the client, and a ping every third of the idle timeout; until the
/// queue is empty and closed ([`End::Drained`]), the client goes, or nothing has come from it
/// for the whole timeout (checked at the moment it runs out).
async fn to_client<S>(
    mut queue: mpsc::Receiver<Message>,
    sink: &mut S,
    heard: &Cell<Instant>,
    idle: Duration,
) -> End
where
    S: futures_util::Sink<Message, Error = WsError> + Unpin,
{
    let mut ticks = tokio::time::interval(idle / 3);
    loop {
        let message = tokio::select! {
            message = queue.recv() => match message {
                Some(message) => message,
                None => return End::Drained,
            },
            _ = ticks.tick() => Message::Ping(bytes::Bytes::new()),
            // Checked again when it comes: something may have been heard meanwhile.
            () = tokio::time::sleep_until(heard.get() + idle) => {
                if heard.get().elapsed() >= idle {
                    return End::Idle;
                }
                continue;
            }
        };
        match tokio::time::timeout(idle, sink.send(message)).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return End::ClientLeft,
            Err(_) => return End::Idle,
        }
    }
}

/// One line of `reader` without its newline (the last line of the output may lack one); None
/// at the end; an `InvalidData` error for a line longer than `max` bytes.
async fn read_line<R>(reader: &mut R, max: usize) -> io::Result<Option<String>>
where
    R: AsyncBufRead + Unpin,
{
    let mut line = Vec::new();
    loop {
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            return Ok((!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned()));
        }
        let (taken, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(newline) => (newline, true),
            None => (buffer.len(), false),
        };
        line.extend_from_slice(&buffer[..taken]);
        reader.consume(taken + usize::from(done));
        if line.len() > max {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "line too long"));
        }
        if done {
            return Ok(Some(String::from_utf8_lossy(&line).into_owned()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<io::Result<Option<String>>> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut reader = BufReader::with_capacity(4, input);
            let mut out = Vec::new();
            loop {
                let line = read_line(&mut reader, max).await;
                let last = !matches!(line, Ok(Some(_)));
                out.push(line);
                if last {
                    return out;
                }
            }
        })
    }

    #[test]
    fn output_lines_are_split_at_newlines_empty_ones_kept() {
        let read: Vec<_> = lines(b"=1 ok\n\n=2\nlast", 100)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let want = ["=1 ok", "", "=2", "last"].map(|l| Some(l.to_string()));
        assert_eq!(read[..4], want);
        assert_eq!(read[4], None);
    }

    #[test]
    fn a_line_over_the_cap_is_invalid_data() {
        let read = lines(b"short\n0123456789abc\n", 10);
        assert_eq!(read[0].as_ref().unwrap().as_deref(), Some("short"));
        assert_eq!(
            read[1].as_ref().unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
    }

    #[test]
    fn every_end_but_the_clients_own_tells_the_client_why() {
        let idle = Duration::from_secs(30);
        assert_eq!(End::ClientLeft.close_frame(idle), None);
        let frame = End::TooLarge.close_frame(idle).unwrap();
        assert_eq!(frame.code, CloseCode::Size);
        assert_eq!(frame.reason.as_str(), "a message is at most 64 KiB");
        assert_eq!(
            End::Idle.close_frame(idle).unwrap().reason.as_str(),
            "nothing came for 30 s"
        );
    }
}
