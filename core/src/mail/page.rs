//! The small standalone pages a mail's links open (no log-in, no script, no Leptos): what an
//! answer link will answer, with the one button that answers it; what a confirmation link
//! will confirm, with its button; and what happened, in the person's words. The link's GET
//! only shows (a mail scanner that fetches every link answers nothing); the button POSTs to
//! the same URL, and the token in it is the whole capability.

use super::compose::escape;

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;\
line-height:1.5;color:#1f2328}h1{font-size:1.3rem}button{font:inherit;padding:.5rem 1.25rem;border-radius:.4rem;\
border:1px solid #1f6feb;background:#1f6feb;color:#fff;cursor:pointer}.question{white-space:pre-wrap;\
border-left:3px solid #d0d7de;padding-left:.75rem}";

/// A whole page: `heading` and `body` (HTML, already escaped where it holds text).
fn document(heading: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"robots\" content=\"noindex\">\n<title>{heading} · Palaver</title>\n<style>{STYLE}</style>\n\
         </head>\n<body>\n<main>\n<h1>{heading}</h1>\n{body}</main>\n</body>\n</html>\n",
        heading = escape(heading),
    )
}

/// The page an answer link opens: the conversation, the question and exactly the answer the
/// button gives.
pub fn confirm_answer(conversation_title: Option<&str>, question: &str, answer: &str) -> String {
    let conversation = conversation_title.map(str::trim).filter(|title| !title.is_empty()).unwrap_or("A conversation");
    let body = format!(
        "<p>In <strong data-testid=\"conversation\">{}</strong>, the agent asks:</p>\n\
         <p class=\"question\" data-testid=\"question\">{}</p>\n\
         <p>Your answer will be: <strong data-testid=\"answer\">{}</strong></p>\n\
         <form method=\"post\"><button type=\"submit\">Answer: {}</button></form>\n\
         <p><small>Nothing is answered until you press the button.</small></p>\n",
        escape(conversation),
        escape(question),
        escape(answer),
        escape(answer),
    );
    document("Answer this question?", &body)
}

/// The page after the button: the answer given, and the way to the conversation.
pub fn answered(answer: &str, open_url: &str) -> String {
    let body = format!(
        "<p data-testid=\"answered\">Answered: <strong>{}</strong></p>\n<p><a href=\"{}\">Open the conversation</a></p>\n",
        escape(answer),
        escape(open_url)
    );
    document("Done", &body)
}

/// Why a link answers or confirms nothing, in a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Forged, cut short, or long gone.
    Unknown,
    /// Used once already.
    Used,
    /// Its question ended (answered elsewhere, cancelled, expired) or its time ran out.
    Ended,
}

/// The page for a link that does nothing: `confirmation` tells an address's link from an answer's.
pub fn refused(refusal: Refusal, confirmation: bool) -> String {
    let (heading, sentence) = match (refusal, confirmation) {
        (Refusal::Unknown, _) => (
            "This link does not work",
            "Palaver knows no link like this one. Check that the whole link was opened (a mail program may cut \
             long links), or open Palaver itself.",
        ),
        (Refusal::Used, false) => {
            ("This link was used already", "Each answer link answers once, and this one has. Nothing more was done.")
        }
        (Refusal::Ended, false) => (
            "This question has ended",
            "It was answered elsewhere, cancelled, or its time ran out. Nothing was answered from this link.",
        ),
        (Refusal::Used, true) => ("This link was used already", "The address was confirmed with it already."),
        (Refusal::Ended, true) => (
            "This link has expired",
            "Confirmation links work for 24 hours. Set the address again in Palaver's Settings to get a new one.",
        ),
    };
    document(heading, &format!("<p data-testid=\"refusal\">{}</p>\n", escape(sentence)))
}

/// The page a confirmation link opens: the address, and the button that confirms it.
pub fn confirm_address(address: &str) -> String {
    let body = format!(
        "<p>Palaver will mail its questions to <strong data-testid=\"address\">{}</strong> once you confirm it.</p>\n\
         <form method=\"post\"><button type=\"submit\">Confirm this address</button></form>\n",
        escape(address)
    );
    document("Confirm your mail address?", &body)
}

/// The page after an address is confirmed.
pub fn address_confirmed(address: &str) -> String {
    let body = format!(
        "<p data-testid=\"confirmed\">Confirmed: <strong>{}</strong>. Settings says when Palaver mails you.</p>\n",
        escape(address)
    );
    document("Address confirmed", &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_confirm_page_escapes_what_it_shows_and_has_no_script() {
        let page = confirm_answer(Some("<script>x()</script>"), "Delete <all>?", "Approve");
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("&lt;script&gt;x()&lt;/script&gt;"));
        assert!(page.contains("Delete &lt;all&gt;?"));
        assert!(page.contains("<form method=\"post\"><button type=\"submit\">Answer: Approve</button></form>"));
    }

    #[test]
    fn each_refusal_has_its_own_words() {
        let pages: Vec<String> = [Refusal::Unknown, Refusal::Used, Refusal::Ended]
            .into_iter()
            .flat_map(|refusal| [refusal_page(refusal, false), refusal_page(refusal, true)])
            .collect();
        assert!(pages[0].contains("does not work") && pages[2].contains("used already"));
        assert!(pages[4].contains("has ended") && pages[5].contains("expired"));
    }

    fn refusal_page(refusal: Refusal, confirmation: bool) -> String {
        refused(refusal, confirmation)
    }
}
