//! What a mail says: the ask mail (its conversation's title, the question, the time left, a
//! link to open it and, for a simple card, one answer link per button) and the mail that
//! confirms an address. Each is plain text and simple HTML; everything a person or an agent
//! wrote is escaped in the HTML, and the subject is one line.

/// The longest subject Palaver writes, in characters (the rest is cut with an ellipsis).
const SUBJECT_MAX_CHARS: usize = 150;

/// A mail's subject and its two bodies.
#[derive(Clone, Debug, PartialEq)]
pub struct Composed {
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// An ask, as its mail tells it.
pub struct AskMail<'a> {
    pub conversation_title: Option<&'a str>,
    pub question: &'a str,
    pub time_left: Option<String>,
    pub open_url: &'a str,
    /// Each button's label and its answer link.
    pub answers: Vec<(&'a str, String)>,
}

/// `text` safe inside HTML text and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            _ => escaped.push(character),
        }
    }
    escaped
}

/// `text` escaped, its line breaks kept as `<br>`.
fn escape_lines(text: &str) -> String {
    text.lines().map(escape).collect::<Vec<_>>().join("<br>\n")
}

/// `text` on one line (control characters and runs of space become one space), cut to `max`
/// characters.
fn one_line(text: &str, max: usize) -> String {
    let line = text.split(|c: char| c.is_whitespace() || c.is_control()).filter(|word| !word.is_empty());
    let line = line.collect::<Vec<_>>().join(" ");
    if line.chars().count() <= max {
        return line;
    }
    let mut cut: String = line.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

fn html_document(body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\"></head>\n<body style=\"font-family: sans-serif\">\n\
         {body}</body>\n</html>\n"
    )
}

/// The mail for an ask.
pub fn ask_mail(ask: &AskMail<'_>) -> Composed {
    let title =
        ask.conversation_title.map(str::trim).filter(|title| !title.is_empty()).unwrap_or("Palaver has a question");
    let subject = one_line(&format!("{title}: {}", ask.question), SUBJECT_MAX_CHARS);
    let mut text = format!("{title}\n\n{}\n", ask.question);
    let mut html = format!("<p><strong>{}</strong></p>\n<p>{}</p>\n", escape(title), escape_lines(ask.question));
    if let Some(left) = &ask.time_left {
        text.push_str(&format!("\n{left}\n"));
        html.push_str(&format!("<p>{}</p>\n", escape(left)));
    }
    if !ask.answers.is_empty() {
        text.push_str("\nAnswer (each link shows the answer and asks you to confirm it before it is given):\n");
        html.push_str("<p>Answer (each link shows the answer and asks you to confirm it before it is given):</p>\n<p>");
        let mut links = Vec::new();
        for (label, url) in &ask.answers {
            text.push_str(&format!("  {}: {url}\n", one_line(label, 80)));
            links.push(format!("<a href=\"{}\">{}</a>", escape(url), escape(label)));
        }
        html.push_str(&links.join(" &nbsp;·&nbsp; "));
        html.push_str("</p>\n");
    }
    text.push_str(&format!("\nOpen the conversation: {}\n", ask.open_url));
    html.push_str(&format!("<p><a href=\"{}\">Open the conversation</a></p>\n", escape(ask.open_url)));
    text.push_str("\nYou get this mail because you asked Palaver to mail you its questions; Settings turns it off.\n");
    html.push_str(
        "<p><small>You get this mail because you asked Palaver to mail you its questions; Settings turns it \
         off.</small></p>\n",
    );
    Composed { subject, text, html: html_document(&html) }
}

/// The mail that confirms `address`: its link opens a page whose button confirms it.
pub fn confirmation_mail(address: &str, url: &str) -> Composed {
    let text = format!(
        "Someone (we hope you) asked Palaver to mail its questions to {address}.\n\n\
         To confirm, open this link within 24 hours and press the button on its page:\n{url}\n\n\
         If it was not you, ignore this mail: nothing is sent to this address unless it is confirmed.\n"
    );
    let html = format!(
        "<p>Someone (we hope you) asked Palaver to mail its questions to {}.</p>\n\
         <p><a href=\"{}\">Confirm this address</a> (within 24 hours; the page asks you to press a button).</p>\n\
         <p>If it was not you, ignore this mail: nothing is sent to this address unless it is confirmed.</p>\n",
        escape(address),
        escape(url)
    );
    Composed { subject: "Confirm your mail address for Palaver".into(), text, html: html_document(&html) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(title: Option<&str>, question: &str) -> Composed {
        ask_mail(&AskMail {
            conversation_title: title,
            question,
            time_left: Some("2 hours left to answer.".into()),
            open_url: "https://chat.example.com/?c=h1",
            answers: vec![
                ("Approve", "https://chat.example.com/mail/answer/AAA".into()),
                ("Deny", "https://chat.example.com/mail/answer/BBB".into()),
            ],
        })
    }

    #[test]
    fn a_title_that_is_markup_is_text_in_the_html_and_one_line_in_the_subject() {
        let composed = mail(Some("<script>alert(1)</script> & \"q\""), "Send it?\nTo <b>all</b>?");
        assert_eq!(composed.subject, "<script>alert(1)</script> & \"q\": Send it? To <b>all</b>?");
        assert!(!composed.html.contains("<script>"), "{}", composed.html);
        assert!(composed.html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;"));
        assert!(composed.html.contains("Send it?<br>\nTo &lt;b&gt;all&lt;/b&gt;?"));
        assert!(!composed.html.contains("<b>"));
        assert!(composed.text.starts_with("<script>alert(1)</script> & \"q\"\n\nSend it?\nTo <b>all</b>?\n"));
    }

    #[test]
    fn an_ask_mail_has_the_time_left_each_answer_link_and_the_conversation() {
        let composed = mail(Some("Quarterly report"), "Send the report?");
        assert_eq!(composed.subject, "Quarterly report: Send the report?");
        assert!(composed.text.contains("\n2 hours left to answer.\n"));
        assert!(composed.text.contains("  Approve: https://chat.example.com/mail/answer/AAA\n"));
        assert!(composed.text.contains("  Deny: https://chat.example.com/mail/answer/BBB\n"));
        assert!(composed.text.contains("Open the conversation: https://chat.example.com/?c=h1\n"));
        assert!(composed.html.contains("<a href=\"https://chat.example.com/mail/answer/AAA\">Approve</a>"));
        let untitled = mail(None, "Go?");
        assert_eq!(untitled.subject, "Palaver has a question: Go?");
    }

    #[test]
    fn a_long_subject_is_cut_and_an_ask_without_links_only_opens() {
        let long = "word ".repeat(100);
        let composed = mail(Some("T"), &long);
        assert_eq!(composed.subject.chars().count(), SUBJECT_MAX_CHARS);
        assert!(composed.subject.ends_with('…'));
        let bare = ask_mail(&AskMail {
            conversation_title: Some("T"),
            question: "Delete everything?",
            time_left: None,
            open_url: "https://chat.example.com/",
            answers: Vec::new(),
        });
        assert!(!bare.text.contains("/mail/answer/") && !bare.html.contains("/mail/answer/"));
        assert!(!bare.text.contains("Answer ("));
    }

    #[test]
    fn a_confirmation_mail_escapes_the_address() {
        let composed = confirmation_mail("a<b>@example.com", "https://x.test/mail/confirm/T?a=1&b=2");
        assert!(composed.html.contains("a&lt;b&gt;@example.com"));
        assert!(composed.html.contains("href=\"https://x.test/mail/confirm/T?a=1&amp;b=2\""));
        assert!(composed.text.contains("https://x.test/mail/confirm/T?a=1&b=2\n"));
    }
}
