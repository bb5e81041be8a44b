//! A `<textarea>` whose text may come from a model or a user.
//!
//! Leptos writes a textarea's children into the server's HTML without escaping them (tachys
//! declares `textarea`, like `script` and `style`, as an element whose children are not
//! escaped), so `<textarea>{text}</textarea>` lets `</textarea><img onerror=…>` out of the
//! element. So text never goes in as a child the framework writes: every textarea sets it as
//! the `value` property and takes `textarea_text` as its child, which the server writes escaped.

/// What goes between `<textarea>` and `</textarea>` for `text`, set as the element's value
/// (`prop:value`) beside it: on the server, the text escaped and after a newline (the HTML
/// parser drops one newline right after `<textarea>`, so a value that starts with one keeps
/// it); in the browser nothing, since the property holds the value and Leptos never hydrates
/// a textarea's children.
#[cfg(feature = "ssr")]
pub fn textarea_text(text: &str) -> String {
    format!("\n{}", html_escape::encode_text(text))
}

#[cfg(not(feature = "ssr"))]
pub fn textarea_text(_text: &str) {}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use leptos::prelude::*;

    use super::*;

    const HOSTILE: &str = "</textarea><img src=x onerror=\"alert(1)\">&amp;";

    /// The framework's own behaviour, which `textarea_text` exists for: a textarea's child
    /// string reaches the HTML unescaped. If this starts failing, Leptos escapes textareas.
    #[test]
    fn leptos_leaves_textarea_children_unescaped() {
        let html = view! { <textarea>{HOSTILE}</textarea> }.to_html();
        assert!(html.contains("</textarea><img src=x"), "{html}");
    }

    /// The other elements whose text the server render writes from model- or user-written
    /// strings: a select's options and a chart's SVG titles are escaped (a `<title>` of the
    /// page, `<script>` and `<style>` only ever carry Palaver's own constants).
    #[test]
    fn option_and_svg_title_children_are_escaped() {
        let option = view! { <option>{HOSTILE}</option> }.to_html();
        let title = view! {
            <svg>
                <title>{HOSTILE}</title>
            </svg>
        }
        .to_html();
        for html in [option, title] {
            assert!(!html.contains("<img") && html.contains("&lt;/textarea&gt;"), "{html}");
        }
    }

    /// Every textarea in the app's views takes `textarea_text` as its child: one written as
    /// `<textarea>{text}</textarea>` would bring the hole back.
    #[test]
    fn every_textarea_in_the_views_takes_textarea_text() {
        fn rust_files(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
                let path = entry.path();
                if path.is_dir() {
                    rust_files(&path, found);
                } else if path.extension().is_some_and(|ext| ext == "rs") && !path.ends_with("text_area.rs") {
                    found.push(path);
                }
            }
        }
        let mut files = Vec::new();
        rust_files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
        let mut seen = 0;
        for path in files {
            let source = std::fs::read_to_string(&path).unwrap();
            for (start, _) in source.match_indices("<textarea") {
                let element =
                    &source[start..source[start..].find("</textarea>").map_or(source.len(), |end| start + end)];
                assert!(element.contains("textarea_text("), "{}: {element}", path.display());
                seen += 1;
            }
        }
        assert!(seen >= 3, "the form's, the markdown draft's and the composer's textareas");
    }

    #[test]
    fn the_value_stays_inside_the_element() {
        let text = format!("\n{HOSTILE}");
        let html = view! { <textarea prop:value=text.clone()>{textarea_text(&text)}</textarea> }.to_html();
        assert_eq!(html.matches("<textarea").count(), 1, "{html}");
        assert_eq!(html.matches("</textarea>").count(), 1, "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("\n\n&lt;/textarea&gt;&lt;img src=x onerror=\"alert(1)\"&gt;&amp;amp;"), "{html}");
    }
}
