//! What the chaos run's users say and what its fake model answers. Every message names its
//! conversation and its place in it (`u1c2m7`, the tag) and what it wants (`talk`, `ask`,
//! `chore`, `long`, `final`); every reply starts with its marker in brackets (the message's tag,
//! `tag~` for a long one, `tag+` for the reply after an answer), then words that follow from the
//! marker alone. So the
//! model answers from the request alone, and any stored reply can be checked against the whole
//! reply it is part of.

use serde_json::{Value, json};

use crate::process::fake_openai::FakeReply;

/// What a message asks of the model.
#[derive(Clone, Copy)]
pub enum Want {
    /// A reply of a few hundred characters.
    Talk,
    /// An `ask_choice` question, then a reply to the answer.
    Ask,
    /// A todo added, completed, then every completed todo deleted: an approval (when no other
    /// conversation of the user deleted the todo first), then a reply to the answer.
    Chore,
    /// A reply that streams for 8 s: it outlasts the database outage.
    Long,
    /// A short reply: the conversation still works.
    Final,
}

impl Want {
    fn word(self) -> &'static str {
        match self {
            Want::Talk => "talk",
            Want::Ask => "ask",
            Want::Chore => "chore",
            Want::Long => "long",
            Want::Final => "final",
        }
    }

    fn parse(word: &str) -> Option<Want> {
        [Want::Talk, Want::Ask, Want::Chore, Want::Long, Want::Final].into_iter().find(|want| want.word() == word)
    }
}

pub fn message(tag: &str, want: Want) -> String {
    format!("{tag} {}", want.word())
}

/// A seeded pseudo-random sequence (SplitMix64): the run's schedule and each client's choices.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `from..to`.
    pub fn between(&mut self, from: u64, to: u64) -> u64 {
        from + self.next() % (to - from).max(1)
    }

    pub fn millis(&mut self, from: u64, to: u64) -> std::time::Duration {
        std::time::Duration::from_millis(self.between(from, to))
    }
}

/// FNV-1a: a marker's own seed.
fn seed_of(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

const WORDS: [&str; 16] = [
    "amber", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kestrel",
    "lantern", "meadow", "nutmeg", "orchard", "pebble",
];

/// The reply for `marker`, in the pieces it streams in (two words each): a few hundred
/// characters; a few words for a final message, 400 for a long one.
pub fn reply_pieces(marker: &str) -> Vec<String> {
    let words = match marker {
        _ if marker.contains("final") => 4,
        _ if marker.ends_with('~') => 400,
        _ => 48,
    };
    let mut rng = Rng::new(seed_of(marker));
    let mut pieces = vec![format!("[{marker}] ")];
    for _ in 0..words / 2 {
        let pair: Vec<&str> = (0..2).map(|_| WORDS[(rng.next() % 16) as usize]).collect();
        pieces.push(format!("{} {} ", pair[0], pair[1]));
    }
    pieces
}

pub fn reply(marker: &str) -> String {
    reply_pieces(marker).concat()
}

/// The marker a reply's text starts with.
pub fn marker_of(text: &str) -> Option<&str> {
    text.strip_prefix('[')?.split_once("] ").map(|(marker, _)| marker)
}

/// The tag and want of the last message a user sent, as the request shows it.
fn last_message(messages: &[Value]) -> Option<(&str, Want)> {
    let text = messages.iter().rev().find(|message| message["role"] == "user")?["content"].as_str()?;
    let (tag, want) = text.split_once(' ')?;
    Some((tag, Want::parse(want)?))
}

/// The name of the call `id` among the assistant's earlier messages.
fn called<'a>(messages: &'a [Value], id: &str) -> Option<&'a str> {
    messages
        .iter()
        .filter_map(|message| message["tool_calls"].as_array())
        .flatten()
        .find(|call| call["id"] == id)
        .and_then(|call| call["function"]["name"].as_str())
}

/// The fake model: the next step of what the last message wants, from the request alone.
pub fn answer(request: &Value) -> FakeReply {
    let messages = request["messages"].as_array().map(Vec::as_slice).unwrap_or_default();
    if messages
        .first()
        .and_then(|system| system["content"].as_str())
        .is_some_and(|system| system.starts_with("Generate a short title"))
    {
        return FakeReply::Text(vec!["Chaos conversation".into()]);
    }
    let Some((tag, want)) = last_message(messages) else {
        return FakeReply::Text(vec!["Say a tag and what you want.".into()]);
    };
    let call = |name: &str, arguments: Value| FakeReply::ToolCall {
        id: format!("call_{tag}_{}", messages.len()),
        name: name.into(),
        arguments,
    };
    let last = messages.last().unwrap_or(&Value::Null);
    if last["role"] == "tool" {
        let result: Value =
            last["content"].as_str().and_then(|content| serde_json::from_str(content).ok()).unwrap_or_default();
        return match (called(messages, last["tool_call_id"].as_str().unwrap_or_default()), &result["todo"]["id"]) {
            (Some("addTodo"), Value::String(id)) => call("completeTodo", json!({"id": id})),
            (Some("completeTodo"), _) if result["completed"].is_string() => call("deleteCompletedTodos", json!({})),
            // An answer, the approved call's result, or a step that failed: the reply after it.
            _ => FakeReply::Text(reply_pieces(&format!("{tag}+"))),
        };
    }
    match want {
        Want::Talk | Want::Final => FakeReply::Text(reply_pieces(tag)),
        Want::Long => FakeReply::Text(reply_pieces(&format!("{tag}~"))),
        Want::Ask => call(
            "ask_choice",
            json!({"prompt": format!("Which one for {tag}?"), "select": "one",
                   "options": [{"id": "a", "label": "Apples"}, {"id": "b", "label": "Pears"}]}),
        ),
        Want::Chore => call("addTodo", json!({"title": format!("{tag} chore")})),
    }
}
