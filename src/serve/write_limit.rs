//! A connection whose writes give up on a client that stops reading: a response (or a
//! WebSocket's messages) waiting for the client to take its bytes fails once it has waited the
//! limit without the client taking one, so that a client requesting files and never reading
//! them cannot hold its place among the connections for ever. It is a limit on no progress,
//! not a minimum rate: a client taking a byte now and then keeps its connection (the bound on
//! connections holds such clients to a number). Reads are untouched: the header and idle
//! timeouts cover a client that sends nothing.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// `S` with a limit on how long a write may wait for its reader.
#[derive(Debug)]
pub(super) struct WriteLimit<S> {
    inner: S,
    limit: Duration,
    /// Runs while a write waits: set when one first finds the client not reading, cleared by
    /// any write that goes through.
    waiting: Option<Pin<Box<Sleep>>>,
}

impl<S> WriteLimit<S> {
    pub(super) fn new(inner: S, limit: Duration) -> WriteLimit<S> {
        WriteLimit {
            inner,
            limit,
            waiting: None,
        }
    }

    /// What a write, flush or shutdown that returned `polled` returns: the same, unless it is
    /// still waiting and the limit has passed since the last write that went through.
    fn limited<T>(
        &mut self,
        polled: Poll<io::Result<T>>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            return polled;
        }
        let limit = self.limit;
        let waiting = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match waiting.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read nothing for {} s", limit.as_secs_f64()),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    /// [`limited`](Self::limited) for a write: one that took bytes (or failed) starts the wait
    /// afresh. A flush or shutdown that is done does not, as it may be done without the client
    /// having taken anything.
    fn written(
        &mut self,
        polled: Poll<io::Result<usize>>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<usize>> {
        if matches!(polled, Poll::Ready(Ok(1..) | Err(_))) {
            self.waiting = None;
        }
        self.limited(polled, cx)
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteLimit<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteLimit<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.written(polled, cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.written(polled, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_flush(cx);
        self.limited(polled, cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.limited(polled, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test(start_paused = true)]
    async fn a_write_the_reader_never_takes_fails_after_the_limit() {
        // A pipe of 64 bytes whose other end is never read.
        let (near, _far) = tokio::io::duplex(64);
        let mut limited = WriteLimit::new(near, Duration::from_secs(5));
        let started = tokio::time::Instant::now();
        let written = tokio::time::timeout(Duration::from_secs(60), limited.write_all(&[0; 1024]));
        let error = written.await.expect("the write gave up").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert_eq!(error.to_string(), "the client read nothing for 5 s");
        assert_eq!(started.elapsed(), Duration::from_secs(5));
    }

    #[tokio::test(start_paused = true)]
    async fn flushes_between_waiting_writes_do_not_restart_the_wait() {
        let (near, _far) = tokio::io::duplex(64);
        let mut limited = WriteLimit::new(near, Duration::from_secs(5));
        // The pipe full, each write waits; the writer gives up on it after a second, flushes
        // (done at once) and tries again.
        limited.write_all(&[0; 64]).await.unwrap();
        let started = tokio::time::Instant::now();
        let error = loop {
            let write = tokio::time::timeout(Duration::from_secs(1), limited.write(&[0; 64]));
            match write.await {
                Ok(written) => break written.unwrap_err(),
                Err(_) => limited.flush().await.unwrap(),
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the wait never ended"
            );
        };
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(5));
    }

    #[tokio::test(start_paused = true)]
    async fn a_reader_taking_bytes_in_time_keeps_the_writer_going() {
        let (near, mut far) = tokio::io::duplex(64);
        let mut limited = WriteLimit::new(near, Duration::from_secs(5));
        // The reader takes 64 bytes every 4 s: each wait is under the limit, the whole over it.
        let reader = tokio::spawn(async move {
            use tokio::io::AsyncReadExt;
            let mut taken = Vec::new();
            let mut chunk = [0; 64];
            loop {
                tokio::time::sleep(Duration::from_secs(4)).await;
                match far.read(&mut chunk).await.unwrap() {
                    0 => return taken.len(),
                    n => taken.extend_from_slice(&chunk[..n]),
                }
            }
        });
        limited.write_all(&[1; 640]).await.unwrap();
        limited.shutdown().await.unwrap();
        drop(limited);
        assert_eq!(reader.await.unwrap(), 640);
    }
}
