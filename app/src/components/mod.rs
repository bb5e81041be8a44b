//! Widgets shared across pages.

mod blocks;
mod chart;
mod error_alert;
mod simple_card;
mod text_area;
mod theme;

#[cfg(feature = "hydrate")]
pub(crate) use blocks::renderer as block_renderer;
pub use blocks::{BlockActionsContext, BlocksDocumentView, BlocksReply, StreamingBlocks};
pub use error_alert::{error_alert, error_paragraph};
pub use simple_card::{SimpleCardView, button_label, handoff_line};
pub use text_area::textarea_text;
pub use theme::{THEME_SCRIPT, ThemeToggle};
