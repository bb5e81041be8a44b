//! Route-level pages that are not part of a domain module.

mod storybook;
mod watch;

pub use storybook::{StorybookAskPage, StorybookCardPage, StorybookIndex};
pub use watch::WatchPage;
