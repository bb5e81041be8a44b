//! Web Push in the app: Settings' "Notifications on this device" (turn them on or off here, and
//! the list of devices that get them), and the presence every tab reports, so a conversation a
//! visible tab shows sends no push. Both talk to the JSON API (`/push/*`) from the browser.

mod devices;
mod presence;

pub use devices::PushSection;
pub use presence::TabPresence;
