//! The controls of pending ask cards, with the contract checks behind them: a wasm chunk of
//! their own in the browser, so a conversation without a pending ask never downloads them. A page that
//! shows one fetches the chunk before it is hydrated (`crate::hydration::prepare`); an ask that
//! arrives later fetches it when it first shows. On the server they render at once.

use super::AnswerChannel;
use palaver_wire::conversation::transcript::AskItem;

/// What the chunk renders: a pending ask and where its answer goes.
#[derive(Clone)]
pub struct PendingCard {
    pub item: AskItem,
    pub channel: AnswerChannel,
}

#[cfg(feature = "hydrate")]
mod chunk {
    use leptos::prelude::*;
    use leptos::wasm_split::{SplitLoaderError, wasm_split};

    use super::PendingCard;
    use crate::chunks::Chunk;

    static CHUNK: Chunk = Chunk::new(
        ("ask-card__pending", "Preparing the question…"),
        ("ask-card__unavailable", "This question could not be loaded. Reload the page to try again."),
    );

    #[wasm_split(palaver_ask_cards, wasm_split_path = ::leptos::wasm_split, fallible, preload(load_chunk))]
    fn split_card(card: PendingCard) -> Result<AnyView, SplitLoaderError> {
        Ok(crate::chat::ask_card::pending_card(card.item, card.channel))
    }

    /// Fetches the chunk (once it has loaded, at once); whether it is loaded.
    pub async fn load() -> bool {
        CHUNK.load(load_chunk()).await
    }

    pub fn view_when_loaded(card: PendingCard) -> AnyView {
        CHUNK.view_when_loaded(card, split_card, load)
    }
}

#[cfg(feature = "hydrate")]
pub(crate) use chunk::{load, view_when_loaded};

/// On the server the card renders at once.
#[cfg(not(feature = "hydrate"))]
pub fn view_when_loaded(card: PendingCard) -> leptos::prelude::AnyView {
    super::pending_card(card.item, card.channel)
}
