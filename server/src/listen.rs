//! The listener: hyper's connections, with the limits `axum::serve` has no settings for. A
//! client must send a request's headers within the header timeout; a connection from which
//! nothing has come for that long is closed once its response (if any) is done, so an idle
//! connection is closed and a long event stream is not cut; a request body may not stall longer
//! than the body timeout between bytes; one client address may hold only so many connections
//! (more are closed as they arrive), and all clients together only so many that the process keeps
//! file descriptors for its database, files and MCP servers (more get a 503 problem and are
//! closed). On shutdown it stops accepting and lets open connections finish.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;
use tower_http::timeout::TimeoutBody;

/// The listener's limits.
#[derive(Clone, Debug)]
pub struct ListenLimits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub max_connections_per_client: usize,
    /// All clients' connections together.
    pub max_connections: usize,
    /// Proxies carry many clients' connections: theirs are not capped per client.
    pub trusted_proxies: palaver_core::accounts::TrustedProxies,
}

/// File descriptors kept for what is not a client's connection: the database, files being
/// read and written, MCP servers' pipes.
const RESERVED_FDS: u64 = 256;

/// How many connections the process can hold and still open its own files: it raises its
/// open-file limit to the hard limit, then keeps [`RESERVED_FDS`] of it.
pub fn connections_the_fd_limit_allows() -> usize {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let soft = match (limit.current, limit.maximum) {
        (Some(current), Some(maximum)) if current < maximum => {
            match setrlimit(Resource::Nofile, Rlimit { current: Some(maximum), maximum: Some(maximum) }) {
                Ok(()) => maximum,
                Err(err) => {
                    tracing::warn!(%err, "could not raise the open-file limit");
                    current
                }
            }
        }
        (Some(current), _) => current,
        (None, _) => return usize::MAX,
    };
    let allowed = soft.saturating_sub(RESERVED_FDS).max(32);
    tracing::info!(connections = allowed, open_files = soft, "connections capped by the open-file limit");
    usize::try_from(allowed).unwrap_or(usize::MAX)
}

/// Open connections by client address.
#[derive(Clone, Default)]
struct Connections(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// Why a new connection was not counted.
#[derive(Debug, PartialEq)]
enum Refused {
    ClientFull,
    ServerFull,
}

impl Connections {
    /// Counts a new connection from `client`, which may hold `per_client` and all clients
    /// together `total`.
    fn open(&self, client: IpAddr, per_client: usize, total: usize) -> Result<ConnectionSlot, Refused> {
        let mut open = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if open.values().sum::<usize>() >= total {
            return Err(Refused::ServerFull);
        }
        let count = open.entry(client).or_default();
        if *count >= per_client {
            return Err(Refused::ClientFull);
        }
        *count += 1;
        Ok(ConnectionSlot { connections: self.clone(), client })
    }

    fn total(&self) -> usize {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).values().sum()
    }
}

/// A counted connection; dropping it frees its place.
struct ConnectionSlot {
    connections: Connections,
    client: IpAddr,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut open = self.connections.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}

/// Serves `router` on `listener` until `shutdown` completes, then waits for the connections
/// still open (their requests finish; none is accepted).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ListenLimits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    let connections = Connections::default();
    let (closing, closing_seen) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (stream, client) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors, or a connection reset before it was taken: go on.
                    tracing::warn!(%err, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let cap =
            if limits.trusted_proxies.trusts(client.ip()) { usize::MAX } else { limits.max_connections_per_client };
        let slot = match connections.open(client.ip(), cap, limits.max_connections) {
            Ok(slot) => slot,
            Err(Refused::ClientFull) => {
                tracing::warn!(client = %client.ip(), "a client holds too many connections: closed a new one");
                continue;
            }
            Err(Refused::ServerFull) => {
                tracing::warn!(
                    limit = limits.max_connections,
                    "the server holds all the connections it may: refused one"
                );
                tokio::spawn(refuse_busy(stream));
                continue;
            }
        };
        // Each request knows its client (`ConnectInfo`), and its body fails once no byte has
        // come for the body timeout.
        let (router, body_timeout) = (router.clone(), limits.body_timeout);
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let mut request = request.map(|body| TimeoutBody::new(body_timeout, body));
            request.extensions_mut().insert(ConnectInfo(client));
            router.clone().oneshot(request)
        });
        let stream = Watched::new(stream);
        let heard = stream.heard.clone();
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
        let (mut closing, idle) = (closing_seen.clone(), limits.header_timeout);
        tokio::spawn(async move {
            tokio::pin!(connection);
            let mut tick = tokio::time::interval(Duration::from_millis(250));
            let mut ending = false;
            loop {
                tokio::select! {
                    ended = connection.as_mut() => {
                        if let Err(err) = ended {
                            tracing::debug!(%err, "a connection ended with an error");
                        }
                        break;
                    }
                    _ = closing.changed(), if !ending => {
                        ending = true;
                        connection.as_mut().graceful_shutdown();
                    }
                    _ = tick.tick(), if !ending => {
                        if heard.silent_for() >= idle {
                            ending = true;
                            connection.as_mut().graceful_shutdown();
                        }
                    }
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    let _ = closing.send(true);
    while connections.total() > 0 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// Tells a client the server is full, in the API's problem shape, and closes the connection.
async fn refuse_busy(mut stream: TcpStream) {
    const BODY: &str = concat!(
        r#"{"status":503,"title":"Service Unavailable","#,
        r#""detail":"The server holds as many connections as it may. Try again in a moment.","code":"server-busy"}"#
    );
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{BODY}",
        BODY.len()
    );
    use tokio::io::AsyncWriteExt;
    // A client that does not read its refusal is not waited for.
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(response.as_bytes())).await;
}

/// When a connection last had bytes from its client.
#[derive(Clone)]
struct Heard {
    since: Instant,
    at_ms: Arc<AtomicU64>,
}

impl Heard {
    fn now(&self) {
        let elapsed = u64::try_from(self.since.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.at_ms.store(elapsed, Ordering::Relaxed);
    }

    fn silent_for(&self) -> Duration {
        let elapsed = u64::try_from(self.since.elapsed().as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(elapsed.saturating_sub(self.at_ms.load(Ordering::Relaxed)))
    }
}

/// A client's stream that notes when bytes arrive.
struct Watched {
    stream: TcpStream,
    heard: Heard,
}

impl Watched {
    /// Also sends each write at once (`TCP_NODELAY`): with Nagle's algorithm, a small answer on a
    /// kept-alive connection waits for the client's delayed ACK, ~40 ms.
    fn new(stream: TcpStream) -> Self {
        if let Err(err) = stream.set_nodelay(true) {
            tracing::debug!(%err, "a connection keeps Nagle's delay");
        }
        Watched { stream, heard: Heard { since: Instant::now(), at_ms: Arc::new(AtomicU64::new(0)) } }
    }
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.heard.now();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, data)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_its_places_back_as_connections_close() {
        let connections = Connections::default();
        let ada: IpAddr = "10.0.0.1".parse().unwrap();
        let grace: IpAddr = "10.0.0.2".parse().unwrap();
        let first = connections.open(ada, 2, 10).unwrap();
        let _second = connections.open(ada, 2, 10).unwrap();
        assert_eq!(connections.open(ada, 2, 10).err(), Some(Refused::ClientFull), "a third is one too many");
        assert!(connections.open(grace, 2, 10).is_ok(), "another client is not counted against ada");
        drop(first);
        assert!(connections.open(ada, 2, 10).is_ok());
    }

    #[test]
    fn all_clients_together_hold_at_most_the_servers_connections() {
        let connections = Connections::default();
        let clients: Vec<IpAddr> = (1..=4).map(|n| format!("10.0.0.{n}").parse().unwrap()).collect();
        let held: Vec<_> = clients[..3].iter().map(|client| connections.open(*client, 2, 3).unwrap()).collect();
        assert_eq!(connections.open(clients[3], 2, 3).err(), Some(Refused::ServerFull));
        drop(held);
        assert!(connections.open(clients[3], 2, 3).is_ok(), "places come back");
    }

    #[tokio::test]
    async fn an_accepted_connection_sends_without_delay() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).await.unwrap();
        let (accepted, _) = listener.accept().await.unwrap();
        assert!(!accepted.nodelay().unwrap(), "a socket starts with Nagle's delay");
        assert!(Watched::new(accepted).stream.nodelay().unwrap());
        drop(client);
    }
}
