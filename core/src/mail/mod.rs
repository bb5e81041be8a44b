//! Mail: when an agent asks and no tab of the person shows the conversation, a mail to their
//! confirmed address with the question, the time left, a link to the conversation and, for a
//! simple card that does not hand off and has no destructive button, one answer link per
//! button (`crate::answer_links`, issued for mail). A link opens a page that shows exactly
//! what it will answer; only that page's button (a POST) answers (`page`). SMTP through
//! lettre; mails go out from tasks of their own that follow the live hub's events
//! (`deliver`), so no turn waits for a mail server or fails with one.

pub mod compose;
mod deliver;
pub mod page;
mod store;

use std::sync::Arc;
use std::time::Duration;

use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::answer_links::{self, Capability, Redeemed, Surface};
use crate::db::Pool;
use crate::error::{AppError, AppResult, Error};
use crate::live::LiveHub;
use crate::push::message::question_of;
use crate::turn::store::pending_ask;
use compose::Composed;
use page::Refusal;

/// How long a confirmation link works.
const CONFIRMATION_SECONDS: i64 = 24 * 3600;

/// The longest address Palaver keeps (RFC 5321's limit on a path).
const ADDRESS_MAX_CHARS: usize = 254;

/// How long one conversation with the SMTP server may take.
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// The server's mail configuration, as given.
#[derive(Clone, Debug, Default)]
pub struct MailConfig {
    /// lettre's connection URL (`smtp://host:port`, `smtps://user:pass@host`,
    /// `smtp://host?tls=required`); without it Palaver sends no mail.
    pub smtp_url: Option<String>,
    /// The mails' From, required with `smtp_url`.
    pub from: Option<String>,
    /// The origin links point at (the first of `PALAVER_PUBLIC_URL`); without it mail is off.
    pub public_url: Option<String>,
}

/// The mail service: cloning shares it.
#[derive(Clone)]
pub struct Mail {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Pool,
    /// `None` when this server sends no mail.
    sender: Option<Sender>,
}

struct Sender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: url::Url,
}

/// What an answer link would answer, for its page.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerPreview {
    pub conversation_title: Option<String>,
    pub question: String,
    /// The label of the button the link gives.
    pub answer: String,
    /// Where the conversation (or, for an approver, the inbox) opens.
    pub open_url: String,
}

/// An address as kept: trimmed, one mailbox, at most [`ADDRESS_MAX_CHARS`] characters.
pub fn checked_address(address: &str) -> AppResult<String> {
    let address = address.trim();
    let parsed = address.parse::<lettre::Address>();
    if address.chars().count() > ADDRESS_MAX_CHARS || parsed.is_err() {
        return Err(Error::new(AppError::BadRequest(
            "The mail address is not valid. Give one address, such as ada@example.com.".into(),
        )));
    }
    Ok(address.to_string())
}

impl Sender {
    fn configured(config: &MailConfig) -> Result<Option<Self>, String> {
        let Some(smtp_url) = config.smtp_url.as_deref().filter(|url| !url.trim().is_empty()) else {
            return Ok(None);
        };
        let from = config.from.as_deref().filter(|from| !from.trim().is_empty()).ok_or_else(|| {
            "PALAVER_MAIL_FROM is required with PALAVER_SMTP_URL: give the address mails come from.".to_string()
        })?;
        let from: Mailbox = from.trim().parse().map_err(|err| {
            format!("PALAVER_MAIL_FROM is not a mail address (such as Palaver <palaver@example.com>): {err}")
        })?;
        let Some(public) = config.public_url.as_deref() else {
            tracing::warn!(
                "mail is off: PALAVER_SMTP_URL is set, but PALAVER_PUBLIC_URL is not, and mails need it for their links"
            );
            return Ok(None);
        };
        let first = public.split(',').map(str::trim).find(|origin| !origin.is_empty()).unwrap_or_default();
        let public_url =
            url::Url::parse(first).map_err(|err| format!("PALAVER_PUBLIC_URL's {first} is not a URL: {err}"))?;
        crate::outbound::ensure_tls(); // lettre's TLS takes the process's provider (ring)
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url.trim())
            .map_err(|err| {
                format!("PALAVER_SMTP_URL is not an SMTP URL (smtp://host:port, smtps://user:pass@host): {err}")
            })?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        Ok(Some(Self { transport, from, public_url }))
    }

    /// The public URL of `path` (which starts with `/`).
    fn link(&self, path: &str) -> String {
        self.public_url.join(path).map(String::from).unwrap_or_else(|_| path.to_string())
    }

    async fn send(&self, to: &str, composed: Composed) -> AppResult<()> {
        let to: Mailbox = to.parse().map_err(|err| Error::internal(err))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(composed.subject)
            .multipart(MultiPart::alternative_plain_html(composed.text, composed.html))
            .map_err(|err| Error::internal(err))?;
        self.transport.send(message).await.map_err(|err| Error::internal(err))?;
        Ok(())
    }
}

impl Mail {
    /// The service as `config` says (sending nothing without SMTP: Settings says so), mailing
    /// asks from its own task as `live` publishes them; an error names the setting that is wrong.
    pub fn start(pool: Pool, live: &LiveHub, config: &MailConfig) -> Result<Self, String> {
        let sender = Sender::configured(config)?;
        let sends = sender.is_some();
        let mail = Self { inner: Arc::new(Inner { pool, sender }) };
        if sends {
            tokio::spawn(deliver::follow(mail.clone(), live.follow("mail", deliver::wanted)));
        }
        Ok(mail)
    }

    /// Whether this server sends mail.
    pub fn sends(&self) -> bool {
        self.inner.sender.is_some()
    }

    fn sender(&self) -> AppResult<&Sender> {
        self.inner.sender.as_ref().ok_or_else(|| Error::internal("mail was asked of a server that sends none"))
    }

    /// The public URL of `path`, or the path itself when this server sends no mail.
    fn link(&self, path: &str) -> String {
        self.inner.sender.as_ref().map_or_else(|| path.to_string(), |sender| sender.link(path))
    }

    /// What Settings shows of the user's mail.
    pub async fn settings(&self, user_id: &str) -> AppResult<palaver_wire::mail::MailSettings> {
        let row = store::address_of(&self.inner.pool, user_id).await?;
        Ok(palaver_wire::mail::MailSettings {
            available: self.sends(),
            confirmed: row.as_ref().is_some_and(|row| row.confirmed == 1),
            ask_mail: row.as_ref().is_some_and(|row| row.ask_mail == 1),
            address: row.map(|row| row.address),
        })
    }

    /// Sets the user's address (unconfirmed) and mails it a confirmation link.
    pub async fn set_address(&self, user_id: &str, address: &str) -> AppResult<()> {
        let sender = self.sender()?;
        let address = checked_address(address)?;
        let capability = Capability::mint()?;
        store::set_address(&self.inner.pool, user_id, &address, &capability.hash, CONFIRMATION_SECONDS).await?;
        let url = sender.link(&format!("/mail/confirm/{}", capability.token));
        sender.send(&address, compose::confirmation_mail(&address, &url)).await
    }

    /// Turns ask mails on or off; false when the user has no address.
    pub async fn set_ask_mail(&self, user_id: &str, on: bool) -> AppResult<bool> {
        store::set_ask_mail(&self.inner.pool, user_id, on).await
    }

    /// Removes the user's address; false when they had none.
    pub async fn remove_address(&self, user_id: &str) -> AppResult<bool> {
        store::remove_address(&self.inner.pool, user_id).await
    }

    async fn confirmation(&self, token: &str) -> AppResult<Result<store::ConfirmationRow, Refusal>> {
        let Some(hash) = answer_links::token_hash(token) else { return Ok(Err(Refusal::Unknown)) };
        let row = store::confirmation(&self.inner.pool, &hash).await?;
        Ok(match row.filter(|row| answer_links::same_hash(&row.token_hash, &hash)) {
            None => Err(Refusal::Unknown),
            Some(row) if row.used == 1 => Err(Refusal::Used),
            Some(row) if row.expired == 1 => Err(Refusal::Ended),
            Some(row) => Ok(row),
        })
    }

    /// The address a confirmation link would confirm, without confirming it.
    pub async fn confirmation_preview(&self, token: &str) -> AppResult<Result<String, Refusal>> {
        Ok(self.confirmation(token).await?.map(|row| row.address))
    }

    /// Confirms the address of a confirmation link, once: the address, or why not.
    pub async fn confirm(&self, token: &str) -> AppResult<Result<String, Refusal>> {
        let row = match self.confirmation(token).await? {
            Ok(row) => row,
            Err(refusal) => return Ok(Err(refusal)),
        };
        // Used meanwhile, or the address changed since the link was mailed (its link ended).
        if !store::confirm(&self.inner.pool, &row).await? {
            return Ok(Err(Refusal::Used));
        }
        Ok(Ok(row.address))
    }

    /// What a mail's answer link would answer, without answering: the page's contents, or why
    /// the link answers nothing.
    pub async fn answer_preview(&self, token: &str) -> AppResult<Result<AnswerPreview, Refusal>> {
        let pool = &self.inner.pool;
        let claim = match answer_links::look(pool, Surface::Mail, token).await? {
            Redeemed::Claimed(claim) => claim,
            Redeemed::Unknown => return Ok(Err(Refusal::Unknown)),
            Redeemed::Used => return Ok(Err(Refusal::Used)),
            Redeemed::Ended => return Ok(Err(Refusal::Ended)),
        };
        let pending = pending_ask(pool, &claim.history_id).await?;
        let Some(pending) = pending.filter(|pending| pending.ask.tool_call_id == claim.tool_call_id) else {
            return Ok(Err(Refusal::Ended));
        };
        let Some(button) = pending.ask.simple.buttons.iter().find(|button| button.id == claim.button_id) else {
            return Ok(Err(Refusal::Ended));
        };
        let Some(conversation_title) = store::conversation_title(pool, &claim.history_id).await? else {
            return Ok(Err(Refusal::Ended));
        };
        Ok(Ok(AnswerPreview {
            conversation_title,
            question: question_of(&pending.ask),
            answer: button.label.clone(),
            open_url: self.open_url(&claim.history_id, pending.ask.routed.is_some()),
        }))
    }

    /// Where an ask's mail opens: the conversation at its card, or for an approval routed to
    /// someone else, their inbox (the conversation is not theirs to open).
    fn open_url(&self, history_id: &str, routed: bool) -> String {
        if routed { self.link("/") } else { self.link(&format!("/?c={history_id}")) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(smtp_url: Option<&str>, from: Option<&str>, public_url: Option<&str>) -> MailConfig {
        MailConfig {
            smtp_url: smtp_url.map(str::to_string),
            from: from.map(str::to_string),
            public_url: public_url.map(str::to_string),
        }
    }

    #[test]
    fn mail_is_off_without_smtp_or_a_public_url_and_a_wrong_setting_is_named() {
        let from = Some("Palaver <palaver@example.com>");
        let public = Some("https://chat.example.com,https://other.example.com");
        assert!(Sender::configured(&config(None, from, public)).unwrap().is_none(), "no SMTP: off");
        assert!(Sender::configured(&config(Some("smtp://127.0.0.1:2525"), from, None)).unwrap().is_none());
        let no_from = Sender::configured(&config(Some("smtp://127.0.0.1:2525"), None, public)).err().unwrap();
        assert!(no_from.contains("PALAVER_MAIL_FROM is required"), "{no_from}");
        let bad_from = Sender::configured(&config(Some("smtp://127.0.0.1:2525"), Some("nobody"), public)).err();
        assert!(bad_from.unwrap().contains("PALAVER_MAIL_FROM"));
        let bad_url = Sender::configured(&config(Some("http://relay"), from, public)).err().unwrap();
        assert!(bad_url.contains("PALAVER_SMTP_URL"), "{bad_url}");
        let sender = Sender::configured(&config(Some("smtp://127.0.0.1:2525"), from, public)).unwrap().unwrap();
        assert_eq!(sender.link("/mail/answer/T"), "https://chat.example.com/mail/answer/T", "the first public URL");
    }

    #[test]
    fn an_address_is_one_mailbox() {
        assert_eq!(checked_address("  ada@example.com ").unwrap(), "ada@example.com");
        for bad in ["", "ada", "Ada <ada@example.com>", "ada@example.com, bob@example.com", "a@b@c"] {
            assert!(checked_address(bad).is_err(), "{bad}");
        }
        assert!(checked_address(&format!("{}@example.com", "a".repeat(250))).is_err(), "too long");
    }
}
