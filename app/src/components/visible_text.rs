//! Text a person decides on, drawn with every character it holds (`palaver_contract::visible`):
//! each character that would hide or reorder text is drawn as its marker (`⟨U+202E⟩`) in an
//! element of its own, so a value that spells a marker out does not read as one.

use leptos::prelude::*;

use palaver_contract::visible::{Layout, Piece, marker, pieces};

/// `text` with its concealing characters drawn as markers; with `break_lines`, a line break's
/// marker is followed by a real break (for a whole value opened in a box of its own).
#[component]
pub fn VisibleText(#[prop(into)] text: String, layout: Layout, #[prop(optional)] break_lines: bool) -> impl IntoView {
    pieces(&text, layout)
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(text) => text.to_string().into_any(),
            Piece::Marker(ch) => {
                let line_break = (break_lines && ch == '\n').then_some("\n");
                view! {
                    <span class="shown-char" data-testid="shown-char">
                        {marker(ch)}
                    </span>
                    {line_break}
                }
                .into_any()
            }
        })
        .collect_view()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_elements_of_their_own_and_the_characters_are_gone() {
        // Without the hydration markers (`<!>`) the server writes between views.
        let render = |text: &str, layout, break_lines| {
            let text = text.to_string();
            view! { <VisibleText text layout break_lines /> }.to_html().replace("<!>", "")
        };
        let html = render("/home/alice/\u{202E}cod.stnemucod/", Layout::Value, false);
        assert!(html.starts_with("/home/alice/<span") && html.ends_with(">⟨U+202E⟩</span>cod.stnemucod/"), "{html}");
        assert!(html.contains("class=\"shown-char\""), "{html}");
        assert!(!html.contains('\u{202E}'));

        let opened = render("a\nb", Layout::Value, true);
        assert!(opened.ends_with(">⟨U+000A⟩</span>\nb"), "a line break's marker is followed by a break: {opened}");
        assert_eq!(render("a\nb", Layout::Prose, false), "a\nb");
    }
}
