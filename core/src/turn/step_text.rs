//! A step's text as the reference keeps it: a trailing JSON blob that holds `"action"` (what
//! some models append after their prose) is not part of the reply.

/// `text` without such a blob, as the reference's `\{[\s\S]*?"action"[\s\S]*?\}\s*$` strips
/// it: from the first `{` that has an `"action"` after it, when the text ends in `}` after that
/// `"action"` (and spaces); the rest loses its trailing spaces.
pub fn without_action_blob(text: &str) -> &str {
    const ACTION: &str = "\"action\"";
    let body = text.trim_end();
    if !body.ends_with('}') {
        return text;
    }
    let closing = body.len() - 1;
    // The last "action" that ends before the closing brace: any `{` before it may open the blob.
    let Some(action) = body[..closing].rfind(ACTION) else { return text };
    match body[..action].find('{') {
        Some(open) => text[..open].trim_end(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::without_action_blob;

    #[test]
    fn a_trailing_action_blob_goes_and_everything_else_stays() {
        assert_eq!(without_action_blob("Done.\n{\"action\": \"accept\"}\n"), "Done.");
        assert_eq!(without_action_blob("Plan {a} set. {\"x\": 1, \"action\": \"y\"}"), "Plan");
        assert_eq!(without_action_blob("{\"action\":\"go\"}"), "");
        assert_eq!(without_action_blob("No blob here."), "No blob here.");
        assert_eq!(without_action_blob("An {\"action\": 1} in the middle."), "An {\"action\": 1} in the middle.");
        assert_eq!(without_action_blob("Ends {\"other\": 1}"), "Ends {\"other\": 1}");
        assert_eq!(without_action_blob("\"action\" then {}"), "\"action\" then {}");
        assert_eq!(without_action_blob("Ünïcode {\"action\": \"ö\"}  "), "Ünïcode");
    }
}
