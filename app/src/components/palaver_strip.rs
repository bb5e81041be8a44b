//! The lines Palaver itself writes on a decision card (whose approval or question it is, the
//! MCP server, the host a link opens, what a call will do), set apart in a labelled strip of their own, so that
//! nothing a model or a server wrote on the card can pass for them.

use leptos::prelude::*;

use palaver_wire::impact::{Impact, ToolHints, Undo};
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

/// What an approval's call will do and how its server describes the tool, each on its line.
pub fn impact_lines(impact: Option<&Impact>, hints: Option<&ToolHints>, words: &Words) -> impl IntoView + use<> {
    let impact = impact.cloned().unwrap_or_default();
    let summary =
        impact.summary.map(|summary| palaver_line("palaver-impact-summary", words.get("impact-summary"), summary));
    let undo = impact.undo.map(|undo| match undo {
        Undo::Path { how } => palaver_line("palaver-impact-undo", words.get("impact-undo"), how).into_any(),
        Undo::Impossible => view! {
            <p class="palaver-strip__line" data-testid="palaver-impact-undo">
                {words.get("impact-cannot-undo")}
            </p>
        }
        .into_any(),
    });
    let cost = impact.cost.map(|cost| palaver_line("palaver-impact-cost", words.get("impact-cost"), cost));
    let said = hints.map(|hints| hints.words(words)).filter(|said| !said.is_empty());
    let hints = said.map(|said| palaver_line("palaver-tool-hints", words.get("server-hints"), said.join(", ")));
    view! {
        {summary}
        {undo}
        {cost}
        {hints}
    }
}
