//! `/mail/*` (Palaver's addition): mail. A signed-in person sets their address (a link mailed
//! to it confirms it) and turns ask mails on or off (`/mail/settings…`, JSON). A mail's links
//! open small standalone pages (`/mail/confirm/{token}`, `/mail/answer/{token}`): the GET only
//! shows what the link will do, so a mail scanner that fetches every link does nothing; the
//! page's button POSTs to the same URL, and the token in it is the whole capability (no cookie
//! is read, so a cross-site post can do nothing its holder could not: `auth::refuse_cross_site`
//! lets it through).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use palaver_core::answer_links::Surface;
use palaver_core::db::Pool;
use palaver_core::mail::Mail;
use palaver_core::mail::page::{self, Refusal};
use palaver_core::turn::TurnRunner;
use palaver_wire::mail::{MailSettings, SetAskMail, SetMailAddress};

use super::push::{body, redeem_and_answer};
use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

fn no_address() -> Problem {
    Problem::new(StatusCode::NOT_FOUND, "No mail address").with_detail("You have not given a mail address.")
}

/// `GET /mail/settings`: the caller's address and switch, and whether this server sends mail.
#[utoipa::path(get, path = "/mail/settings", tag = "mail", operation_id = "mail_settings",
    summary = "Your mail address and ask mails",
    responses((status = 200, description = "What Settings shows", body = MailSettings)))]
pub async fn settings(
    State(mail): State<Mail>,
    Authenticated(caller): Authenticated,
) -> Result<Json<MailSettings>, Problem> {
    Ok(Json(mail.settings(&caller.user.id).await?))
}

/// `PUT /mail/settings/address`: sets the caller's address (unconfirmed) and mails it a link
/// that confirms it.
#[utoipa::path(put, path = "/mail/settings/address", tag = "mail", operation_id = "mail_set_address",
    summary = "Set your mail address (a confirmation link is mailed to it)", request_body = SetMailAddress,
    responses((status = 202, description = "Set; the confirmation link is mailed"),
        (status = 400, description = "Not a mail address", body = ProblemBody),
        (status = 409, description = "This server sends no mail", body = ProblemBody)))]
pub async fn set_address(
    State(mail): State<Mail>,
    Authenticated(caller): Authenticated,
    bytes: Bytes,
) -> Result<StatusCode, Problem> {
    let SetMailAddress { address } = body(&bytes, "{\"address\": \"ada@example.com\"}")?;
    if !mail.sends() {
        return Err(Problem::new(StatusCode::CONFLICT, "This server does not send mail")
            .with_detail("Its administrator has not set PALAVER_SMTP_URL (and PALAVER_PUBLIC_URL)."));
    }
    mail.set_address(&caller.user.id, &address).await?;
    Ok(StatusCode::ACCEPTED)
}

/// `DELETE /mail/settings/address`: forgets the caller's address (no more mail).
#[utoipa::path(delete, path = "/mail/settings/address", tag = "mail", operation_id = "mail_remove_address",
    summary = "Forget your mail address",
    responses((status = 204, description = "Forgotten"),
        (status = 404, description = "You gave no address", body = ProblemBody)))]
pub async fn remove_address(
    State(mail): State<Mail>,
    Authenticated(caller): Authenticated,
) -> Result<StatusCode, Problem> {
    if !mail.remove_address(&caller.user.id).await? {
        return Err(no_address());
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `PUT /mail/settings/asks`: mail me when an agent asks and no tab of mine shows the conversation.
#[utoipa::path(put, path = "/mail/settings/asks", tag = "mail", operation_id = "mail_set_asks",
    summary = "Turn ask mails on or off", request_body = SetAskMail,
    responses((status = 204, description = "Set"),
        (status = 404, description = "You gave no address", body = ProblemBody)))]
pub async fn set_asks(
    State(mail): State<Mail>,
    Authenticated(caller): Authenticated,
    bytes: Bytes,
) -> Result<StatusCode, Problem> {
    let SetAskMail { on } = body(&bytes, "{\"on\": true}")?;
    if !mail.set_ask_mail(&caller.user.id, on).await? {
        return Err(no_address());
    }
    Ok(StatusCode::NO_CONTENT)
}

/// A link page: not cached anywhere, and its URL (the capability) never sent as a referrer.
fn html(status: StatusCode, page: String) -> Response {
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CACHE_CONTROL, "no-store"),
        (header::REFERRER_POLICY, "no-referrer"),
    ];
    (status, headers, page).into_response()
}

fn refusal_page(refusal: Refusal, confirmation: bool) -> Response {
    let status = match refusal {
        Refusal::Unknown => StatusCode::NOT_FOUND,
        Refusal::Used => StatusCode::CONFLICT,
        Refusal::Ended => StatusCode::GONE,
    };
    html(status, page::refused(refusal, confirmation))
}

/// `GET /mail/confirm/{token}`: what the confirmation link will confirm, and its button.
#[utoipa::path(get, path = "/mail/confirm/{token}", tag = "mail", operation_id = "mail_confirm_page",
    summary = "The page a confirmation link opens (changes nothing)",
    params(("token" = String, Path, description = "The link's capability")),
    responses((status = 200, description = "The address and the button that confirms it", content_type = "text/html", body = String),
        (status = 404, description = "No such link", content_type = "text/html", body = String),
        (status = 409, description = "Used already", content_type = "text/html", body = String),
        (status = 410, description = "Expired", content_type = "text/html", body = String)))]
pub async fn confirm_page(State(mail): State<Mail>, Path(token): Path<String>) -> Result<Response, Problem> {
    Ok(match mail.confirmation_preview(&token).await? {
        Ok(address) => html(StatusCode::OK, page::confirm_address(&address)),
        Err(refusal) => refusal_page(refusal, true),
    })
}

/// `POST /mail/confirm/{token}`: confirms the address, once.
#[utoipa::path(post, path = "/mail/confirm/{token}", tag = "mail", operation_id = "mail_confirm",
    summary = "Confirm a mail address (the confirmation page's button)",
    params(("token" = String, Path, description = "The link's capability")),
    responses((status = 200, description = "Confirmed", content_type = "text/html", body = String),
        (status = 404, description = "No such link", content_type = "text/html", body = String),
        (status = 409, description = "Used already", content_type = "text/html", body = String),
        (status = 410, description = "Expired", content_type = "text/html", body = String)))]
pub async fn confirm(State(mail): State<Mail>, Path(token): Path<String>) -> Result<Response, Problem> {
    Ok(match mail.confirm(&token).await? {
        Ok(address) => html(StatusCode::OK, page::address_confirmed(&address)),
        Err(refusal) => refusal_page(refusal, true),
    })
}

/// `GET /mail/answer/{token}`: the conversation, the question and exactly the answer the
/// link gives, with the one button that gives it. Answers nothing.
#[utoipa::path(get, path = "/mail/answer/{token}", tag = "mail", operation_id = "mail_answer_page",
    summary = "The page an ask mail's answer link opens (changes nothing)",
    params(("token" = String, Path, description = "The link's capability")),
    responses((status = 200, description = "The question, the answer and its button", content_type = "text/html", body = String),
        (status = 404, description = "No such link", content_type = "text/html", body = String),
        (status = 409, description = "Used already", content_type = "text/html", body = String),
        (status = 410, description = "The question has ended", content_type = "text/html", body = String)))]
pub async fn answer_page(State(mail): State<Mail>, Path(token): Path<String>) -> Result<Response, Problem> {
    Ok(match mail.answer_preview(&token).await? {
        Ok(preview) => {
            let title = preview.conversation_title.as_deref();
            html(StatusCode::OK, page::confirm_answer(title, &preview.question, &preview.answer))
        }
        Err(refusal) => refusal_page(refusal, false),
    })
}

/// `POST /mail/answer/{token}`: answers the ask once, as the link's person through the
/// surface `mail`, as its notification's button would.
#[utoipa::path(post, path = "/mail/answer/{token}", tag = "mail", operation_id = "mail_answer",
    summary = "Answer an ask from its mail (the answer page's button)",
    params(("token" = String, Path, description = "The link's capability")),
    responses((status = 200, description = "Answered", content_type = "text/html", body = String),
        (status = 404, description = "No such link", content_type = "text/html", body = String),
        (status = 409, description = "Used already", content_type = "text/html", body = String),
        (status = 410, description = "The question has ended", content_type = "text/html", body = String)))]
pub async fn answer(
    State(mail): State<Mail>,
    State(turns): State<TurnRunner>,
    State(pool): State<Pool>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let preview = match mail.answer_preview(&token).await? {
        Ok(preview) => preview,
        Err(refusal) => return Ok(refusal_page(refusal, false)),
    };
    match redeem_and_answer(&turns, &pool, Surface::Mail, &token).await {
        Ok(_) => Ok(html(StatusCode::OK, page::answered(&preview.answer, &preview.open_url))),
        Err(problem) => Ok(match problem.status {
            StatusCode::NOT_FOUND => refusal_page(Refusal::Unknown, false),
            StatusCode::CONFLICT => refusal_page(Refusal::Used, false),
            StatusCode::GONE => refusal_page(Refusal::Ended, false),
            _ => return Err(problem),
        }),
    }
}
