//! Searching conversations: by title or by what was said, each result with the words around
//! its first matching message's match (on SQLite and on PostgreSQL alike).

use serde_json::json;

use crate::common::harness;
use palaver_core::conversation::pages::store::page_of_histories;
use palaver_wire::conversation::page::PageRequest;

#[tokio::test]
async fn a_result_carries_the_words_around_its_first_matching_message() {
    let h = harness(json!([{"text": "Boats leave every hour from the north pier."}, {"text": "Noted."}])).await;
    let (ferry, _) = h.prompt(None, "Ferry timetable please").await;
    h.prompt(None, "Something else entirely").await;

    let found =
        page_of_histories(&h.pool, &h.caller.user.id, false, Some("BOATS"), &PageRequest::first()).await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].id, ferry);
    let snippet = found[0].snippet.clone().expect("a snippet");
    assert_eq!(
        (snippet.before.as_str(), snippet.matched.as_str(), snippet.after.as_str()),
        ("", "Boats", " leave every hour from the north pier.")
    );
    let by_message =
        page_of_histories(&h.pool, &h.caller.user.id, false, Some("timetable"), &PageRequest::first()).await.unwrap();
    assert_eq!(by_message[0].snippet.as_ref().map(|s| s.matched.as_str()), Some("timetable"));
    assert!(
        page_of_histories(&h.pool, &h.caller.user.id, false, Some("nothing like it"), &PageRequest::first())
            .await
            .unwrap()
            .is_empty()
    );
}
