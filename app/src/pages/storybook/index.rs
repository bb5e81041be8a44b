//! `/storybook`: the index of every story.

use leptos::prelude::*;

#[component]
pub fn StorybookIndex() -> impl IntoView {
    let fixtures = Resource::new(|| (), |_| super::api::storybook_fixtures());
    let block_stories = Resource::new(|| (), |_| super::api::storybook_block_stories());
    view! {
        <main class="storybook">
            <h1>"Storybook"</h1>
            <h2>"Blocks"</h2>
            <p>
                "Every block fixture rendered: valid documents, invalid ones with their errors, a reply cut off mid-stream, and a hostile HTML frame."
            </p>
            <Suspense fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    let list = block_stories.await.unwrap_or_default();
                    view! {
                        <ul class="storybook__index">
                            {list
                                .into_iter()
                                .map(|(group, name)| {
                                    view! {
                                        <li>
                                            <a href=format!("/storybook/blocks/{name}")>{name.clone()}</a>
                                            " · "
                                            {group}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })}
            </Suspense>
            <h2>"MCP Apps"</h2>
            <p>
                <a href="/storybook/apps">"Every MCP App of the connected servers"</a>
                ", drawn from a stored call as the chat draws it."
            </p>
            <h2>"Asks"</h2>
            <p>"Every valid ask fixture: the interactive card, its simple card, and how it reads once answered."</p>
            <Suspense fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    let list = fixtures.await.unwrap_or_default();
                    view! {
                        <ul class="storybook__index">
                            {list
                                .into_iter()
                                .map(|fixture| {
                                    view! {
                                        <li>
                                            <a href=format!(
                                                "/storybook/asks/{}",
                                                fixture.name,
                                            )>{fixture.name.clone()}</a>
                                            " · "
                                            <a href=format!("/storybook/cards/{}", fixture.name)>"card"</a>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })}
            </Suspense>
        </main>
    }
}
