//! The server-side sanitizer of HTML blocks (ammonia, with the reference's allowlist): block,
//! inline and table tags plus `img`; no scripts, frames, forms, inputs, meta/base/link, event
//! handlers or anchor `href`s; the only URLs left are `data:image/*` image sources.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use serde_json::Value;

use super::lint::BlockOptions;
use super::parse::parse_blocks;
use super::validate::validate_blocks;

/// The tags an HTML block keeps.
const ALLOWED_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "footer",
    "header",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hgroup",
    "main",
    "nav",
    "section",
    "blockquote",
    "dd",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "hr",
    "li",
    "ol",
    "p",
    "pre",
    "ul",
    "a",
    "abbr",
    "b",
    "bdi",
    "bdo",
    "br",
    "cite",
    "code",
    "data",
    "dfn",
    "em",
    "i",
    "kbd",
    "mark",
    "q",
    "rb",
    "rp",
    "rt",
    "rtc",
    "ruby",
    "s",
    "samp",
    "small",
    "span",
    "strong",
    "sub",
    "sup",
    "time",
    "u",
    "var",
    "wbr",
    "caption",
    "col",
    "colgroup",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "img",
];

/// Tags removed together with everything inside them.
const REMOVED_WITH_CONTENT: &[&str] = &["script", "style", "textarea", "option", "noscript", "title"];

fn keeps_image_source(value: &str) -> bool {
    value.trim_start().get(..11).is_some_and(|scheme| scheme.eq_ignore_ascii_case("data:image/"))
}

static SANITIZER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut builder = ammonia::Builder::empty();
    let tag_attributes: HashMap<&str, HashSet<&str>> =
        HashMap::from([("a", HashSet::from(["name", "target"])), ("img", HashSet::from(["alt", "src"]))]);
    builder
        .tags(ALLOWED_TAGS.iter().copied().collect())
        .clean_content_tags(REMOVED_WITH_CONTENT.iter().copied().collect())
        .tag_attributes(tag_attributes)
        .url_schemes(HashSet::from(["data"]))
        .url_relative(ammonia::UrlRelative::Deny)
        .link_rel(None)
        .strip_comments(true)
        .attribute_filter(|element, attribute, value| match (element, attribute) {
            ("img", "src") if !keeps_image_source(value) => None,
            _ => Some(value.into()),
        });
    builder
});

/// Sanitizes the HTML of an HTML block.
pub fn sanitize_html_fragment(html: &str) -> String {
    SANITIZER.clean(html).to_string()
}

/// A reply document with every html block sanitized (`sanitizeBlocksText`). A text that does
/// not parse and validate (with HTML allowed) is returned as it is: it is never rendered as
/// blocks. When nothing changed the original text is kept; otherwise the document comes back as
/// JSON, keys in the order v, datasets, blocks.
pub fn sanitize_blocks_text(text: &str, options: &BlockOptions) -> Option<String> {
    let options = BlockOptions { allow_html: true, ..options.clone() };
    let mut parsed = parse_blocks(text).ok()?;
    validate_blocks(&parsed, &options).doc?;
    let blocks = parsed.value.get_mut("blocks")?;
    if !sanitize_html_blocks(blocks) {
        return None;
    }
    let part = |key: &str| parsed.value.get(key).map(Value::to_string);
    let mut json = format!("{{\"v\":{}", part("v")?);
    if let Some(datasets) = part("datasets") {
        json.push_str(&format!(",\"datasets\":{datasets}"));
    }
    json.push_str(&format!(",\"blocks\":{}}}", part("blocks")?));
    Some(json)
}

/// Sanitizes the html of every html block, through columns and cards; true when any changed.
fn sanitize_html_blocks(blocks: &mut Value) -> bool {
    let mut changed = false;
    for block in blocks.as_array_mut().into_iter().flatten() {
        if block.get("type").and_then(Value::as_str) == Some("html")
            && let Some(Value::String(html)) = block.get_mut("html")
        {
            let clean = sanitize_html_fragment(html);
            if clean != *html {
                *html = clean;
                changed = true;
            }
        }
        if let Some(children) = block.get_mut("children") {
            changed |= sanitize_html_blocks(children);
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_get_their_html_blocks_sanitized() {
        let text = r#"{"v": 1, "blocks": [{"type": "columns", "children": [{"type": "divider"}, {"type": "html", "html": "<p>Hi</p><script>alert(1)</script>"}]}]}"#;
        let clean = sanitize_blocks_text(text, &BlockOptions::default()).expect("it changed");
        assert!(!clean.contains("<script") && clean.starts_with("{\"v\":1,\"blocks\":"), "{clean}");
        let options = BlockOptions { allow_html: true, ..BlockOptions::default() };
        assert!(crate::blocks::check_blocks_text(&clean, &options).ok);
        assert_eq!(sanitize_blocks_text("v: 1\nblocks:\n  - type: text\n    markdown: Hi\n", &options), None);
        assert_eq!(sanitize_blocks_text("not a document", &options), None);
    }

    fn clean(html: &str) -> String {
        sanitize_html_fragment(html)
    }

    #[test]
    fn keeps_document_markup() {
        let html = "<h1>Invoice #1042</h1><table><thead><tr><th>Item</th></tr></thead><tbody><tr><td>Roast</td></tr></tbody></table><p><strong>Total</strong> <em>£42</em></p>";
        assert_eq!(clean(html), html);
    }

    #[test]
    fn removes_scripts_with_their_content() {
        assert_eq!(clean("<p>Hi</p><script>alert(1)</script>"), "<p>Hi</p>");
        assert_eq!(clean("<style>p{color:red}</style><p>x</p>"), "<p>x</p>");
    }

    #[test]
    fn removes_event_handlers() {
        assert_eq!(clean("<p onclick=\"steal()\">pay</p>"), "<p>pay</p>");
        assert_eq!(clean("<svg onload=alert(1)><circle/></svg>ok"), "ok");
    }

    #[test]
    fn removes_frames_forms_and_inputs() {
        for html in [
            "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
            "<form action=\"https://evil.test\"><input name=x><button>go</button></form>",
            "<object data=\"x\"></object><embed src=\"x\">",
            "<select><option>a</option></select><textarea>t</textarea>",
        ] {
            let out = clean(html);
            for tag in ["<iframe", "<form", "<input", "<button", "<object", "<embed", "<select", "<textarea", "action="]
            {
                assert!(!out.contains(tag), "{html} → {out}");
            }
        }
    }

    #[test]
    fn removes_meta_base_and_link() {
        let out = clean(
            "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.test\"><base href=\"https://evil.test/\"><link rel=stylesheet href=\"https://evil.test/x.css\"><p>x</p>",
        );
        assert_eq!(out, "<p>x</p>");
    }

    #[test]
    fn anchors_lose_their_targets() {
        assert_eq!(clean("<a href=\"https://evil.test\">pay</a>"), "<a>pay</a>");
        assert_eq!(clean("<a href=\"javascript:alert(1)\">x</a>"), "<a>x</a>");
        assert_eq!(clean("<a href=\"data:text/html,<script>alert(1)</script>\">x</a>"), "<a>x</a>");
    }

    #[test]
    fn images_keep_only_data_image_sources_and_alt() {
        assert_eq!(
            clean("<img src=\"data:image/png;base64,aaaa\" alt=\"logo\" width=\"10\" onerror=\"x()\">"),
            "<img src=\"data:image/png;base64,aaaa\" alt=\"logo\">"
        );
        assert_eq!(clean("<img src=\"https://evil.test/pixel.png\" alt=\"t\">"), "<img alt=\"t\">");
        assert_eq!(clean("<img src=\"//evil.test/p.png\">"), "<img>");
        assert_eq!(clean("<img src=\"data:text/html;base64,PHNjcmlwdD4=\">"), "<img>");
        assert_eq!(clean("<img src=\"DATA:IMAGE/GIF;base64,R0lG\">"), "<img src=\"DATA:IMAGE/GIF;base64,R0lG\">");
    }

    #[test]
    fn style_attributes_and_css_urls_are_gone() {
        let out = clean("<p style=\"background:url(https://evil.test/x)\">x</p><div style=\"color:red\">y</div>");
        assert_eq!(out, "<p>x</p><div>y</div>");
    }

    #[test]
    fn an_xss_corpus_stays_inert() {
        let corpus = [
            "<script>alert(1)</script>",
            "<svg><script>alert(1)</script></svg>",
            "<svg onload=alert(1)>",
            "<img src=x onerror=alert(1)>",
            "<iframe src=\"javascript:alert(1)\"></iframe>",
            "<iframe srcdoc=\"&lt;script&gt;alert(1)&lt;/script&gt;\"></iframe>",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">x</a>",
            "<div style=\"background-image:url(javascript:alert(1))\">x</div>",
            "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
            "<base href=\"javascript:alert(1)//\">",
            "<form action=\"javascript:alert(1)\"><button>x</button></form>",
            "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
            "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
            "<object data=\"data:text/html,<script>alert(1)</script>\"></object>",
            "<body onload=alert(1)>",
            "<details open ontoggle=alert(1)>",
            "<!--<script>alert(1)</script>-->",
        ];
        for html in corpus {
            let out = clean(html).to_lowercase();
            for needle in [
                "<script",
                "javascript:",
                "onerror",
                "onload",
                "ontoggle",
                "<iframe",
                "<form",
                "<meta",
                "<base",
                "<object",
                "<style",
                "url(",
                "data:text/html",
                "srcdoc",
            ] {
                assert!(!out.contains(needle), "{html} → {out}");
            }
        }
    }
}
