//! Markdown to HTML for replies, the same on the server and in the browser.
//!
//! Safe by construction: raw HTML in the markdown becomes visible text, links keep only
//! http(s), mailto and relative targets, and images become links (a reply never makes the
//! browser fetch anything). On the server the result also passes through ammonia, as a second
//! line of defence.
//!
//! A code block comes in a frame with its language and a Copy button; in the browser,
//! `crate::browser` highlights it and makes the button work, once the page is hydrated.

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

/// Whether a link target is one a reply may point at.
fn is_safe_url(url: &str) -> bool {
    // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
    let compact: String = url.chars().filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control()).collect();
    match compact.find([':', '/', '?', '#']) {
        Some(index) if compact[index..].starts_with(':') => {
            let scheme = compact[..index].to_ascii_lowercase();
            matches!(scheme.as_str(), "http" | "https" | "mailto")
        }
        _ => true,
    }
}

/// The language a fenced block names (the info string's first word), when it is a plain name.
fn code_language<'a>(kind: &'a CodeBlockKind<'_>) -> Option<&'a str> {
    let CodeBlockKind::Fenced(info) = kind else { return None };
    let word = info.split([' ', ',', '{']).next().unwrap_or_default();
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '#' | '_' | '.');
    (!word.is_empty() && word.len() <= 32 && word.chars().all(plain)).then_some(word)
}

/// The start of a code block's frame: its language, the Copy button, then the code.
fn code_block_start(kind: &CodeBlockKind) -> String {
    let language = code_language(kind);
    let label = language.map(|language| format!(r#"<span class="code-language">{language}</span>"#));
    let class = language.map(|language| format!(r#" class="language-{language}""#));
    format!(
        r#"<div class="code-block"><div class="code-head">{}<button type="button" class="code-copy" aria-label="Copy code">Copy</button></div><pre><code{}>"#,
        label.unwrap_or_default(),
        class.unwrap_or_default(),
    )
}

pub fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    // Links cannot nest, so one flag tracks whether the current link was dropped.
    let mut dropped_link = false;
    let events = Parser::new_ext(markdown, options).filter_map(move |event| match event {
        Event::Html(html) | Event::InlineHtml(html) => Some(Event::Text(html)),
        Event::Start(Tag::Link { link_type, dest_url, title, id })
        | Event::Start(Tag::Image { link_type, dest_url, title, id }) => {
            dropped_link = !is_safe_url(&dest_url);
            (!dropped_link).then_some(Event::Start(Tag::Link { link_type, dest_url, title, id }))
        }
        Event::End(TagEnd::Link | TagEnd::Image) => {
            (!std::mem::take(&mut dropped_link)).then_some(Event::End(TagEnd::Link))
        }
        Event::Start(Tag::CodeBlock(kind)) => Some(Event::Html(CowStr::from(code_block_start(&kind)))),
        Event::End(TagEnd::CodeBlock) => Some(Event::Html(CowStr::Borrowed("</code></pre></div>"))),
        other => Some(other),
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    sanitize(html)
}

#[cfg(feature = "ssr")]
fn sanitize(html: String) -> String {
    use std::sync::LazyLock;
    // The code block's frame is ours: its classes style it, the button copies (only in the browser).
    static CLEANER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
        let mut cleaner = ammonia::Builder::default();
        cleaner
            .link_rel(Some("noopener noreferrer nofollow"))
            .add_tags(["button"])
            .add_tag_attributes("button", ["type", "class", "aria-label"])
            .add_tag_attributes("div", ["class"])
            .add_tag_attributes("span", ["class"])
            .add_tag_attributes("code", ["class"]);
        cleaner
    });
    CLEANER.clean(&html).to_string()
}

#[cfg(not(feature = "ssr"))]
fn sanitize(html: String) -> String {
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_markdown() {
        let html = to_html("# Title\n\n**bold** and `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |");
        assert!(html.contains("<h1>Title</h1>"));
        assert!(html.contains("<strong>bold</strong>"));
        assert!(html.contains("<table>"));
    }

    #[test]
    fn raw_html_becomes_text() {
        let html = to_html("<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)>");
        assert!(!html.contains("<script"));
        assert!(!html.contains("<img"));
        assert!(html.contains("&lt;script&gt;"));
        assert!(html.contains("&lt;img"));
    }

    #[test]
    fn unsafe_links_keep_only_their_text() {
        for url in
            ["javascript:alert(1)", "JavaScript:alert(1)", "java\tscript:alert(1)", "data:text/html,x", "vbscript:x"]
        {
            let html = to_html(&format!("[click]({url})"));
            assert!(!html.contains("<a"), "{url} must not become a link: {html}");
            assert!(html.contains("click"));
        }
        assert!(to_html("[ok](https://example.com)").contains("href=\"https://example.com\""));
        assert!(to_html("[rel](/c/1)").contains("href=\"/c/1\""));
    }

    #[test]
    fn code_blocks_come_framed_with_their_language_and_a_copy_button() {
        let html = to_html("```rust\nfn main() { println!(\"<hi>\"); }\n```");
        assert!(
            html.starts_with(
                r#"<div class="code-block"><div class="code-head"><span class="code-language">rust</span>"#
            )
        );
        assert!(html.contains(r#"<button type="button" class="code-copy" aria-label="Copy code">Copy</button>"#));
        assert!(
            html.contains(r#"<pre><code class="language-rust">fn main() { println!("#) && html.contains("&lt;hi&gt;")
        );
        assert!(html.ends_with("</code></pre></div>"), "{html}");

        let indented = to_html("    plain code");
        assert!(indented.contains(r#"<div class="code-head"><button"#) && indented.contains("<pre><code>plain code"));
        // An info string that is not a plain name labels nothing.
        let odd = to_html("```\"><script>\nx\n```");
        assert!(odd.contains("<pre><code>x") && !odd.contains("<script"), "{odd}");
        assert!(to_html("```python title=x.py\nx\n```").contains(r#"<code class="language-python">"#));
    }

    #[test]
    fn a_reply_cannot_make_its_own_buttons() {
        let html = to_html(r#"<button class="code-copy" onclick="alert(1)">Copy</button>"#);
        assert!(!html.contains("<button") && html.contains("&lt;button"));
    }

    #[test]
    fn images_become_links() {
        let html = to_html("![a cat](https://example.com/cat.png)");
        assert!(!html.contains("<img"));
        assert!(html.contains("<a href=\"https://example.com/cat.png\""));
    }
}
