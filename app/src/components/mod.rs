//! Widgets shared across pages.

mod theme;

pub use theme::{THEME_SCRIPT, ThemeToggle};
