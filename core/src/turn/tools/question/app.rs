//! A question its server's MCP App draws: which app the request names, and the app's answer
//! (an `ElicitResult`, in the requested schema's terms) read as the answer to the card.

use serde_json::{Map, Value, json};

use super::schema::content_misfits;
use super::{Page, Property, ToolQuestion};
use crate::error::FieldError;
use palaver_contract::asks::AskErrorCode;
use palaver_wire::apps::is_app_view;

/// The `ui://` resource an input request names for its server's app to draw it.
pub(super) fn app_of(request: &Value) -> Option<String> {
    let uri = request["params"]["_meta"]["ui"]["resourceUri"].as_str()?;
    is_app_view(uri).then(|| uri.to_string())
}

impl ToolQuestion {
    /// Whether an app's answer can be read as the card's: a question of one page, not a link,
    /// and not a choice the schema lets the person leave out (a choice card always picks one).
    pub(super) fn drawable_by_app(&self) -> bool {
        match &self.pages[..] {
            [(Page::Choice(property), _)] => self.schema["required"]
                .as_array()
                .is_some_and(|required| required.iter().any(|name| name == property.name.as_str())),
            [_] => self.url.is_none(),
            _ => false,
        }
    }

    /// What the app drawing the question answered (an `ElicitResult`: `action` and, accepted,
    /// `content` in the requested schema's terms), as the answer to its card: checked against
    /// the requested schema here, never trusted from the app's sandbox.
    pub fn app_response(&self, result: &Value) -> Result<Value, Vec<FieldError>> {
        let refusal = |code: AskErrorCode, path: &str, message: String| FieldError {
            code: code.to_string(),
            path: path.to_string(),
            message,
            fix: "The app must answer what the server asked; answer in Palaver's card instead.".into(),
        };
        match result["action"].as_str() {
            Some("accept") => {}
            Some("decline") => return Ok(json!({"action": "decline"})),
            Some("cancel") => return Ok(json!({"action": "cancel", "reason": "the app cancelled the question"})),
            _ => {
                let why = "The app's answer is neither accept, decline nor cancel.".to_string();
                return Err(vec![refusal(AskErrorCode::INVALID_ENUM, "action", why)]);
            }
        }
        let content = match result.get("content") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(content)) => content.clone(),
            Some(_) => {
                let why = "The app's answer has content that is not an object.".to_string();
                return Err(vec![refusal(AskErrorCode::INVALID_TYPE, "content", why)]);
            }
        };
        let misfits = content_misfits(&self.schema, &content);
        if !misfits.is_empty() {
            return Err(misfits
                .into_iter()
                .map(|(name, code, why)| {
                    let path = palaver_contract::path::Path::root().key("content").name(&name).text();
                    refusal(code, &path, format!("The app's answer: \"{name}\" {why}."))
                })
                .collect());
        }
        let Some((page, _)) = self.pages.first() else { return Ok(json!({"action": "accept", "content": {}})) };
        let answer = match page {
            Page::Confirm => json!({"confirmed": true}),
            Page::Choice(property) => {
                let picked = content.get(&property.name).and_then(|value| property.option_of(value));
                json!({"selected": picked.into_iter().collect::<Vec<_>>()})
            }
            Page::Form(properties) => {
                let values: Map<String, Value> = properties
                    .iter()
                    .filter_map(|property| {
                        Some((property.id.clone(), property.field_value(content.get(&property.name)?)?))
                    })
                    .collect();
                json!({ "values": values })
            }
        };
        Ok(json!({"action": "accept", "content": answer}))
    }
}

impl Property {
    /// The option id that stands for `value`.
    fn option_of(&self, value: &Value) -> Option<Value> {
        self.options.iter().find(|(_, known)| known == value).map(|(id, _)| Value::String(id.clone()))
    }

    /// A value in the schema's terms as the card's field takes it ([`Property::read`] undone).
    fn field_value(&self, value: &Value) -> Option<Value> {
        if self.multiple {
            return Some(Value::Array(value.as_array()?.iter().filter_map(|item| self.option_of(item)).collect()));
        }
        if !self.options.is_empty() {
            return self.option_of(value);
        }
        Some(value.clone())
    }
}
