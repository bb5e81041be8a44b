//! An MCP App's frame: the sandbox page's address, the messages of that frame alone (its window,
//! on the sandbox's origin) and the page's messages to it, and what the app is told of the page.

use serde_json::{Map, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{HtmlIFrameElement, MessageEvent};

use palaver_wire::apps::{AppCsp, AppPermissions};

/// Listens to one frame's messages while it is held; dropped, it stops.
pub struct FrameListener {
    handler: Closure<dyn Fn(MessageEvent)>,
}

impl Drop for FrameListener {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback("message", self.handler.as_ref().unchecked_ref());
        }
    }
}

/// `text` as one component of a URL.
pub fn url_component(text: &str) -> String {
    js_sys::encode_uri_component(text).into()
}

/// The sandbox page that draws an app under `csp` with `permissions`, framed by this page.
pub fn sandbox_page(origin: &str, csp: &AppCsp, permissions: &AppPermissions) -> String {
    let host = web_sys::window().and_then(|window| window.location().origin().ok()).unwrap_or_default();
    let json = |value: String| url_component(&value);
    format!(
        "{origin}/sandbox?host={}&csp={}&permissions={}",
        url_component(&host),
        json(serde_json::to_string(csp).unwrap_or_default()),
        json(serde_json::to_string(permissions).unwrap_or_default()),
    )
}

/// Calls `on_message` with each JSON message the frame's own window posts from `origin`; any
/// other window's, or another origin's, is ignored.
pub fn listen_to_frame(
    frame: &HtmlIFrameElement,
    origin: &str,
    on_message: impl Fn(Value) + 'static,
) -> Option<FrameListener> {
    let (frame, origin) = (frame.clone(), origin.to_string());
    let handler = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let from_frame = match (event.source(), frame.content_window()) {
            (Some(source), Some(window)) => js_sys::Object::is(&source, &window),
            _ => false,
        };
        if !from_frame || event.origin() != origin {
            return;
        }
        let text = js_sys::JSON::stringify(&event.data()).ok().and_then(|text| text.as_string());
        if let Some(message) = text.and_then(|text| serde_json::from_str(&text).ok()) {
            on_message(message);
        }
    });
    let window = web_sys::window()?;
    window.add_event_listener_with_callback("message", handler.as_ref().unchecked_ref()).ok()?;
    Some(FrameListener { handler })
}

/// Posts `message` to the frame, for `origin` only.
pub fn post_to_frame(frame: &HtmlIFrameElement, origin: &str, message: &Value) {
    let (Some(window), Ok(data)) = (frame.content_window(), js_sys::JSON::parse(&message.to_string())) else { return };
    let _ = window.post_message(&data, origin);
}

/// The page's theme: the one pinned, else the system's.
pub fn page_theme() -> &'static str {
    let window = web_sys::window();
    let pinned = window
        .as_ref()
        .and_then(|window| window.document())
        .and_then(|document| document.document_element())
        .and_then(|root| root.get_attribute("data-theme"));
    match pinned.as_deref() {
        Some("dark") => "dark",
        Some("light") => "light",
        _ => {
            let dark = window.and_then(|window| window.match_media("(prefers-color-scheme: dark)").ok().flatten());
            if dark.is_some_and(|query| query.matches()) { "dark" } else { "light" }
        }
    }
}

/// The browser's language (a BCP 47 tag).
pub fn page_locale() -> String {
    web_sys::window().and_then(|window| window.navigator().language()).unwrap_or_default()
}

/// Watches the page's theme while it is held; dropped, it stops.
pub struct ThemeWatch {
    observer: web_sys::MutationObserver,
    _on_change: Closure<dyn Fn(js_sys::Array, web_sys::MutationObserver)>,
}

impl Drop for ThemeWatch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Calls `on_change` with the page's theme each time the person pins another (or goes back to
/// the system's).
pub fn watch_theme(on_change: impl Fn(&'static str) + 'static) -> Option<ThemeWatch> {
    let on_change =
        Closure::<dyn Fn(js_sys::Array, web_sys::MutationObserver)>::new(move |_, _| on_change(page_theme()));
    let observer = web_sys::MutationObserver::new(on_change.as_ref().unchecked_ref()).ok()?;
    let options = web_sys::MutationObserverInit::new();
    options.set_attributes(true);
    options.set_attribute_filter(&js_sys::Array::of1(&"data-theme".into()));
    let root = web_sys::window()?.document()?.document_element()?;
    observer.observe_with_options(&root, &options).ok()?;
    Some(ThemeWatch { observer, _on_change: on_change })
}

/// The frame's width and height as laid out now, in CSS pixels.
pub fn frame_size(frame: &HtmlIFrameElement) -> (u32, u32) {
    let size = |pixels: i32| u32::try_from(pixels).unwrap_or_default();
    (size(frame.client_width()), size(frame.client_height()))
}

/// Watches the window's size while it is held; dropped, it stops.
pub struct ResizeWatch {
    handler: Closure<dyn Fn()>,
}

impl Drop for ResizeWatch {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback("resize", self.handler.as_ref().unchecked_ref());
        }
    }
}

/// Calls `on_resize` each time the window changes size.
pub fn watch_resize(on_resize: impl Fn() + 'static) -> Option<ResizeWatch> {
    let handler = Closure::<dyn Fn()>::new(on_resize);
    web_sys::window()?.add_event_listener_with_callback("resize", handler.as_ref().unchecked_ref()).ok()?;
    Some(ResizeWatch { handler })
}

/// Whether the focus is in `frame` (the person clicked or typed in it last).
pub fn has_focus(frame: &HtmlIFrameElement) -> bool {
    let active = web_sys::window().and_then(|window| window.document()).and_then(|document| document.active_element());
    active.is_some_and(|active| js_sys::Object::is(&active, frame))
}

/// Asks the person `question` (the browser's own dialog); whether they said yes.
pub fn confirm(question: &str) -> bool {
    web_sys::window().and_then(|window| window.confirm_with_message(question).ok()).unwrap_or(false)
}

/// The host `url` opens, as the browser reads it (punycode for a name in another alphabet).
pub fn url_host(url: &str) -> Option<String> {
    web_sys::Url::new(url).ok().map(|url| url.hostname()).filter(|host| !host.is_empty())
}

/// For each `(name, property)`, the value the page's root has for its custom `property`, under
/// `name`; a property the page does not set is left out.
pub fn css_variables(pairs: &[(&str, &str)]) -> Map<String, Value> {
    let window = web_sys::window();
    let root = window.as_ref().and_then(|window| window.document()).and_then(|document| document.document_element());
    let style = window.zip(root).and_then(|(window, root)| window.get_computed_style(&root).ok().flatten());
    let Some(style) = style else { return Map::new() };
    pairs
        .iter()
        .filter_map(|(name, property)| {
            let value = style.get_property_value(property).ok()?.trim().to_string();
            (!value.is_empty()).then(|| ((*name).to_string(), Value::String(value)))
        })
        .collect()
}
