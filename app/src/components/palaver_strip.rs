//! The lines Palaver itself writes on a decision card (whose approval or question it is, the
//! MCP server, the host a link opens), set apart in a labelled strip of their own, so that
//! nothing a model or a server wrote on the card can pass for them.

use leptos::prelude::*;

use palaver_wire::words::{Words, tool_words};

#[component]
pub fn PalaverStrip(children: Children) -> impl IntoView {
    view! {
        <div class="palaver-strip" data-testid="palaver-strip" role="group" aria-label="Palaver">
            <span class="palaver-strip__label" aria-hidden="true">
                "Palaver"
            </span>
            <div class="palaver-strip__lines">{children()}</div>
        </div>
    }
}

/// One line of the strip: Palaver's words, then the name they are about.
pub fn palaver_line(testid: &'static str, words: String, name: String) -> impl IntoView {
    view! {
        <p class="palaver-strip__line" data-testid=testid>
            {words}
            " "
            <bdi class="palaver-strip__name">{name}</bdi>
        </p>
    }
}

/// A line naming a tool: its title, else its name in words; `exact` adds the name the model
/// calls it by, which a decision must show (a server could title a destructive tool "Read
/// file").
pub fn tool_line(words: String, tool: &str, title: Option<&str>, exact: bool) -> impl IntoView {
    let exact = exact.then(|| {
        view! {
            " ("
            <code>{tool.to_string()}</code>
            ")"
        }
    });
    view! {
        <p class="palaver-strip__line" data-testid="approval-tool">
            {words}
            " "
            <bdi class="palaver-strip__name">{tool_words(tool, title)}</bdi>
            {exact}
        </p>
    }
}

/// An approval's lines: the tool it is for and, for an MCP tool, its server.
pub fn approval_lines(tool: &str, title: Option<&str>, server: Option<&str>, words: &Words) -> impl IntoView + use<> {
    view! {
        {tool_line(words.get("approval-needed"), tool, title, true)}
        {server.map(|server| palaver_line("palaver-server", words.get("on-server"), server.to_string()))}
    }
}
