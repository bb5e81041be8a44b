//! The browser's functions as the server has them. A server renders pages and never runs an
//! effect or an event handler, so each does nothing, or returns the default its browser twin's
//! doc names; what is rendered from a lazy chunk in the browser renders at once here.

use std::time::Duration;

use leptos::prelude::RwSignal;
use leptos::web_sys::Element;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Attach, SendError, WithoutStorage};
use palaver_wire::body::PromptBody;
use palaver_wire::conversation::model::TurnEvent;
use palaver_wire::live::LiveEvent;

pub fn go_to(_path: &str) {}

pub fn shows_end(_element: &Element) -> bool {
    true
}

pub fn scroll_to_newest(_element: &Element) {}

pub fn scroll_top(_element: &Element) -> i32 {
    0
}

pub fn shows_start(_element: &Element) -> bool {
    false
}

pub fn distance_to_end(_element: &Element) -> i32 {
    0
}

pub fn keep_distance_to_end(_element: &Element, _distance: i32) {}

pub fn copy_text(_text: String, _copied: RwSignal<bool>) {}

pub fn set_root_attribute(_name: &str, _value: Option<&str>) {}

pub fn open_link(_url: &str) {}

pub fn set_title(_title: &str) {}

pub fn fit_to_content(_element: &leptos::web_sys::HtmlElement) {}

pub fn caret_at_start(_event: &leptos::web_sys::KeyboardEvent) -> bool {
    false
}

pub fn focus_if_free(_selector: &str) -> bool {
    false
}

pub fn fit_frame(_event: &leptos::web_sys::Event, _max_px: u32) {}

pub fn focus_along(_selector: &str, _event: &leptos::web_sys::Event, _forward: bool) {}

pub fn focus_first(_selector: &str) -> bool {
    false
}

pub fn click_if_enabled(_selector: &str) -> bool {
    false
}

pub fn click_along(_selector: &str, _current: &str, _forward: bool) -> bool {
    false
}

pub fn show_modal(_dialog: &leptos::web_sys::HtmlDialogElement) {}

pub fn apple_keyboard() -> bool {
    false
}

/// On the server the contract's rule alone decides: what it accepts resolves to the same
/// origin (the contract's proptest checks that against a WHATWG parser).
pub fn absolute_url(path: &str) -> String {
    path.to_string()
}

pub fn resolves_to_this_origin(_path: &str) -> bool {
    true
}

pub fn utc_offset_minutes() -> i64 {
    0
}

/// The server has no reader's time zone: empty.
pub fn time_zone() -> String {
    String::new()
}

pub fn local_moment(_epoch_ms: i64) -> Option<String> {
    None
}

pub fn now_ms() -> i64 {
    0
}

pub async fn sleep(_duration: Duration) {}

pub fn stored(_key: &str) -> Option<String> {
    None
}

pub fn store(_key: &str, _value: &str) {}

pub fn kept_for_session(_key: &str) -> Option<String> {
    None
}

pub fn keep_for_session(_key: &str, _value: Option<&str>) {}

pub fn forget_kept_for_session() {}

pub fn listen_live(_on_event: impl Fn(&LiveEvent) + 'static) {}

pub async fn request<R: DeserializeOwned>(_method: &str, _url: &str, _body: Option<String>) -> Result<R, String> {
    Err("Requests to the API are made from the browser.".into())
}

pub async fn send_prompt(
    _body: &PromptBody,
    _on_stream: impl FnOnce(String),
    _on_event: impl FnMut(Option<String>, TurnEvent),
) -> Result<(), SendError> {
    Err("Turns are sent from the browser.".into())
}

pub async fn attach(
    _conversation_id: &str,
    _last_seen: Option<&str>,
    _on_event: impl FnMut(Option<String>, TurnEvent),
) -> Result<Attach, SendError> {
    Err("Turns are followed from the browser.".into())
}

/// A file a person gave the page: the server never has one.
pub enum File {}

pub fn upload_files(
    _files: Vec<File>,
    _uploading: RwSignal<Vec<(String, f64)>>,
    _errors: RwSignal<Vec<String>>,
    _without_storage: WithoutStorage,
    _keep: impl Fn(Value) -> Result<(), String> + 'static,
) {
}

pub fn chosen_files(_event: &leptos::ev::Event) -> Vec<File> {
    Vec::new()
}

pub fn receive_files(_area: &Element, _dragging: RwSignal<bool>, _on_files: impl Fn(Vec<File>) + 'static) {}

pub fn page_shows(_selector: &str) -> bool {
    false
}

pub fn finish_hydration() {}

/// The server hydrates nothing.
pub fn hydrated() -> bool {
    false
}

pub fn show_load_error() {}

/// `mod $module` whose `view_when_loaded($arg)` renders `$body` at once, and whose chunk is
/// always loaded.
macro_rules! lazy_view {
    (
        $(#[$doc:meta])* $vis:vis mod $module:ident in $chunk:ident: |$arg:ident: $value:ty| $body:expr,
        pending: $pending:expr, unavailable: $unavailable:expr $(,)?
    ) => {
        $(#[$doc])*
        $vis mod $module {
            use super::*;

            pub(crate) async fn load() -> bool {
                true
            }

            pub(crate) fn view_when_loaded($arg: $value) -> ::leptos::prelude::AnyView {
                $body
            }
        }
    };
}
pub(crate) use lazy_view;

/// A route whose page renders at once.
macro_rules! lazy_page {
    ($route:ident, $chunk:ident, $page:path) => {
        pub use $chunk::$route;

        mod $chunk {
            use super::*;

            pub struct $route;

            impl ::leptos_router::LazyRoute for $route {
                fn data() -> Self {
                    $route
                }

                async fn view(_this: Self) -> AnyView {
                    view! { <$page /> }.into_any()
                }
            }
        }
    };
}
pub(crate) use lazy_page;

/// No push on the server.
pub fn push_supported() -> bool {
    false
}

pub async fn this_push_endpoint() -> Option<String> {
    None
}

pub async fn subscribe_push(_server_key: &str) -> Result<String, String> {
    Err("Notifications are turned on from the browser.".into())
}

pub async fn unsubscribe_push() -> Result<Option<String>, String> {
    Ok(None)
}

/// The server knows no device: empty.
pub fn device_name_guess() -> String {
    String::new()
}

/// The server has no tabs: empty.
pub fn new_tab_id() -> String {
    String::new()
}

/// The server shows nothing.
pub fn page_visible() -> bool {
    false
}

pub fn on_visibility_change(_on_change: impl Fn() + 'static) {}

/// The server draws no MCP App (`app_frame` in the browser).
pub struct FrameListener;

pub fn url_component(_text: &str) -> String {
    String::new()
}

pub fn sandbox_page(
    _origin: &str,
    _csp: &palaver_wire::apps::AppCsp,
    _permissions: &palaver_wire::apps::AppPermissions,
) -> String {
    String::new()
}

pub fn listen_to_frame(
    _frame: &leptos::web_sys::HtmlIFrameElement,
    _origin: &str,
    _on_message: impl Fn(Value) + 'static,
) -> Option<FrameListener> {
    None
}

pub fn post_to_frame(_frame: &leptos::web_sys::HtmlIFrameElement, _origin: &str, _message: &Value) {}

/// `"light"`.
pub fn page_theme() -> &'static str {
    "light"
}

pub fn page_locale() -> String {
    String::new()
}

/// The server watches no theme (`app_frame` in the browser).
pub struct ThemeWatch;

pub fn watch_theme(_on_change: impl Fn(&'static str) + 'static) -> Option<ThemeWatch> {
    None
}

/// `false`.
pub fn confirm(_question: &str) -> bool {
    false
}

/// `false`.
pub fn has_focus(_frame: &leptos::web_sys::HtmlIFrameElement) -> bool {
    false
}

/// Nothing is laid out on the server.
pub fn frame_size(_frame: &leptos::web_sys::HtmlIFrameElement) -> (u32, u32) {
    (0, 0)
}

/// The server watches no window (`app_frame` in the browser).
pub struct ResizeWatch;

pub fn watch_resize(_on_resize: impl Fn() + 'static) -> Option<ResizeWatch> {
    None
}

pub fn url_host(_url: &str) -> Option<String> {
    None
}

/// None: the server has no page to read.
pub fn css_variables(_pairs: &[(&str, &str)]) -> serde_json::Map<String, Value> {
    serde_json::Map::new()
}
