//! The audit trail of asks: every ending of an ask or an approval, written in the transaction
//! that ends the ask, so there is exactly one per ending (the entries as the client sees them
//! are in `palaver_wire::audit`).

pub mod store;
