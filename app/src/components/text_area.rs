//! A `<textarea>` whose text may come from a model or a user.
//!
//! Leptos writes a textarea's children into the server's HTML without escaping them (tachys
//! declares `textarea`, like `script` and `style`, as an element whose children are not
//! escaped), so `<textarea>{text}</textarea>` lets `</textarea><img onerror=…>` out of the
//! element. Here the text is never a child the framework writes: the browser sets it as the
//! `value` property, and the server writes it escaped itself.

use leptos::prelude::*;

/// A textarea showing `value`; other attributes and handlers go on the element as written
/// at the call site (`<TextArea value … attr:rows="4" on:input=… />`).
#[component]
pub fn TextArea(#[prop(into)] value: Signal<String>) -> impl IntoView {
    view! { <textarea prop:value=move || value.get()>{server_text(&value.get_untracked())}</textarea> }
}

/// The textarea's content as the server must write it: escaped, and with a leading newline,
/// since the HTML parser drops one newline right after `<textarea>` (a value that starts with
/// one would lose it). The browser sets the property instead; its children are never hydrated.
#[cfg(feature = "ssr")]
fn server_text(text: &str) -> String {
    format!("\n{}", html_escape::encode_text(text))
}

#[cfg(not(feature = "ssr"))]
fn server_text(_text: &str) {}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    const HOSTILE: &str = "</textarea><img src=x onerror=\"alert(1)\">&amp;";

    /// The framework's own behaviour, which this component exists for: a textarea's child
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
        let title = view! { <svg><title>{HOSTILE}</title></svg> }.to_html();
        for html in [option, title] {
            assert!(!html.contains("<img") && html.contains("&lt;/textarea&gt;"), "{html}");
        }
    }

    #[test]
    fn the_value_stays_inside_the_element() {
        let owner = Owner::new();
        owner.with(|| {
            let html = view! { <TextArea value=Signal::stored(format!("\n{HOSTILE}")) /> }.to_html();
            assert_eq!(html.matches("<textarea").count(), 1, "{html}");
            assert_eq!(html.matches("</textarea>").count(), 1, "{html}");
            assert!(!html.contains("<img"), "{html}");
            assert!(html.contains("\n\n&lt;/textarea&gt;&lt;img src=x onerror=\"alert(1)\"&gt;&amp;amp;"), "{html}");
        });
    }
}
