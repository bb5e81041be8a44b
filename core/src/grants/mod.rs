//! Approval grants, stored per user: made with the approval that gave them, looked up before a
//! guarded call, revoked in Settings (the grants as the client sees them are in
//! `palaver_wire::grants`).

pub mod store;
