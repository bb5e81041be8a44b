//! The inputs of the asks the demo agent makes that are long enough to read on their own.

use serde_json::{Value, json};

pub(super) fn logo_questions() -> Value {
    json!({
        "title": "Your new logo", "prompt": "Three quick questions before I sketch the logo.",
        "questions": [
            {"title": "Which shade of gold?", "answers": [
                {"label": "#b49c54", "description": "Warm and a little muted"}, {"label": "#d4af37", "description": "Bright metallic"}]},
            {"title": "Where will it appear?", "multi": true, "allowCustom": true, "answers": [
                {"label": "Website"}, {"label": "Business cards"}, {"label": "Signage"}]},
            {"title": "Which style?", "answers": [{"label": "Wordmark"}, {"label": "Emblem"}, {"label": "Monogram"}]}
        ]
    })
}

/// The logo's first question in Arabic: right to left, with left-to-right answers.
pub(super) fn arabic_logo_question() -> Value {
    json!({
        "prompt": "سؤال سريع قبل أن أرسم الشعار.", "locale": "ar",
        "questions": [{"title": "أي درجة من الذهبي؟", "answers": [{"label": "#b49c54"}, {"label": "#d4af37"}]}]
    })
}

pub(super) fn plan_ask() -> Value {
    json!({
        "title": "Choose a plan", "prompt": "Which plan should I set up?", "select": "one", "default": ["team"],
        "submitLabel": "Set up plan",
        "options": [
            {"id": "starter", "label": "Starter", "description": "$0, one seat"},
            {"id": "team", "label": "Team", "description": "$20 per seat"},
            {"id": "enterprise", "label": "Enterprise"}
        ]
    })
}

pub(super) fn toppings_ask() -> Value {
    json!({
        "title": "Build your pizza", "prompt": "Which toppings should I add? Pick up to three.", "select": "many",
        "options": [
            {"id": "cheese", "label": "Extra cheese"}, {"id": "mushrooms", "label": "Mushrooms"},
            {"id": "olives", "label": "Olives"}, {"id": "peppers", "label": "Peppers"}, {"id": "pineapple", "label": "Pineapple"}
        ],
        "default": ["cheese", "mushrooms"], "maxSelected": 3, "allowOther": true, "otherLabel": "Another topping",
        "submitLabel": "Add toppings"
    })
}
