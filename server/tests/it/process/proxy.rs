//! A TCP proxy between an instance and PostgreSQL, so a test can take the database away from
//! one instance (or from all, with a proxy each) without touching the server the other test
//! binaries share: [`DbProxy::cut`] closes every connection through it and refuses new ones
//! until [`DbProxy::restore`]. As the instance sees it, that is its database going down and
//! coming back.

use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub struct DbProxy {
    /// The database's URL, through the proxy.
    url: String,
    /// True while the database is cut off.
    cut: watch::Sender<bool>,
    accepting: JoinHandle<()>,
}

/// Its connections end with it: every pipe watches `cut`, whose sender goes with the proxy.
impl Drop for DbProxy {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

impl DbProxy {
    /// A proxy on 127.0.0.1 to the database of `database_url` (`postgres://…`).
    pub async fn start(database_url: &str) -> DbProxy {
        let mut url = reqwest::Url::parse(database_url).expect("a database URL");
        let upstream = url.socket_addrs(|| Some(5432)).expect("the database's address")[0];
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        url.set_port(Some(listener.local_addr().unwrap().port())).unwrap();
        let (cut, watching) = watch::channel(false);
        let accepting = tokio::spawn(accept(listener, upstream, watching));
        DbProxy { url: url.to_string(), cut, accepting }
    }

    /// The URL an instance reaches the database at through this proxy.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Closes every connection through the proxy; new ones are closed as they come.
    pub fn cut(&self) {
        self.cut.send_replace(true);
    }

    /// Lets connections through again.
    pub fn restore(&self) {
        self.cut.send_replace(false);
    }
}

async fn accept(listener: TcpListener, upstream: SocketAddr, cut: watch::Receiver<bool>) {
    loop {
        let Ok((client, _)) = listener.accept().await else { continue };
        // Refused: closed before a byte passes, as a database that is down.
        if !*cut.borrow() {
            tokio::spawn(pipe(client, upstream, cut.clone()));
        }
    }
}

/// Copies both ways until either side closes, or the proxy cuts the connection.
async fn pipe(mut client: TcpStream, upstream: SocketAddr, mut cut: watch::Receiver<bool>) {
    let Ok(mut server) = TcpStream::connect(upstream).await else { return };
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
        _ = cut.wait_for(|cut| *cut) => {}
    }
}
