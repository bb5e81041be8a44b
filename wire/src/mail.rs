//! Mail (Palaver's addition): the bodies of `/mail/*`, a person's mail address and whether
//! their asks are mailed to it.

use serde::{Deserialize, Serialize};

/// `GET /mail/settings`: what Settings shows of mail.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MailSettings {
    /// Whether this server sends mail at all (SMTP and its public URL configured).
    pub available: bool,
    /// The person's address, confirmed or not; absent when they gave none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Whether they followed the link mailed to the address (asks go only to a confirmed one).
    pub confirmed: bool,
    /// Mail me when an agent asks and no tab of mine shows the conversation.
    pub ask_mail: bool,
}

/// `PUT /mail/address`: a new address; a confirmation link is mailed to it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SetMailAddress {
    pub address: String,
}

/// `PUT /mail/asks`: whether asks are mailed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SetAskMail {
    pub on: bool,
}
