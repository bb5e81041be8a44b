//! The system prompt text for asks. Every number comes from [`ASK_LIMITS`].

use super::input::{ASK_FILE_ACCEPT, AskKind, AskSurface, FileAccept, ask_kinds_for_surface};
use super::limits::ASK_LIMITS;

/// Added before the per-kind section whenever asks are offered.
pub const ASKS_SYSTEM_PROMPT: &str = "\
You can ask the user a question inside the chat by calling an ask tool. The turn pauses until they \
answer, and their answer comes back as the tool's result.
- Use an ask tool instead of asking in plain text whenever one can collect the answer.
- Ask only when you cannot continue well without the answer, never for something another tool can find out.
- Call at most one ask tool per step, and no other tool in that step.
- Never ask for passwords, payment card numbers, API keys or other secrets.
Answers come back as {\"action\": …}: \"accept\" holds the answer in content; \"decline\" means the user \
skipped, so continue without it or explain what you need; \"cancel\" with reason \"user_sent_message\" \
means reply to the user's new message, and \"one_ask_at_a_time\" means you asked more than once in a step. \
After a decline or a cancel, do not ask the same question again unless the user asks you to.";

/// Appended last on compact turns, even when asks are off.
pub const COMPACT_SURFACE_SYSTEM_PROMPT: &str = "The user is on a small screen, such as a watch. Keep each reply \
to at most two short sentences, and ask only yes-or-no questions or questions with up to three short options.";

fn skip_line(default_on: bool) -> String {
    if default_on {
        "allowDecline defaults to true, which shows Skip; set it to false only when you cannot continue without an answer."
            .to_string()
    } else {
        "allowDecline defaults to false, because deny is the negative answer; true also shows Skip.".to_string()
    }
}

fn shared_rules(surface: AskSurface) -> String {
    let card = &ASK_LIMITS.simple_card;
    let mut lines = vec![
        "Rules for every ask:".to_string(),
        format!(
            "- prompt is required: the question in plain text (no markdown, no links), 1-{} characters.",
            ASK_LIMITS.prompt_max_length
        ),
        format!("- title is optional, at most {} characters.", ASK_LIMITS.title_max_length),
        "- locale is optional: the BCP 47 tag of the language you wrote the ask in (\"de\", \"ar\", \"pt-BR\"). Set it whenever that is not English; the card then runs in that language's direction.".to_string(),
        "- Each kind below lists its other fields, and whether the user can skip it.".to_string(),
    ];
    if surface == AskSurface::Compact {
        lines.push(format!(
            "- The small screen shows only the first {} characters of prompt and the first {} of title: keep both within those lengths.",
            card.text_max_length, card.title_max_length
        ));
    }
    lines.join("\n")
}

fn choice_rules(surface: AskSurface) -> String {
    let c = &ASK_LIMITS.choice;
    let card = &ASK_LIMITS.simple_card;
    let id_rule = format!(
        "option ids are 1-{} lowercase letters, digits, \"_\" or \"-\", starting with a letter or digit, unique within the ask",
        c.option_id_max_length
    );
    let answer = "Answer: {\"action\":\"accept\",\"content\":{\"selected\":[\"<id>\"]}}.";
    let lines = match surface {
        AskSurface::Compact => vec![
            "ask_choice: the user picks one option by tapping its button.".to_string(),
            format!(
                "- select is always \"one\"; options holds {}-{} items of {{id, label, description?}}.",
                c.options_min, card.buttons_max
            ),
            format!("- {id_rule}."),
            format!(
                "- label at most {} characters, counting each emoji as 2 or more; no two options may share a label.",
                card.button_label_max_length
            ),
            format!(
                "- description at most {}, but buttons show only labels, so put what matters in the prompt and the labels.",
                c.option_description_max_length
            ),
            "- default lists at most one option id.".to_string(),
            format!("- {}", skip_line(true)),
            format!("- {answer}"),
        ],
        AskSurface::Full => vec![
            "ask_choice: the user picks one option or several.".to_string(),
            format!(
                "- select is \"one\" or \"many\"; options holds {}-{} items of {{id, label, description?}}, in display order.",
                c.options_min, c.options_max
            ),
            format!(
                "- {id_rule}; label at most {} characters, description at most {}.",
                c.option_label_max_length, c.option_description_max_length
            ),
            "- default lists option ids, each once: at most one with \"one\", at most maxSelected with \"many\"."
                .to_string(),
            "- minSelected (default 1, at least 0) and maxSelected (default: every choice) are for \"many\" only."
                .to_string(),
            format!(
                "- allowOther (\"many\" only) adds a typed answer of at most {} characters that counts as one choice; otherLabel is at most {}. For one option or Other, use \"many\" with maxSelected 1.",
                c.other_max_length, c.option_label_max_length
            ),
            format!("- submitLabel at most {} characters.", ASK_LIMITS.submit_label_max_length),
            format!("- {}", skip_line(true)),
            format!(
                "- Prefer select \"one\" with at most {} options whose labels have at most {} characters: small screens show those as buttons.",
                card.buttons_max, card.button_label_max_length
            ),
            format!("- {answer} With Other: {{\"selected\":[\"<id>\"],\"other\":\"<what the user typed>\"}}."),
        ],
    };
    lines.join("\n")
}

fn confirm_rules() -> String {
    let max = ASK_LIMITS.confirm.label_max_length;
    [
        "ask_confirm: the user approves or denies one action.".to_string(),
        format!(
            "- confirmLabel and denyLabel: at most {max} characters each, counting each emoji as 2 or more, and different from each other. They default to \"Confirm\" and \"Cancel\"; name the action instead (e.g. \"Delete 14 todos\" / \"Keep them\")."
        ),
        "- destructive defaults to false; set it to true when the action deletes data or cannot be undone.".to_string(),
        format!("- {}", skip_line(false)),
        "- Before any tool call that deletes data, sends something on the user's behalf, spends money, or cannot be undone, call ask_confirm and say exactly what will happen. Act only after {\"confirmed\": true}; {\"confirmed\": false} means no.".to_string(),
    ]
    .join("\n")
}

fn markdown_rules() -> String {
    let m = &ASK_LIMITS.markdown;
    [
        "ask_markdown: the user edits a markdown draft and sends it back.".to_string(),
        format!("- initial holds the whole draft, at most {} characters; do not repeat it in the prompt.", m.max_length),
        format!(
            "- minLength (default 0) and maxLength (default {}) bound the answer, with minLength at most maxLength; placeholder at most {} characters; submitLabel at most {}.",
            m.max_length, m.placeholder_max_length, ASK_LIMITS.submit_label_max_length
        ),
        format!("- {}", skip_line(true)),
        "- Answer: {\"markdown\":\"<the text>\",\"changed\":true}; changed is false when the draft comes back unchanged.".to_string(),
    ]
    .join("\n")
}

fn form_rules() -> String {
    let f = &ASK_LIMITS.form;
    [
        format!(
            "ask_form: the user fills in {}-{} flat fields {{id, type, label, helperText?, required?, default?}} and submits them at once: no nesting, no conditional fields, no passwords.",
            f.fields_min, f.fields_max
        ),
        format!(
            "- field ids follow the option id rule; label at most {} characters, helperText at most {}; required defaults to false.",
            f.label_max_length, f.helper_text_max_length
        ),
        format!(
            "- text and textarea take minLength and maxLength (text at most {}, textarea at most {}).",
            f.text_max_length, f.textarea_max_length
        ),
        format!(
            "- email, url (http or https) and phone ({}-{} digits) are strings; number takes min, max and integer.",
            f.phone_digits_min, f.phone_digits_max
        ),
        "- date is YYYY-MM-DD, time is 24-hour HH:mm, and datetime is ISO 8601 with Z or an offset, seconds optional (\"2026-10-01T09:30Z\", \"2026-10-01T09:30:00+02:00\").".to_string(),
        format!(
            "- boolean is a switch; select and multiselect take {}-{} options {{id, label}}.",
            ASK_LIMITS.choice.options_min, ASK_LIMITS.choice.options_max
        ),
        format!(
            "- default must be a value the field accepts; submitLabel at most {} characters.",
            ASK_LIMITS.submit_label_max_length
        ),
        format!("- {}", skip_line(true)),
        "- Answer: {\"values\":{\"<field id>\":<value>}}; optional fields left empty are left out.".to_string(),
    ]
    .join("\n")
}

fn files_rules() -> String {
    let files = &ASK_LIMITS.files;
    let accept: Vec<String> = ASK_FILE_ACCEPT
        .iter()
        .map(|accept| match accept {
            FileAccept::Image => "image (JPEG, PNG, GIF, WebP)".to_string(),
            other => other.as_str().to_string(),
        })
        .collect();
    [
        "ask_files: the user uploads images or documents.".to_string(),
        format!("- accept is required, each value once: {}.", accept.join(", ")),
        format!(
            "- minFiles and maxFiles are {}-{}, defaulting to {} and {}; submitLabel at most {} characters.",
            files.min_files, files.max_files, files.min_files, files.max_files, ASK_LIMITS.submit_label_max_length
        ),
        format!("- {}", skip_line(true)),
        format!(
            "- The answer lists each file's filename, mimeType and size; the tool result then shows the files: images and PDFs as they are, text, CSV and JSON as text cut to {} bytes.",
            files.text_max_bytes
        ),
    ]
    .join("\n")
}

fn questions_rules(surface: AskSurface) -> String {
    let q = &ASK_LIMITS.questions;
    let card = &ASK_LIMITS.simple_card;
    let answer = "Answer: {\"answers\":[\"<question> — <the answers picked>\"]}, one line per question in order.";
    let lines = match surface {
        AskSurface::Compact => vec![
            "ask_questions: the user answers one quick question by tapping one of its answers.".to_string(),
            format!(
                "- questions holds exactly 1 item {{title, answers}}; answers holds {}-{} items of {{label, description?}}, each label at most {} characters and different from the others.",
                ASK_LIMITS.choice.options_min, card.buttons_max, card.button_label_max_length
            ),
            "- Write no ids: Palaver numbers the questions and answers.".to_string(),
            format!("- {}", skip_line(true)),
            format!("- {answer}"),
        ],
        AskSurface::Full => vec![
            "ask_questions: the user answers several quick questions in one card.".to_string(),
            format!(
                "- questions holds {}-{} items of {{title, multi?, allowCustom?, answers}}; title at most {} characters, each asked once.",
                q.questions_min, q.questions_max, q.question_title_max_length
            ),
            format!(
                "- answers holds {}-{} items of {{label, description?}}: label at most {} characters and different within its question, description at most {}.",
                q.answers_min, q.answers_max, q.answer_label_max_length, q.answer_description_max_length
            ),
            "- multi (default false) lets the user pick more than one answer; allowCustom (default false) adds a box for an answer of their own, beside the answers.".to_string(),
            "- Write no ids: Palaver numbers the questions and answers. Every question must be answered.".to_string(),
            format!("- {}", skip_line(true)),
            format!(
                "- One question with at most {} answers of at most {} characters, without multi or allowCustom, shows as buttons on small screens.",
                card.buttons_max, card.button_label_max_length
            ),
            format!("- {answer} An answer of the user's own reads: their own answer \"<text>\"."),
        ],
    };
    lines.join("\n")
}

/// The system prompt section for the kinds a surface offers (`askPromptSection`); "" when none.
pub fn ask_prompt_section(kinds: &[AskKind], surface: AskSurface) -> String {
    let kinds = ask_kinds_for_surface(kinds, surface);
    if kinds.is_empty() {
        return String::new();
    }
    let tools: Vec<String> = kinds.iter().map(|kind| kind.tool_name()).collect();
    let mut sections = vec![format!("Ask tools you can call: {}.", tools.join(", ")), shared_rules(surface)];
    sections.extend(kinds.iter().map(|kind| match kind {
        AskKind::Choice => choice_rules(surface),
        AskKind::Confirm => confirm_rules(),
        AskKind::Markdown => markdown_rules(),
        AskKind::Form => form_rules(),
        AskKind::Files => files_rules(),
        AskKind::Questions => questions_rules(surface),
    }));
    sections.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asks::ASK_KINDS;

    #[test]
    fn lists_the_offered_tools_once_in_order() {
        let section = ask_prompt_section(&[AskKind::Confirm, AskKind::Choice, AskKind::Confirm], AskSurface::Full);
        assert!(section.starts_with("Ask tools you can call: ask_confirm, ask_choice.\n\nRules for every ask:"));
        assert!(section.contains("ask_confirm: the user approves"));
        assert!(!section.contains("ask_markdown"));
    }

    #[test]
    fn compact_keeps_only_compact_kinds_and_states_the_narrow_limits() {
        let section = ask_prompt_section(&ASK_KINDS, AskSurface::Compact);
        assert!(section.starts_with("Ask tools you can call: ask_choice, ask_confirm, ask_questions."));
        assert!(section.contains("first 140 characters of prompt and the first 40 of title"));
        assert!(section.contains("options holds 2-3 items"));
        assert!(!section.contains("\"many\""));
        assert_eq!(ask_prompt_section(&[AskKind::Form], AskSurface::Compact), "");
        assert_eq!(ask_prompt_section(&[], AskSurface::Full), "");
    }

    #[test]
    fn numbers_come_from_the_limits() {
        let section = ask_prompt_section(&ASK_KINDS, AskSurface::Full);
        for number in ["500", "80", "2-50", "120", "280", "20000", "1-8", "10000", "7-15", "100000", "1-10"] {
            assert!(section.contains(number), "{number} is missing from the prompt section");
        }
    }
}
