//! Text a person decides on, shown with every character it holds. Some characters draw nothing
//! or move the text around them: controls (a line break draws a fake line), bidi embeddings,
//! overrides and isolates (`/home/alice/\u{202E}cod.stnemucod/` reads `/home/alice//documents.doc`),
//! zero-width and other invisible marks. Each becomes a marker such as `⟨U+202E⟩`, so what a
//! card shows is what the text is. The browser and the server split text the same way here; a
//! surface draws each [`Piece::Marker`] apart from the text (a styled element), so a value that
//! spells a marker out literally does not read as one.

/// How much of its own layout a text keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One value on one row (an argument, a key): every such character is a marker, line
    /// breaks, joiners and bidi marks included.
    Value,
    /// Writing in paragraphs (a prompt, a title): line breaks and tabs stay, and so do the
    /// characters that shape scripts and emoji (zero-width joiner and non-joiner) and the bidi
    /// marks right-to-left writing uses (LRM, RLM, ALM); what reorders or hides text does not.
    Prose,
}

/// A piece of a text as shown: text as it is, or a character shown by its marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    Marker(char),
}

/// Bidi embeddings, overrides and isolates: they reorder the text after them.
fn reorders(ch: char) -> bool {
    matches!(ch, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Characters that draw nothing (or only space) and are not whitespace a person would read as
/// such: zero-width space, word joiner and invisible operators, BOM, soft hyphen, fillers,
/// interlinear annotations, musical-notation format characters, tags, and the line and
/// paragraph separators (which break a line as `\n` does).
fn is_invisible(ch: char) -> bool {
    matches!(
        ch,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{180E}'
            | '\u{200B}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{2060}'..='\u{2064}'
            | '\u{206A}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// Characters that change how the ones beside them look without drawing anything themselves:
/// joiners, bidi marks and variation selectors. Prose needs them; in a value they can make two
/// different strings look the same.
fn is_shaping(ch: char) -> bool {
    matches!(
        ch,
        '\u{061C}'
            | '\u{200C}'..='\u{200F}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

/// Whether `ch` is shown by its marker in `layout`.
pub fn is_concealing(ch: char, layout: Layout) -> bool {
    match layout {
        Layout::Value => ch.is_control() || reorders(ch) || is_invisible(ch) || is_shaping(ch),
        Layout::Prose => (ch.is_control() && !matches!(ch, '\n' | '\t' | '\r')) || reorders(ch) || is_invisible(ch),
    }
}

/// The marker a concealing character is shown as: `⟨U+202E⟩`.
pub fn marker(ch: char) -> String {
    format!("⟨U+{:04X}⟩", u32::from(ch))
}

/// `text` split into runs of plain text and the characters shown by their markers, in order.
pub fn pieces(text: &str, layout: Layout) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for (index, ch) in text.char_indices() {
        if is_concealing(ch, layout) {
            if start < index {
                pieces.push(Piece::Text(&text[start..index]));
            }
            pieces.push(Piece::Marker(ch));
            start = index + ch.len_utf8();
        }
    }
    if start < text.len() {
        pieces.push(Piece::Text(&text[start..]));
    }
    pieces
}

/// `text` with each concealing character replaced by its marker, as plain text (for a surface
/// that cannot style the markers, and for tests).
pub fn visible(text: &str, layout: Layout) -> String {
    pieces(text, layout)
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(text) => text.to_string(),
            Piece::Marker(ch) => marker(ch),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_right_to_left_override_is_shown_not_obeyed() {
        let path = "/home/alice/\u{202E}cod.stnemucod/";
        assert_eq!(visible(path, Layout::Value), "/home/alice/⟨U+202E⟩cod.stnemucod/");
        assert_eq!(visible(path, Layout::Prose), "/home/alice/⟨U+202E⟩cod.stnemucod/");
        for isolate in ['\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}']
        {
            assert_eq!(visible(&isolate.to_string(), Layout::Prose), marker(isolate));
        }
    }

    #[test]
    fn a_line_break_in_a_value_is_a_marker_and_in_prose_a_line() {
        let text = "notes.txt\npath: /etc/passwd";
        assert_eq!(visible(text, Layout::Value), "notes.txt⟨U+000A⟩path: /etc/passwd");
        assert_eq!(visible(text, Layout::Prose), text);
        assert_eq!(visible("a\r\n\tb", Layout::Value), "a⟨U+000D⟩⟨U+000A⟩⟨U+0009⟩b");
        assert_eq!(visible("a\u{2028}b\u{0085}c", Layout::Prose), "a⟨U+2028⟩b⟨U+0085⟩c");
    }

    #[test]
    fn invisible_characters_are_shown_everywhere() {
        assert_eq!(visible("pay\u{200B}pal", Layout::Prose), "pay⟨U+200B⟩pal");
        assert_eq!(visible("\u{FEFF}x\u{00AD}y\u{E0041}", Layout::Value), "⟨U+FEFF⟩x⟨U+00AD⟩y⟨U+E0041⟩");
        assert_eq!(visible("nul\0", Layout::Prose), "nul⟨U+0000⟩");
    }

    #[test]
    fn prose_keeps_what_writing_needs_and_a_value_does_not() {
        let family = "👨\u{200D}👩\u{200D}👧";
        assert_eq!(visible(family, Layout::Prose), family);
        assert_eq!(visible(family, Layout::Value), "👨⟨U+200D⟩👩⟨U+200D⟩👧");
        let arabic = "السعر\u{200F} 20";
        assert_eq!(visible(arabic, Layout::Prose), arabic);
        assert_eq!(visible(arabic, Layout::Value), "السعر⟨U+200F⟩ 20");
        assert_eq!(visible("a\u{FE0F}", Layout::Value), "a⟨U+FE0F⟩");
    }

    #[test]
    fn plain_text_is_one_piece_and_markers_split_it_in_order() {
        assert_eq!(pieces("plain text", Layout::Value), [Piece::Text("plain text")]);
        assert_eq!(pieces("", Layout::Value), []);
        assert_eq!(
            pieces("\u{202E}ab\ncd\n", Layout::Value),
            [Piece::Marker('\u{202E}'), Piece::Text("ab"), Piece::Marker('\n'), Piece::Text("cd"), Piece::Marker('\n')]
        );
        // Right-to-left letters are text: only what reorders or hides is a marker.
        assert_eq!(pieces("שלום", Layout::Value), [Piece::Text("שלום")]);
    }
}
