//! The admin's accounts section: create accounts, and per account disable or enable it and
//! set a new password for someone who forgot theirs.

use leptos::prelude::*;

use super::api::{AdminCreateUser, AdminResetPassword, AdminSetDisabled, admin_list_users};
use super::password_fields::{KeepTokensCheckbox, NewPasswordField, password_outcome};
use crate::components::{error_alert, error_paragraph};
use palaver_wire::accounts::{PASSWORD_MIN_LENGTH, UserView};

#[component]
pub fn AccountsSection() -> impl IntoView {
    let create = ServerAction::<AdminCreateUser>::new();
    let set_disabled = ServerAction::<AdminSetDisabled>::new();
    let users = Resource::new(move || (create.version().get(), set_disabled.version().get()), |_| admin_list_users());
    view! {
        <section aria-labelledby="users-heading">
            <h2 id="users-heading">"Accounts"</h2>
            <CreateAccountForm create />
            {move || error_alert(set_disabled.value().get())}
            <Transition fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match users.await {
                        Ok(list) => {
                            view! {
                                <table class="token-list user-list">
                                    <thead>
                                        <tr>
                                            <th scope="col">"Username"</th>
                                            <th scope="col">"Role"</th>
                                            <th scope="col">"Status"</th>
                                            <th scope="col">
                                                <span class="visually-hidden">"Actions"</span>
                                            </th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {list
                                            .into_iter()
                                            .map(|user| view! { <AccountRow user set_disabled /> })
                                            .collect_view()}
                                    </tbody>
                                </table>
                            }
                                .into_any()
                        }
                        Err(err) => error_paragraph(&err),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn CreateAccountForm(create: ServerAction<AdminCreateUser>) -> impl IntoView {
    let username = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let admin = RwSignal::new(false);
    view! {
        <form
            class="token-form"
            aria-label="Create an account"
            on:submit=move |event| {
                event.prevent_default();
                create
                    .dispatch(AdminCreateUser {
                        username: username.get_untracked(),
                        password: password.get_untracked(),
                        admin: admin.get_untracked(),
                    });
            }
        >
            <label>"Username" <input type="text" required bind:value=username /></label>
            <label>
                "Password" <input type="password" required minlength=PASSWORD_MIN_LENGTH bind:value=password />
            </label>
            <label class="checkbox">
                <input type="checkbox" bind:checked=admin />
                "Admin"
            </label>
            <button type="submit">"Create account"</button>
        </form>
        {move || error_alert(create.value().get())}
    }
}

/// One account: its state, Disable/Enable, and a form that sets a new password (shown on demand).
#[component]
fn AccountRow(user: UserView, set_disabled: ServerAction<AdminSetDisabled>) -> impl IntoView {
    let reset = ServerAction::<AdminResetPassword>::new();
    let resetting = RwSignal::new(false);
    let UserView { id, username, role, disabled, .. } = user;
    let toggle = {
        let id = id.clone();
        move |_| {
            set_disabled.dispatch(AdminSetDisabled { user_id: id.clone(), disabled: !disabled });
        }
    };
    let label = username.clone();
    // Copy, for the form the row opens and closes again and again.
    let user_id = StoredValue::new(id);
    view! {
        <tr data-testid="account-row" data-username=username.clone()>
            <td>{username.clone()}</td>
            <td>{role.as_str()}</td>
            <td>{if disabled { "disabled" } else { "active" }}</td>
            <td class="user-list__actions">
                <button type="button" on:click=toggle>
                    {if disabled { "Enable " } else { "Disable " }}
                    <span class="visually-hidden">{label.clone()}</span>
                </button>
                <button
                    type="button"
                    aria-expanded=move || resetting.get().to_string()
                    on:click=move |_| resetting.update(|open| *open = !*open)
                >
                    "Set password "
                    <span class="visually-hidden">{label.clone()}</span>
                </button>
            </td>
        </tr>
        <Show when=move || resetting.get()>
            <tr>
                <td colspan="4">
                    <ActionForm
                        action=reset
                        attr:class="token-form"
                        attr:aria-label=format!("New password for {label}")
                    >
                        <input type="hidden" name="user_id" value=user_id.get_value() />
                        <NewPasswordField />
                        <KeepTokensCheckbox label="Keep their API tokens working" />
                        <button type="submit">"Set password"</button>
                    </ActionForm>
                    {move || {
                        password_outcome(
                            reset.value().get(),
                            "password-set",
                            "Password set. ",
                            |ended| match ended {
                                0 => "No session was signed in.".to_string(),
                                1 => "Its 1 session was signed out.".to_string(),
                                many => format!("Its {many} sessions were signed out."),
                            },
                        )
                    }}
                </td>
            </tr>
        </Show>
    }
}
