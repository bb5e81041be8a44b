//! What only a browser can do, with server twins that do nothing, so components and their
//! event handlers carry no `cfg`: on the server they render and never run a handler.

/// A full page load of `path`, so every part of the page sees a new session.
#[cfg(feature = "hydrate")]
pub fn go_to(path: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().assign(path);
    }
}

#[cfg(not(feature = "hydrate"))]
pub fn go_to(_path: &str) {}

/// How near its end (in pixels) a scrolled box counts as showing it.
#[cfg(feature = "hydrate")]
const END_SLACK: i32 = 48;

/// Whether a scrolled box shows its end; true on the server.
#[cfg(feature = "hydrate")]
pub fn shows_end(element: &web_sys::Element) -> bool {
    element.scroll_top() + element.client_height() >= element.scroll_height() - END_SLACK
}

#[cfg(not(feature = "hydrate"))]
pub fn shows_end(_element: &leptos::web_sys::Element) -> bool {
    true
}

/// Scrolls a box to its end; when its last ask card is taller than the box, to the card's
/// top instead, so the question shows first.
#[cfg(feature = "hydrate")]
pub fn scroll_to_newest(element: &web_sys::Element) {
    use wasm_bindgen::JsCast;
    element.set_scroll_top(element.scroll_height());
    let Ok(cards) = element.query_selector_all("[data-testid=\"ask-card\"]") else { return };
    let last = cards.length().checked_sub(1).and_then(|last| cards.item(last));
    let Some(card) = last.and_then(|card| card.dyn_into::<web_sys::Element>().ok()) else { return };
    let (card, shown) = (card.get_bounding_client_rect(), element.get_bounding_client_rect());
    if card.bottom() >= shown.bottom() - 1.0 && card.top() < shown.top() {
        element.set_scroll_top(element.scroll_top() + (card.top() - shown.top()) as i32 - 8);
    }
}

#[cfg(not(feature = "hydrate"))]
pub fn scroll_to_newest(_element: &leptos::web_sys::Element) {}

/// The browser's offset from UTC in minutes (east is positive); 0 on the server.
#[cfg(feature = "hydrate")]
pub fn utc_offset_minutes() -> i64 {
    -(js_sys::Date::new_0().get_timezone_offset() as i64)
}

#[cfg(not(feature = "hydrate"))]
pub fn utc_offset_minutes() -> i64 {
    0
}

/// The browser's clock, in milliseconds since 1970; 0 on the server.
#[cfg(feature = "hydrate")]
pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

#[cfg(not(feature = "hydrate"))]
pub fn now_ms() -> i64 {
    0
}

/// Copies `text` to the clipboard; `copied` tells whether it worked.
#[cfg(feature = "hydrate")]
pub fn copy_text(text: String, copied: leptos::prelude::RwSignal<bool>) {
    use leptos::prelude::Set;
    if let Some(window) = web_sys::window() {
        let promise = window.navigator().clipboard().write_text(&text);
        leptos::task::spawn_local(async move {
            copied.set(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
        });
    }
}

#[cfg(not(feature = "hydrate"))]
pub fn copy_text(_text: String, _copied: leptos::prelude::RwSignal<bool>) {}

/// A value kept in the browser's localStorage.
#[cfg(feature = "hydrate")]
pub fn stored(key: &str) -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    storage.get_item(key).ok()?
}

#[cfg(not(feature = "hydrate"))]
pub fn stored(_key: &str) -> Option<String> {
    None
}

/// Keeps `value` in the browser's localStorage.
#[cfg(feature = "hydrate")]
pub fn store(key: &str, value: &str) {
    if let Some(Ok(Some(storage))) = web_sys::window().map(|window| window.local_storage()) {
        let _ = storage.set_item(key, value);
    }
}

#[cfg(not(feature = "hydrate"))]
pub fn store(_key: &str, _value: &str) {}

/// Sets (or, with `None`, removes) an attribute of the document's root element.
#[cfg(feature = "hydrate")]
pub fn set_root_attribute(name: &str, value: Option<&str>) {
    let root = web_sys::window().and_then(|window| window.document()).and_then(|document| document.document_element());
    if let Some(root) = root {
        let _ = match value {
            Some(value) => root.set_attribute(name, value),
            None => root.remove_attribute(name),
        };
    }
}

#[cfg(not(feature = "hydrate"))]
pub fn set_root_attribute(_name: &str, _value: Option<&str>) {}

/// Opens an http(s) link in a new tab, with no way back to this page (`noopener`).
#[cfg(feature = "hydrate")]
pub fn open_link(url: &str) {
    if url.starts_with("https://") || url.starts_with("http://") {
        let _ = leptos::prelude::window().open_with_url_and_target_and_features(url, "_blank", "noopener,noreferrer");
    }
}

#[cfg(not(feature = "hydrate"))]
pub fn open_link(_url: &str) {}

/// The tab's one connection to `/gpt/events`, shared by every component that listens: the
/// browser reconnects it by itself, sending the id it saw last.
#[cfg(feature = "hydrate")]
mod live_source {
    use std::cell::RefCell;
    use std::rc::Rc;

    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    use palaver_wire::live::LiveEvent;

    type Listener = Rc<dyn Fn(&LiveEvent)>;
    /// The connection, and the handler that must live as long as it.
    type Source = (web_sys::EventSource, Closure<dyn Fn(web_sys::MessageEvent)>);

    #[derive(Default)]
    struct Live {
        source: Option<Source>,
        listeners: Vec<(usize, Listener)>,
        next_id: usize,
    }

    thread_local! {
        static LIVE: RefCell<Live> = RefCell::default();
    }

    fn dispatch(message: web_sys::MessageEvent) {
        let Some(Ok(event)) = message.data().as_string().map(|text| serde_json::from_str::<LiveEvent>(&text)) else {
            return;
        };
        // Called from a copy: a listener may add or remove listeners.
        let listeners: Vec<Listener> = LIVE.with_borrow(|live| live.listeners.iter().map(|(_, l)| l.clone()).collect());
        listeners.iter().for_each(|listener| listener(&event));
    }

    pub fn add(listener: Listener) -> usize {
        LIVE.with_borrow_mut(|live| {
            if live.source.is_none()
                && let Ok(source) = web_sys::EventSource::new("/gpt/events")
            {
                let handler = Closure::<dyn Fn(web_sys::MessageEvent)>::new(dispatch);
                source.set_onmessage(Some(handler.as_ref().unchecked_ref()));
                live.source = Some((source, handler));
            }
            live.next_id += 1;
            live.listeners.push((live.next_id, listener));
            live.next_id
        })
    }

    pub fn remove(id: usize) {
        LIVE.with_borrow_mut(|live| {
            live.listeners.retain(|(listener, _)| *listener != id);
            if live.listeners.is_empty()
                && let Some((source, _handler)) = live.source.take()
            {
                source.close();
            }
        });
    }
}

/// Calls `on_event` with each of the signed-in user's live events until the calling component
/// is cleaned up (call it from an effect: the server has no events).
#[cfg(feature = "hydrate")]
pub fn listen_live(on_event: impl Fn(&palaver_wire::live::LiveEvent) + 'static) {
    let id = live_source::add(std::rc::Rc::new(on_event));
    leptos::prelude::on_cleanup(move || live_source::remove(id));
}

#[cfg(not(feature = "hydrate"))]
pub fn listen_live(_on_event: impl Fn(&palaver_wire::live::LiveEvent) + 'static) {}

/// Sets the tab's title.
#[cfg(feature = "hydrate")]
pub fn set_title(title: &str) {
    if let Some(document) = leptos::prelude::window().document() {
        document.set_title(title);
    }
}

#[cfg(not(feature = "hydrate"))]
pub fn set_title(_title: &str) {}

/// Waits `duration` (a browser timer).
#[cfg(feature = "hydrate")]
pub async fn sleep(duration: std::time::Duration) {
    let millis = i32::try_from(duration.as_millis()).unwrap_or(i32::MAX);
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = leptos::prelude::window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, millis);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

#[cfg(not(feature = "hydrate"))]
pub async fn sleep(_duration: std::time::Duration) {}
