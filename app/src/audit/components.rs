//! The audit trail as a table, a page at a time: the caller's own in Settings, everyone's on
//! the admin page.

use leptos::prelude::*;

use super::api::{admin_audit, my_audit};
use crate::components::{LocalTime, error_paragraph};
use palaver_wire::audit::AuditEntry;
use palaver_wire::words::tool_words;

fn decision_words(entry: &AuditEntry) -> String {
    let approval = entry.origin.as_deref() == Some("approval");
    let mut words = match (entry.decision.as_str(), entry.approved) {
        ("accept", Some(true)) => "approved".to_string(),
        ("accept", Some(false)) => "denied".to_string(),
        ("accept", None) => "answered".to_string(),
        ("decline", _) => if approval { "denied (skipped)" } else { "skipped" }.to_string(),
        ("cancel", _) => "cancelled".to_string(),
        ("expired", _) => "expired unanswered".to_string(),
        ("reopened", _) => "reopened (the reply failed)".to_string(),
        (palaver_wire::audit::WITHDRAWN, _) => "answer taken back to change it".to_string(),
        (palaver_wire::audit::GRANTED, _) => "ran under your grant".to_string(),
        (other, _) => other.to_string(),
    };
    if let Some(reason) = entry.reason.as_deref().filter(|_| entry.decision == "cancel") {
        words.push_str(" — ");
        words.push_str(&cancel_reason_words(reason));
    }
    match entry.scope.as_deref() {
        Some("conversation") => words.push_str(", for this conversation"),
        Some("always") => words.push_str(", in every conversation"),
        Some(scope) => words.push_str(&format!(", {scope}")),
        None => {}
    }
    words
}

/// Why Palaver cancelled an ask, as a person reads it (the contract's reasons are codes).
fn cancel_reason_words(reason: &str) -> String {
    match reason {
        "user_sent_message" => "you sent a message".to_string(),
        "one_ask_at_a_time" => "another question came first".to_string(),
        // A reason Palaver wrote as a sentence is shown as it is.
        sentence if sentence.contains(' ') => sentence.trim_end_matches('.').to_string(),
        code => palaver_wire::words::humanised(code).to_lowercase(),
    }
}

fn who(entry: &AuditEntry) -> String {
    let person = entry.actor.clone().unwrap_or_else(|| "Palaver".into());
    match (entry.surface.as_str(), &entry.token_name) {
        ("palaver", _) => person,
        ("api", Some(token)) => format!("{person} · API token “{token}”"),
        (surface, _) => format!("{person} · {surface}"),
    }
}

fn what(entry: &AuditEntry) -> String {
    match (&entry.tool_name, entry.origin.as_deref()) {
        // The exact name beside the words: two servers' tools can read the same.
        (Some(tool), Some("approval")) => format!("approval of {} ({tool})", tool_words(tool, None)),
        (Some(tool), _) => format!("{} question from {}", entry.kind, tool_words(tool, None)),
        (None, _) => format!("{} ask", entry.kind),
    }
}

/// One page of entries; `everyone` shows all users' (admins), else the caller's own.
#[component]
pub fn AuditSection(everyone: bool) -> impl IntoView {
    let before = RwSignal::new(None::<i64>);
    // The cursors of the newer pages, to go back to them.
    let newer = RwSignal::new(Vec::<Option<i64>>::new());
    let page = Resource::new(
        move || before.get(),
        move |before| async move { if everyone { admin_audit(before).await } else { my_audit(before).await } },
    );
    view! {
        <section aria-labelledby="audit-heading" data-testid="audit">
            <h2 id="audit-heading">
                {if everyone { "Decisions on asks (everyone)" } else { "Your decisions on asks" }}
            </h2>
            <Transition fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match page.await {
                        Ok(page) if page.entries.is_empty() => view! { <p>"No decisions yet."</p> }.into_any(),
                        Ok(page) => {
                            let older = page.next_before;
                            view! {
                                <table class="audit-list">
                                    <thead>
                                        <tr>
                                            <th scope="col">"When"</th>
                                            {everyone.then(|| view! { <th scope="col">"Owner"</th> })}
                                            <th scope="col">"What"</th>
                                            <th scope="col">"Decision"</th>
                                            <th scope="col">"Who"</th>
                                            <th scope="col">"Conversation"</th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {page
                                            .entries
                                            .into_iter()
                                            .map(|entry| {
                                                let digest = entry
                                                    .args_digest
                                                    .clone()
                                                    .map(|digest| {
                                                        format!(
                                                            "arguments sha256:{}…",
                                                            &digest[..digest.len().min(12)],
                                                        )
                                                    });
                                                view! {
                                                    <tr data-testid="audit-entry">
                                                        <td>
                                                            <LocalTime iso=entry.created.clone() />
                                                        </td>
                                                        {everyone.then(|| view! { <td>{entry.owner.clone()}</td> })}
                                                        <td>
                                                            {what(&entry)}
                                                            {digest
                                                                .map(|digest| {
                                                                    view! { <small class="audit-list__digest">{digest}</small> }
                                                                })}
                                                        </td>
                                                        <td>{decision_words(&entry)}</td>
                                                        <td>{who(&entry)}</td>
                                                        <td>
                                                            <a href=format!("/?c={}", entry.history_id)>"Open"</a>
                                                        </td>
                                                    </tr>
                                                }
                                            })
                                            .collect_view()}
                                    </tbody>
                                </table>
                                <div class="audit-list__pages">
                                    <Show when=move || !newer.get().is_empty()>
                                        <button
                                            type="button"
                                            on:click=move |_| {
                                                let mut pages = newer.get_untracked();
                                                before.set(pages.pop().flatten());
                                                newer.set(pages);
                                            }
                                        >
                                            "Newer"
                                        </button>
                                    </Show>
                                    {older
                                        .map(|older| {
                                            view! {
                                                <button
                                                    type="button"
                                                    on:click=move |_| {
                                                        newer.update(|pages| pages.push(before.get_untracked()));
                                                        before.set(Some(older));
                                                    }
                                                >
                                                    "Older"
                                                </button>
                                            }
                                        })}
                                </div>
                            }
                                .into_any()
                        }
                        Err(err) => error_paragraph(&err),
                    }
                })}
            </Transition>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(decision: &str, approved: Option<bool>, origin: Option<&str>) -> AuditEntry {
        AuditEntry {
            id: 1,
            created: "2026-12-01T10:00:00.000Z".into(),
            history_id: "h".into(),
            owner: "ada".into(),
            actor: Some("ada".into()),
            surface: "api".into(),
            token_name: Some("Watch".into()),
            tool_call_id: "c".into(),
            kind: "confirm".into(),
            origin: origin.map(str::to_string),
            tool_name: origin.map(|_| "deleteCompletedTodos".to_string()),
            decision: decision.into(),
            approved,
            reason: None,
            scope: None,
            args_digest: None,
        }
    }

    #[test]
    fn entries_read_as_sentences() {
        let approved = entry("accept", Some(true), Some("approval"));
        assert_eq!(decision_words(&approved), "approved");
        assert_eq!(what(&approved), "approval of Delete completed todos (deleteCompletedTodos)");
        assert_eq!(who(&approved), "ada · API token “Watch”");
        let cancelled = AuditEntry { reason: Some("user_sent_message".into()), ..entry("cancel", None, None) };
        assert_eq!(decision_words(&cancelled), "cancelled — you sent a message");
        let granted = AuditEntry { scope: Some("always".into()), ..approved.clone() };
        assert_eq!(decision_words(&granted), "approved, in every conversation");
        let expired = AuditEntry { actor: None, surface: "palaver".into(), ..entry("expired", None, None) };
        assert_eq!(
            (decision_words(&expired), what(&expired), who(&expired)),
            ("expired unanswered".to_string(), "confirm ask".to_string(), "Palaver".to_string())
        );
        assert_eq!(decision_words(&entry("withdrawn", None, None)), "answer taken back to change it");
        let mut granted = entry("granted", Some(true), None);
        granted.scope = Some("conversation".into());
        assert_eq!(decision_words(&granted), "ran under your grant, for this conversation");
    }
}
