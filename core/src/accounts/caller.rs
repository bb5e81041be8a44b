//! Who a request speaks for, once resolved: the leaf every service's access checks use.

use palaver_wire::accounts::{Role, UserView};
use palaver_wire::audit::DecidedVia;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallerVia {
    Session,
    /// An API token, by the name its owner gave it.
    Token {
        name: String,
    },
    /// A notification's button: a single-use capability that answers one ask one way, and
    /// does nothing else (`POST /push/answer`).
    Push,
    /// A mail's answer link, once its page's button is pressed (`POST /mail/answer/{token}`):
    /// the same kind of capability, issued for mail.
    Mail,
}

/// An authenticated caller.
#[derive(Clone, Debug, PartialEq)]
pub struct Caller {
    pub user: UserView,
    pub via: CallerVia,
}

impl Caller {
    pub fn is_admin(&self) -> bool {
        self.user.role == Role::Admin
    }

    /// The surface the audit trail names for what the caller decides outside a turn's request
    /// (which may also be the watch's): the chat, or the API token's client.
    pub fn decided_via(&self) -> DecidedVia {
        match &self.via {
            CallerVia::Token { name } => DecidedVia::Api { token: name.clone() },
            CallerVia::Session => DecidedVia::Web,
            CallerVia::Push => DecidedVia::Push,
            CallerVia::Mail => DecidedVia::Mail,
        }
    }
}
