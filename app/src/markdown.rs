//! Markdown to HTML for replies, the same on the server and in the browser.
//!
//! Safe by construction: raw HTML in the markdown becomes visible text, links keep only
//! http(s), mailto and relative targets, and images become links (a reply never makes the
//! browser fetch anything). On the server the result also passes through ammonia, as a second
//! line of defence.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

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
        other => Some(other),
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    sanitize(html)
}

#[cfg(feature = "ssr")]
fn sanitize(html: String) -> String {
    ammonia::Builder::default().link_rel(Some("noopener noreferrer nofollow")).clean(&html).to_string()
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
    fn images_become_links() {
        let html = to_html("![a cat](https://example.com/cat.png)");
        assert!(!html.contains("<img"));
        assert!(html.contains("<a href=\"https://example.com/cat.png\""));
    }
}
