//! The schemas of the contract's types inside the app's wire types, for the OpenAPI document
//! (`GET /openapi.json`): the contract stays free of OpenAPI, and the cards it publishes as
//! JSON Schema (`SimpleCard`) are referenced by name, as the server adds them whole.

use palaver_contract::asks::{ASK_KINDS, AskSurface};
use utoipa::openapi::schema::{Object, ObjectBuilder, Type};
use utoipa::openapi::{Ref, RefOr, Schema};

/// The name the published simple-card schema has among the document's components.
pub const SIMPLE_CARD: &str = "SimpleCard";

fn strings(values: impl IntoIterator<Item = &'static str>, description: &str) -> Object {
    ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values)).description(Some(description)).build()
}

/// `kind`: one of the ask kinds.
pub fn ask_kind() -> Object {
    strings(ASK_KINDS.map(|kind| kind.as_str()), "The ask kind.")
}

/// `surface`: where the answer is given (`compact` narrows the asks the model may make).
pub fn ask_surface() -> Object {
    strings(AskSurface::ALL.map(AskSurface::as_str), "The client's surface; full when absent.")
}

/// `simple`: the ask's simple card, as the contract publishes it.
pub fn simple_card() -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name(SIMPLE_CARD))
}

/// `fieldPatterns`: `[{field, pattern}]`, the patterns an argument form's text fields must match.
pub fn field_patterns() -> utoipa::openapi::schema::Array {
    let string = || ObjectBuilder::new().schema_type(Type::String).min_length(Some(1));
    let pattern = ObjectBuilder::new()
        .schema_type(Type::Object)
        .property("field", string().description(Some("The form field's id.")))
        .property("pattern", string().description(Some("A JSON Schema (ECMA-262) pattern the value must match.")))
        .required("field")
        .required("pattern");
    utoipa::openapi::schema::ArrayBuilder::new().items(pattern).build()
}

/// `askResponse`: the pending ask's `toolCallId` beside the answer envelope.
pub fn ask_answer() -> Object {
    let string = || ObjectBuilder::new().schema_type(Type::String);
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .property("toolCallId", string().min_length(Some(1)))
        .property("action", strings(["accept", "decline", "cancel"], "What the user did."))
        .property("content", ObjectBuilder::new().schema_type(Type::Object))
        .property("reason", string())
        .required("toolCallId")
        .required("action")
        .description(Some("An answer to the pending ask: its toolCallId and the answer envelope."))
        .build()
}
