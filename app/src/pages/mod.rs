//! Route-level pages that are not part of a domain module.

mod watch;

pub use watch::WatchPage;
