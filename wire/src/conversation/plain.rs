//! A reply's markdown as plain text, for screens that show text only (the watch): what a person
//! would read aloud, without the markup's characters.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// `markdown` as plain text: paragraphs, headings and code blocks each on their own lines, list
/// items as `• ` (or `1. `) lines, links as their text, images as their alt text, table cells
/// joined with ` · `, raw HTML left out.
pub fn plain_text(markdown: &str) -> String {
    let mut text = String::new();
    // For each open list, the number of its next item (`None` for a bulleted one).
    let mut lists: Vec<Option<u64>> = Vec::new();
    let mut cells_in_row = 0;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Text(piece) | Event::Code(piece) => text.push_str(&piece),
            Event::SoftBreak => text.push(' '),
            Event::HardBreak | Event::Rule => new_line(&mut text),
            Event::Start(Tag::List(first)) => {
                new_line(&mut text);
                lists.push(first);
            }
            Event::End(TagEnd::List(_)) => {
                lists.pop();
            }
            Event::Start(Tag::Item) => {
                new_line(&mut text);
                text.push_str(&"  ".repeat(lists.len().saturating_sub(1)));
                match lists.last_mut() {
                    Some(Some(number)) => {
                        text.push_str(&format!("{number}. "));
                        *number += 1;
                    }
                    _ => text.push_str("• "),
                }
            }
            Event::Start(Tag::TableRow | Tag::TableHead) => {
                new_line(&mut text);
                cells_in_row = 0;
            }
            Event::Start(Tag::TableCell) => {
                if cells_in_row > 0 {
                    text.push_str(" · ");
                }
                cells_in_row += 1;
            }
            Event::End(TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::CodeBlock | TagEnd::Item | TagEnd::Table) => {
                new_line(&mut text);
            }
            _ => {}
        }
    }
    text.trim().to_string()
}

/// Ends the current line, unless the text is at the start of one.
fn new_line(text: &mut String) {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_go_and_the_words_stay() {
        let markdown = "# Your plan\n\nYou chose **Team** and *monthly* billing, see [the docs](https://example.com).\n\n\
                        - one `seat`\n- two\n  1. nested\n\n3. three\n4. four\n\n```\nlet x = 1;\n```\n\n\
                        | Plan | Price |\n|---|---|\n| Team | $20 |\n\n![a cat](cat.png) <b>raw</b>";
        assert_eq!(
            plain_text(markdown),
            "Your plan\nYou chose Team and monthly billing, see the docs.\n• one seat\n• two\n  1. nested\n\
             3. three\n4. four\nlet x = 1;\nPlan · Price\nTeam · $20\na cat raw"
        );
    }

    #[test]
    fn plain_text_stays_as_it_is() {
        assert_eq!(plain_text("Done. Your team is on the Team plan."), "Done. Your team is on the Team plan.");
        assert_eq!(plain_text(""), "");
    }
}
