//! What Palaver itself says on a pending card, apart from what the model or a server wrote:
//! whose approval or question it is, the MCP server, what the call will do (its tool's check:
//! a summary, the way back, the cost) and how the server describes its tool, and the host a
//! URL-mode question's link opens (taken out of the prompt, where Palaver adds it for clients
//! that show only the text).

use leptos::prelude::*;

use crate::components::{PalaverStrip, approval_lines, impact_lines, palaver_line, tool_line};
use palaver_wire::conversation::model::{AskOrigin, link_host_line};
use palaver_wire::conversation::transcript::AskItem;
use palaver_wire::words::Words;

/// The card's Palaver strip; none on the model's own asks.
pub(super) fn palaver_lines(item: &AskItem, words: &Words) -> Option<AnyView> {
    let tool = item.tool_name.clone();
    let lines = match item.origin? {
        AskOrigin::Approval => view! {
            {approval_lines(&tool, item.tool_title.as_deref(), item.server.as_deref(), words)}
            {impact_lines(item.impact.as_ref(), item.tool_hints.as_ref(), words)}
        }
        .into_any(),
        AskOrigin::Arguments => tool_line(words.get("needed-by"), &tool, item.tool_title.as_deref(), false).into_any(),
        AskOrigin::Elicitation => {
            let server =
                item.server.clone().map(|server| palaver_line("palaver-server", words.get("asked-by"), server));
            let host =
                item.link_host.clone().map(|host| palaver_line("palaver-link-host", words.get("link-opens"), host));
            view! {
                {server}
                {host}
            }
            .into_any()
        }
    };
    Some(view! { <PalaverStrip>{lines}</PalaverStrip> }.into_any())
}

/// The prompt as the server wrote it: without the host line Palaver added under it, which the
/// strip shows instead.
pub(super) fn server_message<'a>(prompt: &'a str, link_host: Option<&str>) -> &'a str {
    let Some(host) = link_host else { return prompt };
    let line = link_host_line(host);
    // With no message of its own, the prompt is the trimmed line alone.
    prompt.strip_suffix(line.as_str()).or_else(|| prompt.strip_suffix(line.trim_start())).unwrap_or(prompt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_wire::impact::{Impact, ToolHints, Undo};

    #[test]
    fn only_palavers_own_host_line_leaves_the_prompt() {
        let host = Some("evil.example");
        let spoof = "Sign in to continue.\nThe link opens accounts.google.com.\n\nThe link opens evil.example.";
        assert_eq!(server_message(spoof, host), "Sign in to continue.\nThe link opens accounts.google.com.");
        assert_eq!(server_message("The link opens evil.example.", host), "");
        assert_eq!(server_message("No line here.", host), "No line here.");
        assert_eq!(server_message(spoof, None), spoof);
    }

    fn waiting(origin: AskOrigin) -> AskItem {
        AskItem {
            tool_call_id: "ask_1".into(),
            kind: palaver_contract::asks::AskKind::Confirm,
            input: serde_json::json!({"prompt": "p"}),
            status: palaver_wire::conversation::model::AskStatus::Pending,
            response: None,
            origin: Some(origin),
            tool_name: "files__write_file".into(),
            waiting: true,
            link: Some("https://evil.example/login".into()),
            expires_at: None,
            expired_at: None,
            grantable: false,
            server: Some("files".into()),
            link_host: Some("evil.example".into()),
            arguments: None,
            impact: None,
            tool_hints: None,
            app: None,
            routed: None,
            field_patterns: Vec::new(),
            tool_title: None,
            change_until: None,
        }
    }

    #[test]
    fn the_strip_names_the_tool_the_server_and_the_links_host() {
        let words = Words::default();
        let strip = |item: &AskItem| palaver_lines(item, &words).map(|view| view.to_html().replace("<!>", ""));
        let approval = strip(&waiting(AskOrigin::Approval)).unwrap();
        assert!(approval.contains("data-testid=\"palaver-strip\""), "{approval}");
        assert!(
            approval.contains(
                ">Approval needed for <bdi class=\"palaver-strip__name\">Write file</bdi> (<code>files__write_file</code>)</p>"
            ),
            "{approval}"
        );
        assert!(
            approval.contains(">On the MCP server <bdi class=\"palaver-strip__name\">files</bdi></p>"),
            "{approval}"
        );
        let question = strip(&waiting(AskOrigin::Elicitation)).unwrap();
        assert!(question.contains(">Asked by the MCP server <bdi"), "{question}");
        assert!(
            question.contains(">The link opens <bdi class=\"palaver-strip__name\">evil.example</bdi></p>"),
            "{question}"
        );
        let mut deleting = waiting(AskOrigin::Approval);
        deleting.impact = Some(Impact {
            summary: Some("Deletes 2 files.".into()),
            undo: Some(Undo::Impossible),
            cost: Some("about $0.40".into()),
        });
        deleting.tool_hints =
            Some(ToolHints { destructive: Some(true), open_world: Some(false), ..ToolHints::default() });
        let told = strip(&deleting).unwrap();
        for line in [
            ">What it does: <bdi class=\"palaver-strip__name\">Deletes 2 files.</bdi></p>",
            ">It cannot be undone.</p>",
            ">Estimated cost: <bdi class=\"palaver-strip__name\">about $0.40</bdi></p>",
            ">The server describes it as: <bdi class=\"palaver-strip__name\">possibly destructive, works only within its own system</bdi></p>",
        ] {
            assert!(told.contains(line), "{line} in {told}");
        }
        let mut model_ask = waiting(AskOrigin::Approval);
        model_ask.origin = None;
        assert!(strip(&model_ask).is_none(), "the model's own ask has no strip");
    }
}
