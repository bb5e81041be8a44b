//! A moment as the reader reads it: "5 minutes ago" when recent, else the date and time in their
//! language and time zone; never a raw ISO string. The server writes it in UTC ("1 Dec 2026,
//! 08:05 UTC"), which the browser replaces once the page is live (the page from the server has no
//! clock or time zone of the reader's to agree with).

use leptos::prelude::*;

use palaver_wire::conversation::deadline::{age, epoch_ms, moment};

/// Within this, a moment reads as how long ago it was.
const RECENT_MS: i64 = 24 * 60 * 60 * 1000;

/// The words for `iso` from the browser, `now_ms` being its clock.
fn reader_words(iso: &str, now_ms: i64) -> Option<String> {
    let at = epoch_ms(iso)?;
    let elapsed = now_ms - at;
    if (0..RECENT_MS).contains(&elapsed) { Some(age(elapsed)) } else { crate::browser::local_moment(at) }
}

/// `<time>` for a moment the server recorded (ISO 8601, UTC).
#[component]
pub fn LocalTime(#[prop(into)] iso: String) -> impl IntoView {
    let shown = RwSignal::new(moment(&iso).unwrap_or_else(|| iso.clone()));
    let exact = iso.clone();
    Effect::new(move |_| {
        if let Some(words) = reader_words(&exact, crate::browser::now_ms()) {
            shown.set(words);
        }
    });
    let title = moment(&iso);
    view! {
        <time datetime=iso title=title>
            {move || shown.get()}
        </time>
    }
}
