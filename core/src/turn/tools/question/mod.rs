//! A tool's question for the user in the middle of its run (an MCP server's
//! `elicitation/create`) as Palaver asks, and the answers back as the tool's result.
//!
//! Form mode: a flat `requestedSchema` becomes `form` asks (a string by its `format`, a number
//! or integer with its bounds, a boolean, an enum or titled `oneOf` as a select, an array of
//! enum as a multiselect; `required` and `default` kept), split into pages of the contract's
//! eight fields; a `choice` when the schema is one enum field; a `confirm` when it has none.
//! URL mode becomes a confirm that names the link's host. The answers are checked against
//! the requested schema before anything is sent back.
//!
//! A request that names an MCP App of its server (`_meta.ui.resourceUri`, as ext-apps' draft
//! of app-rendered elicitations has it) may be answered by that app: its `ElicitResult` is
//! checked against the requested schema here and read as the answer to the card.

mod app;
mod schema;

use serde_json::{Map, Value, json};

use crate::error::FieldError;
use app::app_of;
use palaver_contract::asks::{ASK_LIMITS, AskKind, AskResponse};
use palaver_contract::text::shorten;
use palaver_wire::conversation::model::link_host_line;
pub use schema::check_content;
use schema::{field, misfit, to_id};

/// The host a link opens, as its URL is read (`user@` and port left out).
pub fn link_host(url: &str) -> Option<String> {
    url::Url::parse(url).ok()?.host_str().map(str::to_string)
}

/// The most form pages one question becomes.
const MAX_PAGES: usize = 4;

/// How one property of the requested schema is asked and read back.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Property {
    /// The form field's id (the contract's option-id pattern).
    id: String,
    /// The property's name in the schema.
    name: String,
    /// For a select or multiselect: each option id with the value it stands for.
    options: Vec<(String, Value)>,
    multiple: bool,
    integer: bool,
    /// The property's own schema, which its answer must fit.
    schema: Value,
}

#[derive(Clone, Debug, PartialEq)]
enum Page {
    Confirm,
    Choice(Property),
    Form(Vec<Property>),
}

/// One question as the asks that answer it, one page after the other.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolQuestion {
    /// Who asks: the MCP server's name.
    asker: String,
    message: String,
    schema: Value,
    pages: Vec<(Page, Value)>,
    url: Option<String>,
    /// The `ui://` resource of the asker's MCP App that may draw the question instead of its card.
    app: Option<String>,
}

/// The user's answer to a whole question.
#[derive(Clone, Debug, PartialEq)]
pub enum QuestionAnswer {
    /// The content, in the requested schema's terms.
    Accept(Value),
    Decline,
    Cancel,
}

impl QuestionAnswer {
    pub fn action(&self) -> &'static str {
        match self {
            QuestionAnswer::Accept(_) => "accept",
            QuestionAnswer::Decline => "decline",
            QuestionAnswer::Cancel => "cancel",
        }
    }
}

/// Where a question of several pages stands after an answer.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// Ask the next page.
    Next,
    Done(QuestionAnswer),
}

impl ToolQuestion {
    /// Plans the asks for a form-mode request; `Err` says why the schema cannot be asked (one
    /// that does not compile could not check the answers it would be sent).
    pub fn form(asker: &str, message: &str, schema: Value) -> Result<ToolQuestion, String> {
        if let Err(error) = jsonschema::validator_for(&schema) {
            return Err(format!("The requested schema is not valid JSON Schema ({error})."));
        }
        let properties = schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
        let required: Vec<&str> =
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let mut plan = ToolQuestion {
            asker: asker.to_string(),
            message: message.to_string(),
            schema: schema.clone(),
            pages: Vec::new(),
            url: None,
            app: None,
        };
        if properties.is_empty() {
            let input = plan.confirm_input("Continue", "Don't continue");
            plan.pages.push((Page::Confirm, input));
            return Ok(plan);
        }
        if properties.len() > MAX_PAGES * ASK_LIMITS.form.fields_max {
            return Err(format!("The schema asks for more than {} fields.", MAX_PAGES * ASK_LIMITS.form.fields_max));
        }
        let mut taken = Vec::new();
        let mut fields = Vec::new();
        for (name, property_schema) in &properties {
            let id = to_id(name, &taken);
            taken.push(id.clone());
            fields.push(field(&id, name, property_schema, required.contains(&name.as_str()))?);
        }
        if let [(property, _)] = &fields[..]
            && !property.multiple
            && !property.options.is_empty()
            && (2..=ASK_LIMITS.choice.options_max).contains(&property.options.len())
        {
            let (property, field) = fields.remove(0);
            let mut input = json!({
                "title": plan.title(),
                "prompt": plan.prompt(),
                "select": "one",
                "options": field["options"],
                "allowDecline": true,
            });
            if let Some(default) = field.get("default") {
                input["default"] = json!([default]);
            }
            plan.pages.push((Page::Choice(property), input));
            return Ok(plan);
        }
        let page_size = ASK_LIMITS.form.fields_max;
        let pages = fields.len().div_ceil(page_size);
        let mut fields = fields.into_iter().peekable();
        for page in 0..pages {
            let chunk: Vec<(Property, Value)> = fields.by_ref().take(page_size).collect();
            let title = if pages > 1 { format!("{} ({} of {pages})", plan.title(), page + 1) } else { plan.title() };
            let input = json!({
                "title": shorten(&title, ASK_LIMITS.title_max_length),
                "prompt": plan.prompt(),
                "fields": chunk.iter().map(|(_, field)| field.clone()).collect::<Vec<_>>(),
                "allowDecline": true,
            });
            plan.pages.push((Page::Form(chunk.into_iter().map(|(property, _)| property).collect()), input));
        }
        Ok(plan)
    }

    /// Plans the asks for an elicitation's params (`mode`, `message`, and `requestedSchema` or
    /// `url`), as the MCP server sent them.
    pub fn elicitation(asker: &str, params: &Value) -> Result<ToolQuestion, String> {
        let message = params["message"].as_str().unwrap_or_default();
        match params["mode"].as_str() {
            Some("url") => match params["url"].as_str() {
                Some(url) => ToolQuestion::url(asker, message, url),
                None => Err("The server asked to open a link but sent none.".into()),
            },
            None | Some("form") => ToolQuestion::form(asker, message, params["requestedSchema"].clone()),
            Some(mode) => Err(format!("The elicitation is of a mode Palaver does not know (\"{mode}\").")),
        }
    }

    /// Plans the asks for one of a call's input requests (`{method, params}`); only
    /// elicitations are asked: Palaver offers servers neither sampling nor roots.
    pub fn input_request(asker: &str, request: &Value) -> Result<ToolQuestion, String> {
        match request["method"].as_str() {
            Some("elicitation/create") => {
                let mut question = ToolQuestion::elicitation(asker, &request["params"])?;
                question.app = app_of(request).filter(|_| question.drawable_by_app());
                Ok(question)
            }
            Some(method) => Err(format!("The server asked for \"{method}\", which Palaver does not offer servers.")),
            None => Err("The server asked for input of no known kind.".into()),
        }
    }

    /// Whether an input request is a form-mode elicitation that shares a card with others (one
    /// its server's app draws has a card of its own).
    pub fn is_form_request(request: &Value) -> bool {
        request["method"] == "elicitation/create"
            && matches!(request["params"]["mode"].as_str(), None | Some("form"))
            && app_of(request).is_none()
    }

    /// Plans one card for several form-mode elicitations' params: their messages one after the
    /// other, their fields side by side (each named `<n>.<name>`, titled as its own schema
    /// titles it, else by its name); [`ToolQuestion::split_forms`] parts the answer again.
    pub fn forms(asker: &str, forms: &[&Value]) -> Result<ToolQuestion, String> {
        let (mut properties, mut required, mut messages) = (Map::new(), Vec::new(), Vec::new());
        for (index, params) in forms.iter().enumerate() {
            let schema = &params["requestedSchema"];
            let wanted: Vec<&str> =
                schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            for (name, property) in schema["properties"].as_object().into_iter().flatten() {
                let mut property = property.clone();
                if let Some(own) = property.as_object_mut() {
                    own.entry("title").or_insert_with(|| json!(name));
                }
                let merged = format!("{index}.{name}");
                if wanted.contains(&name.as_str()) {
                    required.push(json!(merged));
                }
                properties.insert(merged, property);
            }
            messages.extend(params["message"].as_str().map(str::trim).filter(|message| !message.is_empty()));
        }
        let schema = json!({"type": "object", "properties": properties, "required": required});
        ToolQuestion::form(asker, &messages.join("\n\n"), schema)
    }

    /// The content of a card of `count` forms ([`ToolQuestion::forms`]), each form's own part.
    pub fn split_forms(content: &Value, count: usize) -> Vec<Map<String, Value>> {
        let mut parts = vec![Map::new(); count];
        for (merged, value) in content.as_object().into_iter().flatten() {
            if let Some((index, name)) = merged.split_once('.')
                && let Some(part) = index.parse::<usize>().ok().and_then(|index| parts.get_mut(index))
            {
                part.insert(name.to_string(), value.clone());
            }
        }
        parts
    }

    /// Plans the confirm for a URL-mode request: the link opens only when the person taps.
    pub fn url(asker: &str, message: &str, url: &str) -> Result<ToolQuestion, String> {
        let parsed = url::Url::parse(url).map_err(|err| format!("The server sent a link that is not a URL: {err}."))?;
        if !matches!(parsed.scheme(), "https" | "http") {
            return Err("The server sent a link that is not http or https.".into());
        }
        // The host line is Palaver's, so the server's message is cut to leave room for it.
        // Palaver's own card shows it apart, as Palaver's (`link_host` on the ask).
        let host_line = link_host_line(parsed.host_str().unwrap_or_default());
        let room = ASK_LIMITS.prompt_max_length.saturating_sub(palaver_contract::text::utf16_len(&host_line));
        let mut plan = ToolQuestion {
            asker: asker.to_string(),
            message: format!("{}{host_line}", shorten(message.trim(), room)),
            schema: json!({}),
            pages: Vec::new(),
            url: Some(url.to_string()),
            app: None,
        };
        let input = plan.confirm_input("Open the link", "Don't open");
        plan.pages.push((Page::Confirm, input));
        Ok(plan)
    }

    fn title(&self) -> String {
        shorten(&format!("The MCP server \"{}\" asks", self.asker), ASK_LIMITS.title_max_length)
    }

    fn prompt(&self) -> String {
        let message = self.message.trim();
        shorten(if message.is_empty() { "The server needs your input." } else { message }, ASK_LIMITS.prompt_max_length)
    }

    fn confirm_input(&self, confirm: &str, deny: &str) -> Value {
        json!({"title": self.title(), "prompt": self.prompt(), "confirmLabel": confirm, "denyLabel": deny})
    }

    pub fn asker(&self) -> &str {
        &self.asker
    }

    /// The link of a URL-mode request.
    pub fn link(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The `ui://` resource of the asker's app that may draw the question.
    pub fn app(&self) -> Option<&str> {
        self.app.as_deref()
    }

    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// The ask of page `page`: its kind and its input.
    pub fn ask(&self, page: usize) -> (AskKind, Value) {
        let (kind, input) = match &self.pages[page] {
            (Page::Confirm, input) => (AskKind::Confirm, input),
            (Page::Choice(_), input) => (AskKind::Choice, input),
            (Page::Form(_), input) => (AskKind::Form, input),
        };
        (kind, input.clone())
    }

    /// The answer of a user who goes on with every page as it is shown (`palaver mcp try`).
    pub fn answer_as_filled_in(&self) -> QuestionAnswer {
        let mut content = Map::new();
        for page in 0..self.pages.len() {
            if let Step::Done(answer) = self.answer(page, &self.page_as_filled_in(page), &mut content) {
                return answer;
            }
        }
        QuestionAnswer::Cancel
    }

    /// Page `page` answered as it is shown: a form with its defaults, a choice's default (or
    /// its first option), a confirm confirmed.
    fn page_as_filled_in(&self, page: usize) -> AskResponse {
        let (page_kind, input) = &self.pages[page];
        let content = match page_kind {
            Page::Confirm => json!({"confirmed": true}),
            Page::Choice(_) => {
                json!({"selected": input.get("default").cloned().unwrap_or_else(|| json!([input["options"][0]["id"]]))})
            }
            Page::Form(_) => {
                let defaults: Map<String, Value> = input["fields"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|field| Some((field["id"].as_str()?.to_string(), field.get("default")?.clone())))
                    .collect();
                json!({ "values": defaults })
            }
        };
        AskResponse::accept(content)
    }

    /// What in an accepted answer to page `page` the requested schema refuses, in the
    /// answer's terms (`content.values.<field id>`): the contract's own check has passed already, but
    /// a schema can ask more (how many to pick, say).
    pub fn refusals(&self, page: usize, response: &AskResponse) -> Vec<FieldError> {
        let (Page::Form(properties), AskResponse::Accept { content }) = (&self.pages[page].0, response) else {
            return Vec::new();
        };
        properties
            .iter()
            .filter_map(|property| {
                let value = content.get("values")?.get(&property.id)?;
                let read = property.read(value)?;
                let (code, why) = misfit(&property.schema, &read)?;
                let label = property.schema.get("title").and_then(Value::as_str).unwrap_or(&property.name);
                Some(FieldError {
                    code: code.to_string(),
                    path: palaver_contract::path::Path::root().key("content").key("values").name(&property.id).text(),
                    message: format!("{label} {why}."),
                    fix: format!("Change {label} to fit what the server asks for."),
                })
            })
            .collect()
    }

    /// Reads the answer to page `page` into `content`; says whether the elicitation is done.
    pub fn answer(&self, page: usize, response: &AskResponse, content: &mut Map<String, Value>) -> Step {
        let accepted = match response {
            AskResponse::Accept { content } => content,
            AskResponse::Decline => return Step::Done(QuestionAnswer::Decline),
            AskResponse::Cancel { .. } => return Step::Done(QuestionAnswer::Cancel),
        };
        match &self.pages[page].0 {
            Page::Confirm => {
                if accepted.get("confirmed") != Some(&Value::Bool(true)) {
                    return Step::Done(QuestionAnswer::Decline);
                }
            }
            Page::Choice(property) => {
                let picked = accepted["selected"].get(0).and_then(Value::as_str).unwrap_or_default();
                if let Some(value) = property.value_of(picked) {
                    content.insert(property.name.clone(), value);
                }
            }
            Page::Form(properties) => {
                for property in properties {
                    if let Some(value) = accepted.get("values").and_then(|values| values.get(&property.id))
                        && let Some(value) = property.read(value)
                    {
                        content.insert(property.name.clone(), value);
                    }
                }
            }
        }
        if page + 1 < self.pages.len() {
            return Step::Next;
        }
        match check_content(&self.schema, content) {
            Ok(()) => Step::Done(QuestionAnswer::Accept(Value::Object(content.clone()))),
            Err(problem) => {
                tracing::warn!(server = self.asker, %problem, "an elicitation answer does not fit the requested schema");
                Step::Done(QuestionAnswer::Decline)
            }
        }
    }
}

impl Property {
    fn value_of(&self, option_id: &str) -> Option<Value> {
        self.options.iter().find(|(id, _)| id == option_id).map(|(_, value)| value.clone())
    }

    /// A form value as the schema wants it; `None` leaves an empty optional field out.
    fn read(&self, value: &Value) -> Option<Value> {
        if value.is_null() || value == "" {
            return None;
        }
        if self.multiple {
            let ids = value.as_array()?;
            return Some(Value::Array(ids.iter().filter_map(|id| self.value_of(id.as_str()?)).collect()));
        }
        if !self.options.is_empty() {
            return self.value_of(value.as_str()?);
        }
        if self.integer {
            return value.as_f64().map(|number| json!(number as i64));
        }
        Some(value.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_contract::asks::{AskSurface, parse_ask_input, validate_ask_response};

    fn valid(plan: &ToolQuestion, page: usize) {
        let (kind, input) = plan.ask(page);
        parse_ask_input(kind, &input, AskSurface::Full).unwrap_or_else(|errors| panic!("{input}: {errors:?}"));
    }

    #[test]
    fn a_flat_schema_becomes_a_form_and_the_answer_goes_back_in_the_schemas_terms() {
        let schema = json!({"type": "object", "required": ["fullName"], "properties": {
            "fullName": {"type": "string", "title": "Name", "minLength": 2},
            "email": {"type": "string", "format": "email"},
            "age": {"type": "integer", "minimum": 0, "maximum": 150, "default": 30},
            "agree": {"type": "boolean"},
            "hero": {"type": "string", "oneOf": [{"const": "hero-1", "title": "Superman"}, {"const": "Hero 2", "title": "Batman"}], "default": "Hero 2"},
            "tools": {"type": "array", "minItems": 1, "items": {"type": "string", "enum": ["Guitar", "Piano"]}}
        }});
        let plan = ToolQuestion::form("everything", "Tell us about you", schema).unwrap();
        assert_eq!(plan.pages(), 1);
        valid(&plan, 0);
        let (kind, input) = plan.ask(0);
        assert_eq!(kind, AskKind::Form);
        assert_eq!(input["title"], "The MCP server \"everything\" asks");
        let fields = input["fields"].as_array().unwrap();
        let by_id = |id: &str| fields.iter().find(|field| field["id"] == id).unwrap().clone();
        assert_eq!(by_id("fullname")["required"], true);
        assert_eq!(by_id("email")["type"], "email");
        assert_eq!((by_id("age")["type"].clone(), by_id("age")["integer"].clone()), (json!("number"), json!(true)));
        assert_eq!(by_id("hero")["options"][1], json!({"id": "hero_2", "label": "Batman"}));
        assert_eq!(by_id("hero")["default"], "hero_2");
        assert_eq!(by_id("tools")["type"], "multiselect");

        let answer = json!({"action": "accept", "content": {"values": {
            "fullname": "Ada", "email": "ada@example.com", "age": 36, "agree": true, "hero": "hero_2", "tools": ["piano"]}}});
        let (_, input) = plan.ask(0);
        let ask = parse_ask_input(AskKind::Form, &input, AskSurface::Full).unwrap();
        assert!(validate_ask_response(&ask, &answer, 1).is_empty());
        let response: AskResponse = serde_json::from_value(answer).unwrap();
        assert!(plan.refusals(0, &response).is_empty());
        let mut content = Map::new();
        let step = plan.answer(0, &response, &mut content);
        assert_eq!(
            step,
            Step::Done(QuestionAnswer::Accept(
                json!({"fullName": "Ada", "email": "ada@example.com", "age": 36, "agree": true, "hero": "Hero 2", "tools": ["Piano"]})
            ))
        );
    }

    #[test]
    fn what_the_schema_asks_beyond_the_form_is_refused_by_field() {
        let schema = json!({"properties": {"tools": {"type": "array", "minItems": 1, "title": "Instruments",
            "items": {"enum": ["Guitar", "Piano"]}}, "note": {"type": "string"}}});
        let plan = ToolQuestion::form("s", "Pick", schema).unwrap();
        let none: AskResponse =
            serde_json::from_value(json!({"action": "accept", "content": {"values": {"tools": []}}})).unwrap();
        let refusals = plan.refusals(0, &none);
        assert_eq!(refusals.len(), 1);
        assert_eq!(
            (refusals[0].path.as_str(), refusals[0].code.as_str(), refusals[0].message.as_str()),
            ("content.values.tools", "SELECTION_COUNT", "Instruments needs at least 1 picked.")
        );
    }

    #[test]
    fn one_enum_is_a_choice_no_fields_a_confirm_and_many_fields_several_pages() {
        let one = ToolQuestion::form(
            "s",
            "Which?",
            json!({"properties": {"size": {"type": "string", "enum": ["S", "M", "L"]}}}),
        )
        .unwrap();
        valid(&one, 0);
        assert_eq!(one.ask(0).0, AskKind::Choice);
        let picked: AskResponse =
            serde_json::from_value(json!({"action": "accept", "content": {"selected": ["m"]}})).unwrap();
        assert_eq!(one.answer(0, &picked, &mut Map::new()), Step::Done(QuestionAnswer::Accept(json!({"size": "M"}))));

        let none = ToolQuestion::form("s", "Go on?", json!({"type": "object", "properties": {}})).unwrap();
        assert_eq!(none.ask(0).0, AskKind::Confirm);
        let no: AskResponse =
            serde_json::from_value(json!({"action": "accept", "content": {"confirmed": false}})).unwrap();
        assert_eq!(none.answer(0, &no, &mut Map::new()), Step::Done(QuestionAnswer::Decline));

        let properties: Map<String, Value> =
            (0..13).map(|index| (format!("field{index:02}"), json!({"type": "string"}))).collect();
        let many = ToolQuestion::form("s", "Lots", json!({ "properties": properties })).unwrap();
        assert_eq!(many.pages(), 2);
        valid(&many, 0);
        valid(&many, 1);
        assert!(many.ask(1).1["title"].as_str().unwrap().ends_with("(2 of 2)"));
        let first: AskResponse =
            serde_json::from_value(json!({"action": "accept", "content": {"values": {"field00": "a"}}})).unwrap();
        let mut content = Map::new();
        assert_eq!(many.answer(0, &first, &mut content), Step::Next);
        let skip: AskResponse = serde_json::from_value(json!({"action": "decline"})).unwrap();
        assert_eq!(many.answer(1, &skip, &mut content), Step::Done(QuestionAnswer::Decline));
    }

    #[test]
    fn a_link_is_a_confirm_naming_its_host_and_odd_links_are_refused() {
        let plan = ToolQuestion::url("pay", "Finish the payment", "https://pay.example.com/checkout?id=1").unwrap();
        valid(&plan, 0);
        assert!(plan.ask(0).1["prompt"].as_str().unwrap().ends_with("The link opens pay.example.com."));
        assert_eq!(plan.link(), Some("https://pay.example.com/checkout?id=1"));
        assert!(ToolQuestion::url("pay", "x", "javascript:alert(1)").is_err());
        assert!(ToolQuestion::form("s", "x", json!({"properties": {"nested": {"type": "object"}}})).is_err());
    }

    #[test]
    fn a_requested_schema_that_does_not_compile_is_not_asked() {
        let broken = json!({"properties": {"code": {"type": "string", "pattern": "([0-9]"}}});
        let refused = ToolQuestion::form("s", "x", broken).unwrap_err();
        assert!(refused.contains("not valid JSON Schema"), "its answers could not be checked: {refused}");
    }

    #[test]
    fn several_forms_share_a_card_and_their_answer_is_parted_again() {
        let name = json!({"message": "Who?", "requestedSchema": {"type": "object",
            "properties": {"name": {"type": "string"}}, "required": ["name"]}});
        let day = json!({"mode": "form", "message": "When?", "requestedSchema": {"type": "object",
            "properties": {"v.day": {"type": "string", "title": "Day", "format": "date"}}}});
        let card = ToolQuestion::forms("s", &[&name, &day]).unwrap();
        let (kind, input) = card.ask(0);
        assert_eq!(kind, AskKind::Form);
        assert_eq!(input["prompt"], "Who?\n\nWhen?");
        let labels: Vec<&Value> = input["fields"].as_array().unwrap().iter().map(|field| &field["label"]).collect();
        assert_eq!(labels, [&json!("name"), &json!("Day")]);
        assert_eq!(input["fields"][0]["required"], true);

        let parts = ToolQuestion::split_forms(&json!({"0.name": "Ada", "1.v.day": "2026-12-07", "7.x": 1}), 2);
        assert_eq!(parts[0], json!({"name": "Ada"}).as_object().unwrap().clone());
        assert_eq!(parts[1], json!({"v.day": "2026-12-07"}).as_object().unwrap().clone());

        assert!(ToolQuestion::is_form_request(&json!({"method": "elicitation/create", "params": name})));
        let link = json!({"method": "elicitation/create", "params": {"mode": "url", "url": "https://a.example"}});
        assert!(!ToolQuestion::is_form_request(&link));
        assert!(ToolQuestion::input_request("s", &json!({"method": "roots/list"})).is_err());
    }

    #[test]
    fn an_apps_answer_is_checked_against_the_schema_and_read_as_the_cards() {
        let request = |schema: Value| {
            json!({"method": "elicitation/create", "params": {"message": "Pick", "requestedSchema": schema,
                "_meta": {"ui": {"resourceUri": "ui://s/pick.html"}}}})
        };
        let seats =
            request(json!({"properties": {"seat": {"type": "string", "enum": ["A 1", "B 2"]}}, "required": ["seat"]}));
        let choice = ToolQuestion::input_request("s", &seats).unwrap();
        assert_eq!(choice.app(), Some("ui://s/pick.html"));
        assert!(!ToolQuestion::is_form_request(&seats), "an app's question has a card of its own");
        let picked = choice.app_response(&json!({"action": "accept", "content": {"seat": "B 2"}})).unwrap();
        let response: AskResponse = serde_json::from_value(picked.clone()).unwrap();
        assert_eq!(
            choice.answer(0, &response, &mut Map::new()),
            Step::Done(QuestionAnswer::Accept(json!({"seat": "B 2"})))
        );
        let refused = choice.app_response(&json!({"action": "accept", "content": {}})).unwrap_err();
        assert_eq!((refused[0].path.as_str(), refused[0].code.as_str()), ("content.seat", "REQUIRED_FIELD"));
        assert_eq!(choice.app_response(&json!({"action": "decline"})).unwrap(), json!({"action": "decline"}));
        assert_eq!(choice.app_response(&json!({"action": "maybe"})).unwrap_err()[0].path, "action");

        let form = ToolQuestion::input_request(
            "s",
            &request(json!({"properties": {
            "tools": {"type": "array", "items": {"enum": ["Guitar", "Piano"]}}, "note": {"type": "string"}}})),
        )
        .unwrap();
        let answer =
            form.app_response(&json!({"action": "accept", "content": {"tools": ["Piano"], "note": "hi"}})).unwrap();
        assert_eq!(answer["content"]["values"], json!({"tools": ["piano"], "note": "hi"}));
        let unknown = form.app_response(&json!({"action": "accept", "content": {"other": 1}})).unwrap_err();
        assert_eq!(unknown[0].code, "UNKNOWN_KEY");

        // A question of several pages, a choice that may be left out, or a link, is Palaver's
        // card alone.
        let optional = request(json!({"properties": {"seat": {"type": "string", "enum": ["A 1", "B 2"]}}}));
        assert_eq!(ToolQuestion::input_request("s", &optional).unwrap().app(), None);
        let properties: Map<String, Value> =
            (0..13).map(|index| (format!("field{index:02}"), json!({"type": "string"}))).collect();
        let long = ToolQuestion::input_request("s", &request(json!({ "properties": properties }))).unwrap();
        assert_eq!(long.app(), None);
        let confirm = ToolQuestion::input_request("s", &request(json!({"properties": {}}))).unwrap();
        assert_eq!(confirm.app(), Some("ui://s/pick.html"), "a confirm it may draw");
        let mut not_ui = request(json!({"properties": {}}));
        not_ui["params"]["_meta"]["ui"]["resourceUri"] = json!("https://s.example/pick.html");
        assert_eq!(ToolQuestion::input_request("s", &not_ui).unwrap().app(), None);
    }
}
