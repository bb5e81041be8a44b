//! Route-level pages that are not part of a domain module.

mod storybook;
mod storybook_blocks;
mod watch;

pub use storybook::{StorybookAskPage, StorybookCardPage, StorybookIndex};
pub use storybook_blocks::StorybookBlockPage;
pub use watch::WatchPage;
