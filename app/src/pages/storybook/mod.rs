//! The storybook: every ask fixture as its card and simple card, and every block fixture
//! rendered, in light and dark side by side (`/storybook`).

mod asks;
mod blocks;
#[cfg(feature = "ssr")]
mod fixtures;
mod frame;
mod index;

pub use asks::{StorybookAskPage, StorybookCardPage};
pub use blocks::StorybookBlockPage;
pub use index::StorybookIndex;
