//! `/storybook/apps`: every MCP App of the MCP servers connected now, each drawn as the chat
//! draws it from a stored call — here one with no arguments and the result below — in no
//! conversation (so it can call its server's tools that need no approval, and nothing else).
//! The apps are read through the API: signed out, there are none.

use leptos::prelude::*;
use serde_json::json;

use crate::chat::{AppToolNames, McpApp};

/// The time in the stored result each app is drawn with (`{"time": …}`, as the extension's
/// example answers), which that example shows as its server's.
const STORY_TIME: &str = "2026-01-01T09:30:00.000Z";

#[component]
pub fn StorybookAppsPage() -> impl IntoView {
    AppToolNames::provide();
    let names = use_context::<AppToolNames>().map(AppToolNames::names);
    let tools = move || names.map(|names| names.get()).unwrap_or_default();
    view! {
        <main class="storybook">
            <p>
                <a href="/storybook">"All stories"</a>
            </p>
            <h1>"MCP Apps"</h1>
            <p data-testid="story-note">
                {format!(
                    "Each app of the connected MCP servers, drawn from a stored call with no arguments and the result {{\"time\": \"{STORY_TIME}\"}}, in this page's theme.",
                )}
            </p>
            <Show
                when=move || !tools().is_empty()
                fallback=|| {
                    view! {
                        <p data-testid="story-no-apps">
                            "No app to draw: no connected MCP server has one, or you are signed out."
                        </p>
                    }
                }
            >
                {move || {
                    tools()
                        .into_iter()
                        .map(|tool| {
                            view! {
                                <section class="storybook__app" data-testid="story-app">
                                    <h2>{tool.clone()}</h2>
                                    <McpApp
                                        conversation_id=String::new()
                                        tool_call_id="story".to_string()
                                        tool_name=tool
                                        args=json!({})
                                        result=Some(json!({"time": STORY_TIME}))
                                        cut_off=false
                                    />
                                </section>
                            }
                        })
                        .collect_view()
                }}
            </Show>
        </main>
    }
}
