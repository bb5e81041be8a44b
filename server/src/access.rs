//! Who may call a route of the JSON API, as the route table declares it for each.

use axum::http::Method;

/// Who may call a route. Handlers enforce it through their extractors (`Authenticated`) and
/// `authorize_history`; this table says which rule each route follows, and the access-matrix
/// test checks every route against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone.
    Public,
    /// Any signed-in caller (session cookie or bearer token).
    Authenticated,
    /// Signed-in admins only.
    Admin,
    /// The conversation named in the path or body: its owner; an admin may read, never write.
    HistoryRead,
    HistoryWrite,
    /// The upload named in the path: its owner only. Anyone else, signed out included, gets 404,
    /// as if it did not exist, so an id reveals nothing.
    FileOwner,
    /// Whoever holds the single-use capability the body carries (a notification's button); a
    /// session or token beside it counts for nothing, and an unknown capability gets 404.
    Capability,
}

/// One API route and its access rule, as the documentation and the tests read them.
pub struct ApiRoute {
    pub method: Method,
    pub path: String,
    pub access: Access,
}
