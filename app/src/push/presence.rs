//! The tab's presence: which conversation it shows while visible, told to the server
//! (`PUT /push/presence`) when that changes and again before the last word lapses, so no push
//! goes out for what the person is looking at.

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

use crate::{browser, http};
use palaver_wire::push::{PRESENCE_REFRESH_SECONDS, Presence};

fn report(tab_id: String, history_id: Option<String>) {
    leptos::task::spawn_local(async move {
        // A signed-out tab is refused, and a lost report lapses by itself: nothing to show.
        let _: Result<(), String> = http::send("PUT", "/push/presence", &Presence { tab_id, history_id }).await;
    });
}

/// Reports the tab's presence for as long as the page lives; renders nothing.
#[component]
pub fn TabPresence() -> impl IntoView {
    let location = use_location();
    let query = use_query_map();
    let visible = RwSignal::new(false);
    let tab = StoredValue::new(String::new());
    let shown = Memo::new(move |_| {
        let chat = location.pathname.get() == "/" && visible.get();
        chat.then(|| query.get().get("c")).flatten()
    });
    Effect::new(move |_| {
        tab.set_value(browser::new_tab_id());
        visible.set(browser::page_visible());
        browser::on_visibility_change(move || visible.set(browser::page_visible()));
        leptos::task::spawn_local(async move {
            loop {
                browser::sleep(Duration::from_secs(PRESENCE_REFRESH_SECONDS.into())).await;
                if let Some(history_id) = shown.get_untracked() {
                    report(tab.get_value(), Some(history_id));
                }
            }
        });
    });
    Effect::new(move |previous: Option<Option<String>>| {
        let now = shown.get();
        // The memo changed (or, the first time, a conversation shows): say so.
        if previous.is_some() || now.is_some() {
            report(tab.get_value(), now.clone());
        }
        now
    });
}
