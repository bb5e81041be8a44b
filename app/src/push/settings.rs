//! Settings' notification choices, for every device of the person's: quiet hours (in their own
//! time zone; one summary after them), and approvals that only open Palaver from a
//! notification (every approval, or those of the tools named). Destructive approvals never
//! answer from a notification, whatever is chosen here.

use leptos::prelude::*;

use crate::components::{ErrorLine, textarea_text};
use crate::{browser, http};
use palaver_wire::push::{NotificationSettings, QuietHours};

/// The quiet hours a person turning them on starts from.
const QUIET_FROM: &str = "22:00";
const QUIET_UNTIL: &str = "07:00";

#[component]
pub fn NotificationSettingsForm() -> impl IntoView {
    let quiet = RwSignal::new(false);
    let from = RwSignal::new(QUIET_FROM.to_string());
    let until = RwSignal::new(QUIET_UNTIL.to_string());
    let zone = RwSignal::new(String::new());
    let approvals_open_only = RwSignal::new(false);
    let tools = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let saved = RwSignal::new(false);
    // Nothing can be changed before the saved settings are shown: a choice made earlier would be
    // overwritten when they arrive, and a save without them would replace them with defaults.
    let loaded = RwSignal::new(false);
    let show = move |settings: NotificationSettings| {
        quiet.set(settings.quiet_hours.is_some());
        match settings.quiet_hours {
            Some(hours) => {
                from.set(hours.from);
                until.set(hours.until);
                zone.set(hours.time_zone);
            }
            None => zone.set(browser::time_zone()),
        }
        approvals_open_only.set(settings.approvals_open_only);
        tools.set(settings.open_only_tools.join("\n"));
    };
    Effect::new(move |_| {
        leptos::task::spawn_local(async move {
            match http::get::<NotificationSettings>("/push/settings").await {
                Ok(settings) => {
                    show(settings);
                    loaded.set(true);
                }
                Err(err) => error.set(Some(err)),
            }
        });
    });
    let save = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let settings = NotificationSettings {
            quiet_hours: quiet.get_untracked().then(|| QuietHours {
                from: from.get_untracked(),
                until: until.get_untracked(),
                time_zone: zone.get_untracked(),
            }),
            approvals_open_only: approvals_open_only.get_untracked(),
            open_only_tools: tools.get_untracked().lines().map(str::to_string).collect(),
        };
        error.set(None);
        saved.set(false);
        leptos::task::spawn_local(async move {
            match http::send::<_, NotificationSettings>("PUT", "/push/settings", &settings).await {
                Ok(kept) => {
                    show(kept);
                    saved.set(true);
                }
                Err(err) => error.set(Some(err)),
            }
        });
    };
    view! {
        <form class="notification-settings" data-testid="notification-settings" on:submit=save>
            <h3>"When and how notifications reach you"</h3>
            <label>
                <input
                    type="checkbox"
                    data-testid="quiet-hours"
                    disabled=move || !loaded.get()
                    prop:checked=move || quiet.get()
                    on:change=move |event| quiet.set(event_target_checked(&event))
                />
                "Quiet hours: hold notifications back, and send one summary after"
            </label>
            <Show when=move || quiet.get()>
                <div class="notification-settings__quiet">
                    <label>
                        "From"
                        <input
                            type="time"
                            data-testid="quiet-from"
                            prop:value=move || from.get()
                            on:input=move |event| from.set(event_target_value(&event))
                        />
                    </label>
                    <label>
                        "Until"
                        <input
                            type="time"
                            data-testid="quiet-until"
                            prop:value=move || until.get()
                            on:input=move |event| until.set(event_target_value(&event))
                        />
                    </label>
                    <label>
                        "Time zone"
                        <input
                            type="text"
                            data-testid="quiet-time-zone"
                            placeholder="Europe/Berlin"
                            prop:value=move || zone.get()
                            on:input=move |event| zone.set(event_target_value(&event))
                        />
                    </label>
                </div>
            </Show>
            <label>
                <input
                    type="checkbox"
                    data-testid="approvals-open-only"
                    disabled=move || !loaded.get()
                    prop:checked=move || approvals_open_only.get()
                    on:change=move |event| approvals_open_only.set(event_target_checked(&event))
                />
                "Never approve from a notification: approvals only open Palaver"
            </label>
            <label>
                "Tools whose approvals only open Palaver (one name a line; destructive calls always do)"
                <textarea
                    data-testid="open-only-tools"
                    disabled=move || !loaded.get()
                    rows="3"
                    prop:value=move || tools.get()
                    on:input=move |event| tools.set(event_target_value(&event))
                >
                    {textarea_text(&tools.get_untracked())}
                </textarea>
            </label>
            <ErrorLine message=error />
            <button type="submit" data-testid="notification-settings-save" disabled=move || !loaded.get()>
                "Save notification settings"
            </button>
            <Show when=move || saved.get()>
                <p role="status" data-testid="notification-settings-saved">
                    "Saved."
                </p>
            </Show>
        </form>
    }
}
