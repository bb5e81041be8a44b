//! `demo`: the keyless demo agent. It answers in friendly, streamed markdown so Palaver can be
//! tried without an API key. Its phrases are listed in the README.

use std::time::Duration;

use futures::StreamExt;
use futures::stream::{self, BoxStream};

use super::{ChatModel, FinishReason, ModelEvent, ModelMessage, ModelRequest, Usage, estimate_tokens};

/// How long the demo waits between streamed words, so the reply visibly streams.
const WORD_DELAY: Duration = Duration::from_millis(15);

#[derive(Default)]
pub struct DemoModel;

const HELP: &str = "I'm the **Palaver demo agent**: no API key, no network, just a script.\n\n\
Try one of these:\n\n\
- **hello**: a greeting\n\
- **help**: this list\n\
- **markdown**: a tour of what replies can format\n\n\
Anything else, I repeat back to you so you can see how messages render.";

const MARKDOWN_TOUR: &str = "Here is what a reply can hold:\n\n\
## A heading\n\n\
Some *emphasis*, some **strong** text and `inline code`.\n\n\
1. A numbered list\n\
2. with two items\n\n\
> A quotation, for good measure.\n\n\
```rust\nfn main() {\n    println!(\"Hello from Palaver\");\n}\n```\n\n\
| Column | Value |\n|---|---|\n| rows | 2 |\n| tables | yes |\n\n\
[A safe link](https://example.com).";

/// The reply the demo agent gives to the latest user message.
fn reply_to(message: &str) -> String {
    let lowered = message.trim().to_lowercase();
    let words: Vec<&str> = lowered.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let has = |word: &str| words.contains(&word);
    if has("help") {
        HELP.to_string()
    } else if has("markdown") {
        MARKDOWN_TOUR.to_string()
    } else if has("hello") || has("hi") || has("hey") {
        format!("Hello! 👋 Nice to meet you.\n\n{HELP}")
    } else {
        let quoted: String = message.lines().map(|line| format!("> {line}\n")).collect();
        format!(
            "You said:\n\n{quoted}\nI'm only the demo agent, so I can't do much with that yet. Type **help** to see what I can show you."
        )
    }
}

/// Splits text after each space so that every chunk is one word plus its trailing space.
fn word_chunks(text: &str) -> Vec<String> {
    text.split_inclusive(' ').map(str::to_string).collect()
}

impl ChatModel for DemoModel {
    fn name(&self) -> &str {
        "demo"
    }

    fn stream(&self, request: ModelRequest) -> BoxStream<'static, ModelEvent> {
        let last_prompt = request.messages.iter().rev().find_map(|message| match message {
            ModelMessage::User { text } => Some(text.as_str()),
            _ => None,
        });
        let reply = reply_to(last_prompt.unwrap_or(""));
        let usage = Usage {
            input_tokens: estimate_tokens(&request.system) + estimate_tokens(last_prompt.unwrap_or("")),
            output_tokens: estimate_tokens(&reply),
        };
        let words = stream::iter(word_chunks(&reply)).then(|chunk| async move {
            tokio::time::sleep(WORD_DELAY).await;
            ModelEvent::TextDelta(chunk)
        });
        words.chain(stream::once(async move { ModelEvent::Finish { reason: FinishReason::Stop, usage } })).boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_pick_their_replies() {
        assert!(reply_to("help me").contains("demo agent"));
        assert!(reply_to("Show me MARKDOWN please").contains("## A heading"));
        assert!(reply_to("hi!").starts_with("Hello!"));
        assert!(reply_to("this is a thing").contains("> this is a thing"));
    }

    #[test]
    fn chunks_rebuild_the_text() {
        let reply = reply_to("hello");
        assert_eq!(word_chunks(&reply).concat(), reply);
    }
}
