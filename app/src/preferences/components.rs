//! Settings' "Custom instructions" section and Admin's "Server" section.

use leptos::prelude::*;

use super::api::{AdminSaveServerSettings, SavePreferences, admin_server_settings, my_preferences};
use crate::chat::api::list_models;
use crate::components::{error_paragraph, textarea_text};
use palaver_wire::approvers::{ApprovalRoute, ApprovalRouteInput, Approver};
use palaver_wire::error::AppError;
use palaver_wire::preferences::{INSTRUCTIONS_MAX_CHARS, ServerSettings, UserPreferences};

/// A person's instructions for every conversation, and the model theirs start on.
#[component]
pub fn PreferencesSection() -> impl IntoView {
    let save = ServerAction::<SavePreferences>::new();
    let current = Resource::new(move || save.version().get(), |_| my_preferences());
    let models = Resource::new(|| (), |_| list_models());
    view! {
        <section aria-labelledby="preferences-heading" data-testid="preferences">
            <h2 id="preferences-heading">"Custom instructions"</h2>
            <Transition fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match (current.await, models.await) {
                        (Ok(preferences), Ok(models)) => preferences_form(save, preferences, models).into_any(),
                        (Err(err), _) | (_, Err(err)) => error_paragraph(&err).into_any(),
                    }
                })}
            </Transition>
            {move || saved_status(save.value().get(), "preferences-saved")}
        </section>
    }
}

fn preferences_form(
    save: ServerAction<SavePreferences>,
    preferences: UserPreferences,
    models: Vec<palaver_wire::body::ModelOption>,
) -> impl IntoView {
    let count = RwSignal::new(preferences.instructions.chars().count());
    let chosen = preferences.default_model.clone().unwrap_or_default();
    view! {
        <ActionForm action=save attr:class="password-form" attr:aria-label="Your preferences">
            <label>
                "Instructions for every conversation"
                <textarea
                    name="instructions"
                    rows="6"
                    maxlength=INSTRUCTIONS_MAX_CHARS.to_string()
                    aria-describedby="instructions-help"
                    on:input=move |event| count.set(event_target_value(&event).chars().count())
                >
                    {textarea_text(&preferences.instructions)}
                </textarea>
            </label>
            <p class="auth-page__hint" id="instructions-help">
                "Palaver tells the model these in every conversation of yours, such as how you like answers written. "
                {move || format!("{} / {INSTRUCTIONS_MAX_CHARS} characters.", count.get())}
            </p>
            <label>
                "Your default model" <select name="default_model">
                    <option value="" selected=chosen.is_empty()>
                        "The server's default"
                    </option>
                    {models
                        .into_iter()
                        .map(|model| {
                            let selected = model.id == chosen;
                            view! {
                                <option value=model.id selected=selected>
                                    {model.label}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <p class="auth-page__hint">"A conversation that has not chosen a model runs on it."</p>
            <button type="submit">"Save preferences"</button>
        </ActionForm>
    }
}

/// Whether anyone may sign up, and which of the configured models are offered.
#[component]
pub fn ServerSettingsSection() -> impl IntoView {
    let save = ServerAction::<AdminSaveServerSettings>::new();
    let current = Resource::new(move || save.version().get(), |_| admin_server_settings());
    view! {
        <section aria-labelledby="server-settings-heading" data-testid="server-settings">
            <h2 id="server-settings-heading">"Server"</h2>
            <Transition fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match current.await {
                        Ok(settings) => server_settings_form(save, settings).into_any(),
                        Err(err) => error_paragraph(&err).into_any(),
                    }
                })}
            </Transition>
            {move || saved_status(save.value().get(), "server-settings-saved")}
        </section>
    }
}

fn server_settings_form(save: ServerAction<AdminSaveServerSettings>, settings: ServerSettings) -> impl IntoView {
    let open_signup = RwSignal::new(settings.open_signup);
    let offered = RwSignal::new(
        settings.models.iter().filter(|model| model.offered).map(|model| model.id.clone()).collect::<Vec<_>>(),
    );
    let ungranted = RwSignal::new(settings.ungranted_tools.join("\n"));
    let routes = RwSignal::new(approval_routes_text(&settings.approval_routes));
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        save.dispatch(AdminSaveServerSettings {
            open_signup: open_signup.get_untracked(),
            offered: offered.get_untracked().join(","),
            ungranted: Some(ungranted.get_untracked()),
            approval_routes: Some(routes.get_untracked()),
        });
    };
    view! {
        <form class="password-form" aria-label="Server settings" on:submit=submit>
            <label class="checkbox">
                <input
                    type="checkbox"
                    prop:checked=move || open_signup.get()
                    on:change=move |event| open_signup.set(event_target_checked(&event))
                />
                "Anyone may create an account"
            </label>
            <fieldset class="server-settings__models">
                <legend>"Models on offer"</legend>
                {settings
                    .models
                    .into_iter()
                    .map(|model| {
                        let id = model.id.clone();
                        let shown = model.id.clone();
                        view! {
                            <label class="checkbox">
                                <input
                                    type="checkbox"
                                    // The default is always offered.
                                    disabled=model.default
                                    prop:checked=move || offered.with(|ids| ids.contains(&shown))
                                    on:change=move |event| {
                                        let on = event_target_checked(&event);
                                        offered
                                            .update(|ids| {
                                                ids.retain(|known| *known != id);
                                                if on {
                                                    ids.push(id.clone());
                                                }
                                            })
                                    }
                                />
                                {model.label}
                                {model.default.then_some(" (the default)")}
                            </label>
                        }
                    })
                    .collect_view()}
            </fieldset>
            <label>
                "Tools that never offer a grant (one name a line; every call of theirs is asked about)"
                <textarea
                    data-testid="ungranted-tools"
                    rows="3"
                    prop:value=move || ungranted.get()
                    on:input=move |event| ungranted.set(event_target_value(&event))
                >
                    {textarea_text(&ungranted.get_untracked())}
                </textarea>
            </label>
            <label>
                "Approvals that go to someone else, as JSON: a list of {\"tool\" (or \"server\"), \"approver\" (a username, or \"admins\"), \"approvals\" (2 for two distinct approvers)}"
                <textarea
                    data-testid="approval-routes"
                    rows="4"
                    placeholder="[{\"tool\": \"files__write_file\", \"approver\": \"admins\", \"approvals\": 2}]"
                    prop:value=move || routes.get()
                    on:input=move |event| routes.set(event_target_value(&event))
                >
                    {textarea_text(&routes.get_untracked())}
                </textarea>
            </label>
            <button type="submit">"Save server settings"</button>
        </form>
    }
}

/// What a save said: "Saved." (its `testid` for tests), or why not.
fn saved_status<T>(outcome: Option<Result<T, AppError>>, testid: &'static str) -> Option<AnyView> {
    outcome.map(|saved| match saved {
        Ok(_) => view! {
            <p role="status" data-testid=testid>
                "Saved."
            </p>
        }
        .into_any(),
        Err(err) => error_paragraph(&err),
    })
}

/// The approval routes as an admin writes them: JSON, approvers by username.
fn approval_routes_text(routes: &[ApprovalRoute]) -> String {
    if routes.is_empty() {
        return String::new();
    }
    let written: Vec<ApprovalRouteInput> = routes
        .iter()
        .map(|route| ApprovalRouteInput {
            tool: route.tool.clone(),
            server: route.server.clone(),
            approver: match &route.approver {
                Approver::User { username, .. } => username.clone(),
                Approver::Admins => "admins".into(),
            },
            approvals: route.approvals,
        })
        .collect();
    serde_json::to_string_pretty(&written).unwrap_or_default()
}
