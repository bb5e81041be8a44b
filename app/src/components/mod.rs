//! Widgets shared across pages.

mod simple_card;
mod theme;

pub use simple_card::{SimpleCardView, handoff_line};
pub use theme::{THEME_SCRIPT, ThemeToggle};
