//! Every route of the JSON API, declared once: its handler and OpenAPI entry (`routes!` reads
//! both from the handler's `#[utoipa::path]`, so the path and method are written there alone)
//! and who may call it. The router, the OpenAPI document and the access-matrix test all read
//! this table, so a route cannot be mounted without its entry or its rule.

use std::sync::LazyLock;

use axum::extract::DefaultBodyLimit;
use axum::http::Method;
use axum::{Json, Router};
use palaver_app::state::AppState;
use serde_json::Value;
use utoipa::openapi::path::PathItem;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouter};
use utoipa_axum::routes;

use crate::access::{Access, ApiRoute};
use crate::openapi;
use crate::routes::{
    self as r, agui, approvals, apps, audit, auth as a, batch_answers, branches, events, file_bytes, files, gpt as g,
    headless as h, mail, push, shares as s, turn as t, webhooks as w,
};

/// A route as declared: the rule beside what `routes!` made of the handler.
struct Declared {
    access: Access,
    asks_only: bool,
    route: UtoipaMethodRouter<AppState>,
}

fn route(access: Access, route: UtoipaMethodRouter<AppState>) -> Declared {
    Declared { access, asks_only: false, route }
}

fn headless(access: Access, route: UtoipaMethodRouter<AppState>) -> Declared {
    Declared { access, asks_only: true, route }
}

/// Every route of the JSON API. Routes are added here and only here, each with its rule.
fn declared() -> Vec<Declared> {
    let (schemas, paths, upload) = routes!(files::upload);
    // Uploads stream to disk under their own cap, not axum's default body limit.
    let upload = (schemas, paths, upload.layer(DefaultBodyLimit::disable()));
    vec![
        route(Access::Public, routes!(r::health)),
        route(Access::Public, routes!(serve_openapi)),
        route(Access::Public, routes!(a::signup)),
        route(Access::Public, routes!(a::login)),
        route(Access::Public, routes!(a::logout)),
        route(Access::Authenticated, routes!(a::me)),
        route(Access::Authenticated, routes!(a::change_password)),
        route(Access::Authenticated, routes!(a::create_token)),
        route(Access::Authenticated, routes!(a::list_tokens)),
        route(Access::Authenticated, routes!(a::revoke_token)),
        route(Access::Authenticated, routes!(a::delete_account)),
        route(Access::Admin, routes!(a::admin_list_users)),
        route(Access::Admin, routes!(a::admin_update_user)),
        route(Access::Admin, routes!(a::admin_reset_password)),
        route(Access::Authenticated, upload),
        route(Access::FileOwner, routes!(file_bytes::read_file)),
        route(Access::HistoryWrite, routes!(t::prompt)),
        route(Access::Authenticated, routes!(g::list_histories)),
        route(Access::Authenticated, routes!(g::create_history)),
        headless(Access::Authenticated, routes!(h::pending_asks)),
        headless(Access::Authenticated, routes!(batch_answers::answer_many)),
        // Routed to the caller by an admin's rule; the runner checks the caller is its approver.
        headless(Access::Authenticated, routes!(approvals::waiting)),
        headless(Access::Authenticated, routes!(approvals::answer)),
        route(Access::HistoryRead, routes!(g::read_history)),
        route(Access::HistoryWrite, routes!(g::update_history)),
        route(Access::HistoryWrite, routes!(g::rate)),
        route(Access::HistoryWrite, routes!(branches::show_branch)),
        route(Access::Authenticated, routes!(g::list_models)),
        route(Access::HistoryWrite, routes!(g::delete_history)),
        headless(Access::HistoryWrite, routes!(h::turn)),
        route(Access::HistoryRead, routes!(t::attach)),
        route(Access::HistoryRead, routes!(g::export_history)),
        route(Access::HistoryWrite, routes!(g::host_action)),
        route(Access::HistoryWrite, routes!(r::ask_reopen::reopen_ask)),
        route(Access::HistoryWrite, routes!(s::share)),
        route(Access::HistoryWrite, routes!(s::share_status)),
        route(Access::HistoryWrite, routes!(s::stop_sharing)),
        // The token is the key: anyone who has it reads the conversation, and nothing more.
        route(Access::Public, routes!(s::read_shared)),
        // Admins may ask for everyone's entries (`all=true`); the handler checks.
        route(Access::Authenticated, routes!(audit::audit)),
        route(Access::Authenticated, routes!(audit::export)),
        route(Access::Authenticated, routes!(events::events)),
        route(Access::Authenticated, routes!(push::key)),
        route(Access::Authenticated, routes!(push::subscribe)),
        route(Access::Authenticated, routes!(push::devices)),
        route(Access::Authenticated, routes!(push::rename)),
        route(Access::Authenticated, routes!(push::remove)),
        route(Access::Authenticated, routes!(push::presence)),
        route(Access::Authenticated, routes!(push::settings)),
        route(Access::Authenticated, routes!(push::save_settings)),
        // The capability in the body is the key: it answers one ask one way, and nothing more.
        route(Access::Capability, routes!(push::answer)),
        route(Access::Authenticated, routes!(mail::settings)),
        route(Access::Authenticated, routes!(mail::set_address)),
        route(Access::Authenticated, routes!(mail::remove_address)),
        route(Access::Authenticated, routes!(mail::set_asks)),
        // A mail link's pages: the token in the path is the key; the GET shows, the POST acts.
        route(Access::Capability, routes!(mail::confirm_page)),
        route(Access::Capability, routes!(mail::confirm)),
        route(Access::Capability, routes!(mail::answer_page)),
        route(Access::Capability, routes!(mail::answer)),
        route(Access::Authenticated, routes!(apps::tools)),
        route(Access::Authenticated, routes!(apps::view)),
        route(Access::Authenticated, routes!(apps::call)),
        route(Access::Authenticated, routes!(apps::approve)),
        route(Access::Authenticated, routes!(apps::context)),
        route(Access::Authenticated, routes!(apps::resource)),
        route(Access::Authenticated, routes!(w::list)),
        route(Access::Authenticated, routes!(w::create)),
        route(Access::Authenticated, routes!(w::update)),
        route(Access::Authenticated, routes!(w::remove)),
        route(Access::Authenticated, routes!(w::rotate_secret)),
        route(Access::Authenticated, routes!(w::deliveries)),
        route(Access::Authenticated, routes!(w::test)),
        // The handler checks the thread is the caller's (someone else's is 404).
        route(Access::Authenticated, routes!(agui::run)),
        route(Access::Authenticated, routes!(agui::attach)),
        route(Access::Authenticated, routes!(agui::agent_capabilities)),
    ]
}

/// The API routes and their rules, for the documentation and the tests.
pub fn api_route_table() -> Vec<ApiRoute> {
    declared()
        .into_iter()
        .flat_map(|Declared { access, route: (_, paths, _), .. }| {
            paths.paths.into_iter().flat_map(move |(path, item)| {
                methods_of(&item).into_iter().map(move |method| ApiRoute { method, path: path.clone(), access })
            })
        })
        .collect()
}

/// The methods a path item has operations for.
fn methods_of(item: &PathItem) -> Vec<Method> {
    let operations = [
        (Method::GET, &item.get),
        (Method::POST, &item.post),
        (Method::PUT, &item.put),
        (Method::PATCH, &item.patch),
        (Method::DELETE, &item.delete),
    ];
    operations.into_iter().filter(|(_, operation)| operation.is_some()).map(|(method, _)| method).collect()
}

/// The API's router: every route, but the headless ask routes only while asks are on.
pub fn api_router(asks_on: bool) -> Router<AppState> {
    let mounted = declared().into_iter().filter(|declared| asks_on || !declared.asks_only);
    let (router, _) =
        mounted.fold(OpenApiRouter::new(), |router, declared| router.routes(declared.route)).split_for_parts();
    router
}

/// `GET /openapi.json`: this API described as OpenAPI.
#[utoipa::path(get, path = "/openapi.json", tag = "meta", operation_id = "openapi", summary = "This API as an OpenAPI document",
    responses((status = 200, description = "The document", body = Object)))]
pub async fn serve_openapi() -> Json<&'static Value> {
    static DOCUMENT: LazyLock<Value> = LazyLock::new(|| {
        // The paths and the schemas they use, as `routes!` read them from the handlers.
        let all = declared()
            .into_iter()
            .fold(OpenApiRouter::with_openapi(openapi::base()), |router, declared| router.routes(declared.route));
        openapi::finish(all.into_openapi(), &api_route_table())
    });
    Json(&DOCUMENT)
}
