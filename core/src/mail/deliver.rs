//! The task that mails asks: it follows the events the live hub publishes on this instance
//! (each event is published once, on the instance where it happened, so each mail goes out
//! once), decides in order what each calls for, and sends from tasks of their own. A mail that
//! fails is logged once with its cause.

use super::{Mail, compose, store};
use crate::answer_links::{self, Capability, Surface};
use crate::error::AppResult;
use crate::live::Following;
use crate::push::message::{question_of, time_left};
use crate::push::settings::buttons_outside;
use crate::turn::store::{StoredPendingAsk, pending_ask};
use palaver_wire::live::{AskCreated, LiveEvent};

/// Mails the asks it follows, until the hub is gone.
pub(super) async fn follow(mail: Mail, mut following: Following) {
    while let Some(published) = following.next().await {
        if let LiveEvent::AskCreated(event) = &published.event
            && let Err(err) = mail.asked(&published.user_id, event).await
        {
            tracing::warn!(?err, "an ask mail was not sent");
        }
    }
}

/// The events ask mails follow.
pub(super) fn wanted(event: &LiveEvent) -> bool {
    matches!(event, LiveEvent::AskCreated(_))
}

/// The conversation's title and the seconds left to answer.
type AskContext = (Option<String>, Option<i64>);

impl Mail {
    /// A new ask of `owner_id`'s conversation: one mail to each of whoever answers it (the
    /// owner, or the approvers an admin routed an approval to) who asked for ask mails at a
    /// confirmed address, unless a tab of theirs shows the conversation.
    async fn asked(&self, owner_id: &str, event: &AskCreated) -> AppResult<()> {
        let pool = &self.inner.pool;
        let pending = pending_ask(pool, &event.history_id).await?;
        let Some(pending) = pending.filter(|pending| pending.ask.tool_call_id == event.tool_call_id) else {
            return Ok(()); // ended already
        };
        let expires_at = pending.ask.expires_at.as_deref();
        let context = crate::push::store::ask_context(pool, &event.history_id, expires_at).await?;
        let Some(context) = context else { return Ok(()) };
        for answerer in crate::push::answerers(pool, owner_id, pending.ask.routed.as_ref()).await? {
            if let Err(err) = self.mail_ask(&answerer, event, &pending, &context).await {
                tracing::warn!(?err, "an ask mail was not sent to one of an ask's answerers");
            }
        }
        Ok(())
    }

    /// The mail of `pending` to `user_id`, with its buttons' answer links (theirs) unless their
    /// notification settings have the approval only open Palaver.
    async fn mail_ask(
        &self,
        user_id: &str,
        event: &AskCreated,
        pending: &StoredPendingAsk,
        (title, seconds_left): &AskContext,
    ) -> AppResult<()> {
        let pool = &self.inner.pool;
        let Some(address) = store::ask_recipient(pool, user_id).await? else { return Ok(()) };
        if crate::push::store::shown_in_a_tab(pool, user_id, &event.history_id).await? {
            return Ok(());
        }
        let sender = self.sender()?;
        let mut answers = Vec::new();
        let settings = crate::push::settings::read(pool, user_id).await?;
        let buttons = buttons_outside(&settings, &pending.ask);
        if let Some(expires_at) = pending.ask.expires_at.as_deref().filter(|_| !buttons.is_empty()) {
            let mut hashes = Vec::new();
            for button in buttons {
                let capability = Capability::mint()?;
                hashes.push((capability.hash, button.id.clone()));
                answers.push((button.label.as_str(), sender.link(&format!("/mail/answer/{}", capability.token))));
            }
            let (history_id, tool_call_id) = (&event.history_id, &event.tool_call_id);
            answer_links::store_links(pool, Surface::Mail, user_id, history_id, tool_call_id, expires_at, &hashes)
                .await?;
        }
        let question = question_of(&pending.ask);
        let open_url = self.open_url(&event.history_id, pending.ask.routed.is_some());
        let composed = compose::ask_mail(&compose::AskMail {
            conversation_title: title.as_deref(),
            question: &question,
            time_left: time_left(*seconds_left),
            open_url: &open_url,
            answers,
        });
        let mail = self.clone();
        tokio::spawn(async move {
            let sent = match mail.sender() {
                Ok(sender) => sender.send(&address, composed).await,
                Err(err) => Err(err),
            };
            if let Err(err) = sent {
                tracing::warn!(?err, "an ask mail was not delivered to its SMTP server");
            }
        });
        Ok(())
    }
}
