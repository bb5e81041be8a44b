//! The storybook: every ask fixture as its card and simple card, and every block fixture
//! rendered, in light and dark side by side (`/storybook`).

mod api;
mod apps;
mod asks;
mod blocks;
mod cards;
mod frame;
mod index;

pub use apps::StorybookAppsPage;
pub use asks::StorybookAskPage;
pub use blocks::StorybookBlockPage;
pub use cards::StorybookCardPage;
pub use index::StorybookIndex;
