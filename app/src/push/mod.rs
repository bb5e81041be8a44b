//! Web Push in the app: Settings' "Notifications on this device" (turn them on or off here, and
//! the list of devices that get them), the person's notification settings (quiet hours,
//! approvals that only open Palaver), and the presence every tab reports, so a conversation a
//! visible tab shows sends no push. Both talk to the JSON API (`/push/*`) from the browser.

mod devices;
mod presence;
mod settings;

pub use devices::PushSection;
pub use presence::TabPresence;
pub use settings::NotificationSettingsForm;
