//! The answer a person may still change: remembered in the transaction that stores it (by
//! `turn::store::resolve`), read back and withdrawn by `reopen`. Apart from `reopen`, whose
//! withdrawal runs a turn, so the store of every resolution does not depend on it.

pub(super) mod store;
