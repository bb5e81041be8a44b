//! Settings' "Mail": the address asks are mailed to (setting it mails a confirmation link; asks
//! go only to a confirmed address), and the switch "Mail me when an agent asks and no tab of
//! mine shows the conversation".

use leptos::prelude::*;

use crate::components::ErrorLine;
use crate::{browser, http};
use palaver_wire::mail::{MailSettings, SetAskMail, SetMailAddress};

/// What the address line says of the address as stored.
fn address_state(settings: &MailSettings) -> &'static str {
    match (&settings.address, settings.confirmed) {
        (None, _) => "No address yet.",
        (Some(_), false) => "Not confirmed yet: open the link we mailed to it (it works for 24 hours).",
        (Some(_), true) => "Confirmed.",
    }
}

#[component]
pub fn MailSection() -> impl IntoView {
    let settings = RwSignal::new(None::<MailSettings>);
    let address = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let notice = RwSignal::new(None::<String>);
    let reload = move || {
        leptos::task::spawn_local(async move {
            match http::get::<MailSettings>("/mail/settings").await {
                Ok(read) => {
                    address.set(read.address.clone().unwrap_or_default());
                    settings.set(Some(read));
                }
                Err(err) => error.set(Some(err)),
            }
        });
    };
    Effect::new(move |_| reload());
    let save_address = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        error.set(None);
        notice.set(None);
        let body = SetMailAddress { address: address.get_untracked() };
        leptos::task::spawn_local(async move {
            match http::send::<_, ()>("PUT", "/mail/settings/address", &body).await {
                Ok(()) => notice.set(Some(format!("A confirmation link was mailed to {}.", body.address.trim()))),
                Err(err) => error.set(Some(err)),
            }
            reload();
        });
    };
    let forget = move |_| {
        error.set(None);
        notice.set(None);
        leptos::task::spawn_local(async move {
            if let Err(err) = browser::request::<()>("DELETE", "/mail/settings/address", None).await {
                error.set(Some(err));
            }
            reload();
        });
    };
    let switch = move |event: leptos::ev::Event| {
        let body = SetAskMail { on: event_target_checked(&event) };
        leptos::task::spawn_local(async move {
            if let Err(err) = http::send::<_, ()>("PUT", "/mail/settings/asks", &body).await {
                error.set(Some(err));
            }
            reload();
        });
    };
    let available = move || settings.get().is_some_and(|settings| settings.available);
    // Said once the settings have come: until then nothing is known either way.
    let unavailable = move || settings.get().is_some_and(|settings| !settings.available);
    let has_address = move || settings.get().is_some_and(|settings| settings.address.is_some());
    view! {
        <section aria-labelledby="mail-heading" data-testid="mail">
            <h2 id="mail-heading">"Mail"</h2>
            <ErrorLine message=error />
            <Show
                when=available
                fallback=move || {
                    move || {
                        unavailable()
                            .then(|| {
                                view! { <p data-testid="mail-unavailable">"This server does not send mail."</p> }
                            })
                    }
                }
            >
                <p>
                    "Get a mail when an agent asks you something and no tab of yours shows the conversation. A yes-or-no question can be answered from the mail: its link shows the answer, and a button gives it."
                </p>
                <form on:submit=save_address>
                    <label>
                        "Mail address"
                        <input
                            type="email"
                            data-testid="mail-address"
                            maxlength="254"
                            required
                            prop:value=move || address.get()
                            on:input=move |event| address.set(event_target_value(&event))
                        />
                    </label>
                    " "
                    <button type="submit">"Save and confirm"</button>
                    " "
                    <button type="button" on:click=forget disabled=move || !has_address()>
                        "Forget"
                    </button>
                </form>
                <p data-testid="mail-state">{move || settings.get().map(|settings| address_state(&settings))}</p>
                {move || notice.get().map(|notice| view! { <p role="status">{notice}</p> })}
                <label>
                    <input
                        type="checkbox"
                        role="switch"
                        data-testid="mail-asks"
                        prop:checked=move || settings.get().is_some_and(|settings| settings.ask_mail)
                        disabled=move || !has_address()
                        on:change=switch
                    />
                    "Mail me when an agent asks and no tab of mine shows the conversation"
                </label>
            </Show>
        </section>
    }
}
