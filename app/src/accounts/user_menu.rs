//! The header's user menu: who is signed in, the account's pages, and signing out.

use leptos::prelude::*;

use super::api::{LogOut, current_user};
use palaver_wire::accounts::Role;

/// The signed-in user and a sign-out control, for the header; `children` show only to a
/// signed-in user (the inbox).
#[component]
pub fn UserMenu(children: ChildrenFn) -> impl IntoView {
    let children = StoredValue::new(children);
    let user = Resource::new(|| (), |_| current_user());
    let log_out = ServerAction::<LogOut>::new();
    let log_out_url = <LogOut as leptos::server_fn::ServerFn>::url();
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        if let Some(Ok(())) = log_out.value().get() {
            // The tab's drafts of answers were the signed-out person's: the next to sign in
            // here must not find them.
            crate::browser::forget_kept_for_session();
            // A full page load, so every part of the page sees the session ended.
            crate::browser::go_to("/login");
        }
    });
    view! {
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                user.await
                    .ok()
                    .flatten()
                    .map(|user| {
                        view! {
                            {children.with_value(|children| children())}
                            <div class="user-menu" class:user-menu--open=move || open.get()>
                                // On a phone the account's links fold behind the username.
                                <button
                                    type="button"
                                    class="user-menu__toggle"
                                    aria-controls="account-menu"
                                    aria-expanded=move || open.get().to_string()
                                    on:click=move |_| open.update(|open| *open = !*open)
                                >
                                    {user.username.clone()}
                                    <span class="visually-hidden">": account menu"</span>
                                </button>
                                <nav class="user-menu__items" id="account-menu" aria-label="Account">
                                    <span class="user-menu__name" data-testid="signed-in-user">
                                        {user.username.clone()}
                                    </span>
                                    <a href="/settings">"Settings"</a>
                                    {(user.role == Role::Admin).then(|| view! { <a href="/admin">"Admin"</a> })}
                                    <a href="/watch">"Watch"</a>
                                    // A plain form signs out before the page is interactive;
                                    // once it is, the action does, and the browser's download
                                    // carries no reader of form data (`ActionForm` would).
                                    <form
                                        method="post"
                                        action=log_out_url
                                        class="user-menu__logout"
                                        on:submit=move |event| {
                                            event.prevent_default();
                                            log_out.dispatch(LogOut {});
                                        }
                                    >
                                        <button type="submit">"Sign out"</button>
                                    </form>
                                </nav>
                            </div>
                        }
                    })
            })}
        </Transition>
    }
}
