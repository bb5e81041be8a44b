//! Outgoing webhooks in the app: Settings' "Webhooks" section, where a person registers the
//! URLs that get their asks and turns as signed posts, sees each one's secret once, changes
//! its events, disables, rotates, pings or removes it, and reads its recent deliveries. It
//! talks to the JSON API (`/webhooks/*`) from the browser.

mod deliveries;
mod events;
mod item;
mod secret;
mod section;

pub use section::WebhooksSection;

use palaver_wire::webhooks::{ASK_CREATED, ASK_RESOLVED, TURN_DONE};

/// Each event a webhook may want, with the words Settings shows for it.
const EVENT_CHOICES: [(&str, &str); 3] = [
    (ASK_CREATED, "A question is asked"),
    (ASK_RESOLVED, "A question is answered, cancelled or expires"),
    (TURN_DONE, "A reply is done"),
];
