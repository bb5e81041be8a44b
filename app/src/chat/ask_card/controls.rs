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

crate::browser::lazy_view! {
    pub(crate) mod chunk in palaver_ask_cards:
        |card: PendingCard| crate::chat::ask_card::pending_card(card.item, card.channel),
    pending: ("ask-card__pending", "Preparing the question…"),
    unavailable: ("ask-card__unavailable", "This question could not be loaded. Reload the page to try again."),
}

pub(crate) use chunk::{load, view_when_loaded};
