//! `GET /gpt/events`: the signed-in user's live events as server-sent events, each with an
//! `id:`; a client that reconnects with `Last-Event-ID` first gets what it missed (or one
//! `resync`). Comments every 15 s keep proxies from closing an idle stream.

use std::collections::HashSet;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::{Stream, StreamExt, stream};
use tokio::sync::broadcast::error::RecvError;

use palaver_core::live::{LiveHub, Missed};
use palaver_wire::live::{LiveEvent, Resync};

use crate::auth::Authenticated;

fn resync() -> Event {
    Event::default().data(serde_json::to_string(&LiveEvent::Resync(Resync {})).unwrap_or_default())
}

#[utoipa::path(get, path = "/gpt/events", tag = "gpt", operation_id = "gpt_events",
    summary = "The caller's live events (asks made and ended, turns started and done, conversations changed)",
    params(("Last-Event-ID" = Option<String>, Header, description = "The last event seen: what was missed comes first")),
    responses((status = 200, description = "Server-sent events, one JSON object each", content_type = "text/event-stream", body = String)))]
pub async fn events(
    State(hub): State<LiveHub>,
    Authenticated(caller): Authenticated,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let last_seen = headers.get("last-event-id").and_then(|value| value.to_str().ok());
    let subscription = hub.subscribe(&caller.user.id, last_seen).await;
    let event_of = |delivered: &palaver_core::live::Delivered| {
        Event::default().id(&delivered.id).data(serde_json::to_string(&delivered.event).unwrap_or_default())
    };
    let (missed, sent): (Vec<Event>, HashSet<i64>) = match subscription.missed {
        Missed::Events(events) => (
            events.iter().map(|delivered| event_of(delivered)).collect(),
            events.iter().map(|event| event.seq).collect(),
        ),
        Missed::TooMuch => (vec![resync()], HashSet::new()),
    };
    let live = stream::unfold(subscription.live, move |mut live| {
        let sent = sent.clone();
        async move {
            loop {
                match live.recv().await {
                    // One stored after the subscription began may have come with the missed ones.
                    Ok(delivered) if !sent.contains(&delivered.seq) => return Some((event_of(&delivered), live)),
                    Ok(_) => {}
                    // Fell behind the channel: what it lost cannot be told apart, so resync.
                    Err(RecvError::Lagged(_)) => return Some((resync(), live)),
                    Err(RecvError::Closed) => return None,
                }
            }
        }
    });
    // Shutting down ends the stream, so the server's graceful shutdown is not held open.
    let events = stream::iter(missed).chain(live).take_until(hub.closed()).map(Ok);
    Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
