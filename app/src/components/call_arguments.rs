//! A guarded call's arguments as its approval shows them: one row per key, every key, in the
//! order the call carries them (the tool schema's own first); a key the schema does not name
//! is flagged. Keys and values are drawn with every character they hold and isolated (`<bdi>`),
//! so no value can reorder or break into another row. A long value is collapsed to its start,
//! the whole of it one tap away; nothing is cut, and the list scrolls when it is long.

use leptos::prelude::*;
use serde_json::Value;

use super::palaver_strip::{PalaverStrip, approval_lines};
use super::visible_text::VisibleText;
use palaver_contract::visible::Layout;
use palaver_wire::body::{CallArgument, GuardedCall};
use palaver_wire::words::{Arg, Words};

/// A value longer than this many characters (as written) is collapsed to its start.
pub const VALUE_SHOWN_MAX: usize = 80;

/// A value as a person reads it: a string in quotes (so `"3"` is not `3`), anything else as
/// compact JSON.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => format!("\"{text}\""),
        other => other.to_string(),
    }
}

/// An approval's call as the watch and the inbox show it: Palaver's lines, then its arguments.
#[component]
pub fn GuardedCallView(call: GuardedCall, words: Words) -> impl IntoView {
    let lines = approval_lines(&call.tool_name, call.tool_title.as_deref(), call.server.as_deref(), &words);
    view! {
        <PalaverStrip>{lines}</PalaverStrip>
        <CallArguments arguments=call.arguments words />
    }
}

#[component]
pub fn CallArguments(arguments: Vec<CallArgument>, words: Words) -> impl IntoView {
    if arguments.is_empty() {
        return view! {
            <p class="call-args__none" data-testid="call-arguments-none">
                {words.get("no-arguments")}
            </p>
        }
        .into_any();
    }
    let rows = arguments.into_iter().map(|argument| argument_row(argument, &words)).collect_view();
    // Focusable, so a keyboard can scroll a long list.
    view! {
        <div
            class="call-args"
            data-testid="call-arguments"
            role="region"
            aria-label=words.get("arguments")
            tabindex="0"
        >
            <table class="call-args__table">
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

fn argument_row(argument: CallArgument, words: &Words) -> impl IntoView + use<> {
    let text = value_text(&argument.value);
    let length = text.chars().count();
    let value = if length > VALUE_SHOWN_MAX {
        let start: String = text.chars().take(VALUE_SHOWN_MAX - 1).collect();
        let count = words.with("characters", &[("count", Arg::from(length))]);
        view! {
            <details class="call-args__long">
                <summary>
                    <bdi class="call-args__text">
                        <VisibleText text=start layout=Layout::Value />
                    </bdi>
                    "… "
                    <span class="call-args__length">{format!("({count})")}</span>
                </summary>
                <bdi class="call-args__full" data-testid="call-argument-full">
                    <VisibleText text layout=Layout::Value break_lines=true />
                </bdi>
            </details>
        }
        .into_any()
    } else {
        view! {
            <bdi class="call-args__text">
                <VisibleText text layout=Layout::Value />
            </bdi>
        }
        .into_any()
    };
    let flag = argument.outside_schema.then(|| {
        view! {
            <span class="call-args__flag" data-testid="call-argument-flag">
                {words.get("outside-schema")}
            </span>
        }
    });
    let class = if argument.outside_schema { "call-args__row call-args__row--outside" } else { "call-args__row" };
    view! {
        <tr class=class data-testid="call-argument">
            <th scope="row" class="call-args__key" data-testid="call-argument-key">
                <bdi>
                    <VisibleText text=argument.key layout=Layout::Value />
                </bdi>
            </th>
            <td class="call-args__value" data-testid="call-argument-value">
                {value}
                {flag}
            </td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use palaver_contract::visible::visible;
    use palaver_core::turn::tools::call_keys::shown_arguments;

    /// The text of an HTML fragment: tags and hydration markers dropped, entities read.
    fn text_of(html: &str) -> String {
        let mut text = String::new();
        let mut in_tag = false;
        for ch in html.chars() {
            match ch {
                '<' => in_tag = true,
                '>' => in_tag = false,
                _ if !in_tag => text.push(ch),
                _ => {}
            }
        }
        text.replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    }

    /// The text of each element that carries `data-testid="<testid>"`, in order.
    fn texts_by_testid(html: &str, testid: &str, closing: &str) -> Vec<String> {
        let marker = format!("data-testid=\"{testid}\"");
        html.split(&marker)
            .skip(1)
            .map(|rest| {
                let start = rest.find('>').map_or(0, |at| at + 1);
                text_of(&rest[start..rest.find(closing).unwrap_or(rest.len())])
            })
            .collect()
    }

    #[test]
    fn every_key_is_a_row_the_schemas_first_and_no_value_is_cut() {
        let schema = json!({
            "type": "object",
            "properties": {"content": {"type": "string"}, "path": {"type": "string"}},
            "required": ["path", "content"],
        });
        let content = format!("first line\n{}\u{202E}end", "x".repeat(600));
        let input = json!({
            "aa": "1", "ab": "2", "ac": "3", "ad": "4", "ae": "5", "af": "6",
            "content": content, "path": "/home/alice/notes.txt",
        });
        let html =
            view! { <CallArguments arguments=shown_arguments(&schema, &input) words=Words::default() /> }.to_html();

        let keys = texts_by_testid(&html, "call-argument-key", "</th>");
        assert_eq!(keys, ["path", "content", "aa", "ab", "ac", "ad", "ae", "af"], "{html}");
        assert_eq!(
            html.matches("data-testid=\"call-argument-flag\"").count(),
            6,
            "each key outside the schema is flagged"
        );

        let values = texts_by_testid(&html, "call-argument-value", "</td>");
        assert_eq!(values[0], "\"/home/alice/notes.txt\"");
        // The long value is collapsed to its start, and the whole of it is there to open.
        let full = texts_by_testid(&html, "call-argument-full", "</bdi>");
        let whole = visible(&value_text(&json!(content)), Layout::Value).replace("⟨U+000A⟩", "⟨U+000A⟩\n");
        assert_eq!(full, [whole]);
        assert!(values[1].starts_with("\"first line⟨U+000A⟩xxx"), "{}", values[1]);
        assert!(values[1].contains("(617 characters)"), "{}", values[1]);
        assert!(!html.contains('\u{202E}'), "no override reaches the page");
    }

    #[test]
    fn a_call_without_arguments_says_so() {
        let html = view! { <CallArguments arguments=Vec::new() words=Words::default() /> }.to_html();
        assert!(html.contains("No arguments."), "{html}");
    }
}
