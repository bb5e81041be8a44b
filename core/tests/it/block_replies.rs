//! Replies written as block documents, as the runner saves them when they do not end well.

use serde_json::json;

use crate::common::harness_with;
use palaver_core::turn::{TurnInput, TurnSettings};
use palaver_wire::conversation::model::{HistoryRow, TurnEvent};

#[tokio::test]
async fn a_stopped_document_keeps_its_finished_blocks_marked_cut_off_never_its_source() {
    // The model falls silent mid-block; the turn is stopped there.
    let parts = [
        "v: 1\nblocks:\n",
        "  - type: heading\n    text: Launch plan\n",
        "  - type: text\n    markdown: Three steps.\n",
        "  - type: metric\n    label: Budget\n",
    ];
    let reply = json!({"parts": parts, "stall": true});
    let settings = TurnSettings { blocks: Some(Default::default()), ..TurnSettings::default() };
    let h = harness_with(json!([reply]), settings).await;
    let mut handle = h.runner.start(h.request(None, TurnInput::Prompt("Plan the launch".into()))).await.unwrap();
    let history = handle.history_id.clone();
    let mut events = Vec::new();
    while let Some(event) = handle.events.recv().await {
        if matches!(&event, TurnEvent::Delta { delta } if delta.contains("type: metric")) {
            assert!(h.running.stop(&history).await, "the turn is running");
        }
        events.push(event);
    }

    let saved = h.rows(&history).await.into_iter().find_map(|row| match row {
        HistoryRow::Assistant { text, document, interrupted, .. } => Some((text, document, interrupted)),
        _ => None,
    });
    let (text, document, interrupted) = saved.expect("the reply is saved");
    assert!(document && interrupted, "a document, marked cut off: {text}");
    let saved: serde_json::Value = serde_json::from_str(&text).expect("a JSON document, not the YAML source");
    let types: Vec<&str> =
        saved["blocks"].as_array().unwrap().iter().map(|block| block["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["heading", "text"], "the finished blocks; the one being written goes");
    let shown = events.iter().rev().find_map(|event| match event {
        TurnEvent::Blocks { blocks } => Some(serde_json::to_value(blocks).unwrap()),
        _ => None,
    });
    let shown = shown.expect("the client is told how to show it");
    assert_eq!(shown["ok"], true, "{shown}");
    assert!(shown.to_string().contains("Launch plan"), "{shown}");
}

#[tokio::test]
async fn a_document_stopped_before_its_first_block_ends_is_saved_as_an_empty_cut_off_reply() {
    let reply = json!({"parts": ["v: 1\nblocks:\n  - type: heading\n"], "stall": true});
    let settings = TurnSettings { blocks: Some(Default::default()), ..TurnSettings::default() };
    let h = harness_with(json!([reply]), settings).await;
    let mut handle = h.runner.start(h.request(None, TurnInput::Prompt("Plan".into()))).await.unwrap();
    let history = handle.history_id.clone();
    while let Some(event) = handle.events.recv().await {
        if matches!(&event, TurnEvent::Delta { .. }) {
            h.running.stop(&history).await;
        }
    }
    let saved = h.rows(&history).await.into_iter().find_map(|row| match row {
        HistoryRow::Assistant { text, interrupted, .. } => Some((text, interrupted)),
        _ => None,
    });
    assert_eq!(saved, Some((String::new(), true)));
}
