//! The lines Palaver itself writes on a decision card (whose approval or question it is, the
//! MCP server, the host a link opens), set apart in a labelled strip of their own, so that
//! nothing a model or a server wrote on the card can pass for them.

use leptos::prelude::*;

use palaver_wire::words::Words;

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

/// One line of the strip: Palaver's words, then the name they are about (a tool's in code).
pub fn palaver_line(testid: &'static str, words: String, name: String, code: bool) -> impl IntoView {
    let name = if code {
        view! { <code>{name}</code> }.into_any()
    } else {
        view! { <bdi class="palaver-strip__name">{name}</bdi> }.into_any()
    };
    view! {
        <p class="palaver-strip__line" data-testid=testid>
            {words}
            " "
            {name}
        </p>
    }
}

/// An approval's lines: the tool it is for and, for an MCP tool, its server.
pub fn approval_lines(tool: &str, server: Option<&str>, words: &Words) -> impl IntoView + use<> {
    view! {
        {palaver_line("approval-tool", words.get("approval-needed"), tool.to_string(), true)}
        {server.map(|server| palaver_line("palaver-server", words.get("on-server"), server.to_string(), false))}
    }
}
