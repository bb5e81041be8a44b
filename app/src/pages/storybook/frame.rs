//! What every story page shares.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use serde::{Deserialize, Serialize};

use palaver_wire::error::AppError;

/// What every story page shares: the way back, the story's name as its heading, and the story
/// loaded from the server (`content` renders it once it arrived).
#[component]
pub fn StoryFrame<T, Fut, V>(load: fn(String) -> Fut, content: fn(T) -> V) -> impl IntoView
where
    T: Clone + Send + Sync + Serialize + for<'de> Deserialize<'de> + 'static,
    Fut: std::future::Future<Output = Result<Option<T>, AppError>> + Send + 'static,
    V: IntoView + 'static,
{
    let params = use_params_map();
    let name = move || params.read().get("name").unwrap_or_default();
    let story = Resource::new(name, load);
    view! {
        <main class="storybook">
            <p>
                <a href="/storybook">"All stories"</a>
            </p>
            <h1>{name}</h1>
            <Suspense fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match story.await {
                        Ok(Some(story)) => content(story).into_any(),
                        _ => view! { <p class="error">"There is no such story."</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

/// The same story in the light and the dark theme, side by side.
pub fn in_both_themes(body: impl Fn() -> AnyView) -> impl IntoView {
    view! {
        <div class="storybook__themes">
            {["light", "dark"]
                .into_iter()
                .map(|theme| {
                    view! {
                        <div class=format!("storybook__theme storybook__theme--{theme}") data-theme-panel=theme>
                            {body()}
                        </div>
                    }
                })
                .collect_view()}
        </div>
    }
}
