//! The share dialog a conversation's row menu opens: it makes a read-only link (shown once, with
//! Copy), says since when a conversation is shared, and stops sharing. It lives beside the list,
//! not in an entry, so the list reloading under it does not close it.

use leptos::prelude::*;

use super::shelf_api::{share_conversation, sharing_state, stop_sharing};
use crate::components::{ErrorLine, LocalTime};
use palaver_wire::conversation::share::ShareStatus;

/// The conversation the dialog is open for.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ShareTarget {
    pub(super) id: String,
    pub(super) title: String,
}

/// The dialog, shown as a modal while `target` names a conversation (Escape or Close shuts it).
/// `changed` runs after a link is made or stopped, so the list shows its marker.
#[component]
pub(super) fn ShareDialog(target: RwSignal<Option<ShareTarget>>, changed: Callback<Option<String>>) -> impl IntoView {
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let status = RwSignal::new(None::<ShareStatus>);
    // The whole address of a link made while the dialog is open: its token is shown only now.
    let made = RwSignal::new(None::<String>);
    let copied = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let pending = RwSignal::new(false);
    Effect::new(move |_| {
        let Some(ShareTarget { id, .. }) = target.get() else { return };
        status.set(None);
        made.set(None);
        copied.set(false);
        error.set(None);
        if let Some(dialog) = dialog.get_untracked() {
            crate::browser::show_modal(&dialog);
        }
        leptos::task::spawn_local(async move {
            match sharing_state(id).await {
                Ok(found) => _ = status.try_set(Some(found)),
                Err(err) => _ = error.try_set(Some(err.to_string())),
            }
        });
    });
    let id = move || target.with_untracked(|target| target.as_ref().map(|target| target.id.clone()));
    let make_link = move || {
        let Some(id) = id() else { return };
        pending.set(true);
        leptos::task::spawn_local(async move {
            match share_conversation(id).await {
                Ok(link) => {
                    _ = made.try_set(Some(crate::browser::absolute_url(&link.url)));
                    _ = status.try_set(Some(ShareStatus { shared: true, since: None }));
                    changed.run(None);
                }
                Err(err) => _ = error.try_set(Some(err.to_string())),
            }
            _ = pending.try_set(false);
        });
    };
    let stop = move || {
        let Some(id) = id() else { return };
        pending.set(true);
        leptos::task::spawn_local(async move {
            match stop_sharing(id).await {
                Ok(()) => {
                    _ = made.try_set(None);
                    _ = status.try_set(Some(ShareStatus::default()));
                    changed.run(None);
                }
                Err(err) => _ = error.try_set(Some(err.to_string())),
            }
            _ = pending.try_set(false);
        });
    };
    let title = move || target.with(|target| target.as_ref().map(|target| format!("Share “{}”", target.title)));
    view! {
        <dialog
            class="share-dialog"
            node_ref=dialog
            aria-labelledby="share-dialog-title"
            data-testid="share-dialog"
            on:close=move |_| target.set(None)
        >
            <h2 class="share-dialog__title" id="share-dialog-title">
                {title}
            </h2>
            <p>
                "Anyone with the link can read this conversation as it is now, without signing in. They cannot answer its questions or send messages, and they do not see who you are."
            </p>
            {move || match (status.get(), made.get()) {
                (None, _) => view! { <p role="status">"Loading…"</p> }.into_any(),
                (Some(_), Some(url)) => {
                    let copy = url.clone();
                    view! {
                        <p class="share-dialog__link">
                            <input readonly aria-label="Share link" data-testid="share-url" prop:value=url />
                            <button
                                type="button"
                                data-testid="copy-share-link"
                                on:click=move |_| crate::browser::copy_text(copy.clone(), copied)
                            >
                                {move || if copied.get() { "Copied" } else { "Copy" }}
                            </button>
                        </p>
                        <p class="share-dialog__note">"Copy it now: it is shown only this once."</p>
                    }
                        .into_any()
                }
                (Some(ShareStatus { shared: true, since }), None) => {
                    view! {
                        <p data-testid="share-state">
                            "Shared"
                            {since
                                .map(|iso| {
                                    view! {
                                        " since "
                                        <LocalTime iso />
                                    }
                                })}
                            ". The link was shown when it was made; a new link replaces it, and the old one stops working."
                        </p>
                        <button type="button" disabled=move || pending.get() on:click=move |_| make_link()>
                            "Make a new link"
                        </button>
                    }
                        .into_any()
                }
                (Some(_), None) => {
                    view! {
                        <button
                            type="button"
                            class="ask-button ask-button--primary"
                            data-testid="make-share-link"
                            disabled=move || pending.get()
                            on:click=move |_| make_link()
                        >
                            "Make a link"
                        </button>
                    }
                        .into_any()
                }
            }}
            {move || {
                status
                    .get()
                    .filter(|status| status.shared)
                    .map(|_| {
                        view! {
                            <button
                                type="button"
                                class="ask-button ask-button--destructive"
                                data-testid="stop-sharing"
                                disabled=move || pending.get()
                                on:click=move |_| stop()
                            >
                                "Stop sharing"
                            </button>
                        }
                    })
            }}
            <ErrorLine message=error />
            <form class="share-dialog__actions" method="dialog">
                <button>"Close"</button>
            </form>
        </dialog>
    }
}
