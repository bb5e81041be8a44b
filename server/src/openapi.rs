//! The JSON API as an OpenAPI document (`GET /openapi.json`), derived from the handlers'
//! `#[utoipa::path]` and their bodies' types as the route table (`route_table.rs`) declares
//! them. The table also adds what each route's access rule implies (its security and error
//! answers); the contract adds the schemas it publishes (`SimpleCard`, `TurnRequest`), whole,
//! so the document and `schemas/` never disagree.

use palaver_core::accounts::auth::SESSION_COOKIE;
use serde_json::{Value, json};
use utoipa::OpenApi;
use utoipa::openapi::OpenApi as Document;

use crate::access::{Access, ApiRoute};
use crate::problem::ProblemBody;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Palaver",
        description = "A self-hostable AI chat whose agent can ask typed questions mid-turn. The history and \
                       headless routes are the reference's; Palaver's additions are additive."
    ),
    components(schemas(ProblemBody)),
    tags(
        (name = "gpthistories", description = "Conversations: the reference's history routes and its headless actions"),
        (name = "gpt", description = "Turns, models, host actions, the audit trail and live events"),
        (name = "auth", description = "Accounts, sessions and API tokens"),
        (name = "admin", description = "Users, for admins"),
        (name = "files", description = "Uploads"),
        (name = "push", description = "Web Push: devices that get notifications, and answers from them"),
        (name = "agui", description = "AG-UI 1.0: Palaver as an AG-UI agent; its asks are interrupts"),
        (name = "webhooks", description = "Outgoing webhooks: signed posts of your asks and turns, and their deliveries"),
        (name = "mail", description = "Mail: your address, ask mails, and the pages their answer links open"),
        (name = "approvals", description = "Approvals an admin routed to someone other than the person who asked"),
        (name = "apps", description = "MCP Apps: a tool's app for the chat to draw, and the app's own tool calls"),
        (name = "meta", description = "The server itself"),
    )
)]
struct ApiDoc;

/// Where the document is served.
pub const PATH: &str = "/openapi.json";

/// The document before the routes are added: its title, tags and shared schemas.
pub fn base() -> Document {
    ApiDoc::openapi()
}

/// The document with the routes' paths in it, finished: the contract's published schemas, the
/// security schemes, and what each route's access rule implies.
pub fn finish(with_paths: Document, routes: &[ApiRoute]) -> Value {
    let mut document = serde_json::to_value(with_paths).unwrap_or_else(|_| json!({}));
    add_published_schemas(&mut document);
    document["components"]["securitySchemes"] = json!({
        "session": {"type": "apiKey", "in": "cookie", "name": SESSION_COOKIE},
        "token": {"type": "http", "scheme": "bearer", "description": "An API token (POST /auth/tokens)"},
    });
    for route in routes {
        let method = route.method.as_str().to_ascii_lowercase();
        if let Some(operation) = document.pointer_mut(&format!("/paths/{}/{method}", escape(&route.path))) {
            add_access(operation, route.access, route.path.contains('{'));
            if route.path != PATH {
                add_request_id(operation);
            }
        }
    }
    document
}

/// A JSON Pointer token for `path` (RFC 6901).
fn escape(path: &str) -> String {
    path.replace('~', "~0").replace('/', "~1")
}

/// The contract's published documents as components, without their `$schema` (the OpenAPI
/// document has its own dialect; these use nothing that differs between the two).
fn add_published_schemas(document: &mut Value) {
    let published = palaver_contract::asks::ask_json_schemas();
    for (name, file) in
        [(palaver_wire::openapi::SIMPLE_CARD, "simpleCard.schema.json"), ("TurnRequest", "turnRequest.schema.json")]
    {
        if let Some((_, mut schema)) = published.iter().find(|(published, _)| *published == file).cloned() {
            if let Some(schema) = schema.as_object_mut() {
                schema.remove("$schema");
            }
            document["components"]["schemas"][name] = schema;
        }
    }
}

fn problem(description: &str) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ProblemBody"}}}})
}

/// The security and the error answers a route's access rule implies (the reference's default
/// error responses), beside any the route declares itself.
fn add_access(operation: &mut Value, access: Access, names_a_document: bool) {
    let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else {
        return;
    };
    let mut add = |status: &str, description: &str| {
        responses.entry(status).or_insert_with(|| problem(description));
    };
    add("400", "Bad request");
    // A file's route answers everyone but its owner 404, signed out or not; a capability's
    // route reads only its body.
    if !matches!(access, Access::Public | Access::FileOwner | Access::Capability) {
        add("401", "The user must be authenticated");
    }
    if matches!(access, Access::Admin | Access::HistoryRead | Access::HistoryWrite) {
        add("403", "The user is not allowed to perform this action on this document");
    }
    if names_a_document {
        add("404", "Document not found");
    }
    add("default", "Any other error, as a problem (409, 413, 415, 429, 5xx)");
    if !matches!(access, Access::Public | Access::Capability) {
        operation["security"] = json!([{"session": []}, {"token": []}]);
    }
}

/// Every JSON answer but the document itself carries the request's id (`observe` adds it).
fn add_request_id(operation: &mut Value) {
    let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else {
        return;
    };
    for response in responses.values_mut() {
        if let Some(schema) = response.pointer_mut("/content/application~1json/schema") {
            let body = schema.take();
            let request_id =
                json!({"type": "string", "description": "The request's id; quote it when reporting a problem."});
            *schema = json!({"allOf": [body, {"properties": {"requestId": request_id}}]});
        }
    }
}
