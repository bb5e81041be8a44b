//! The page and its window: where it goes, what it scrolls, its title and root, the clipboard,
//! new tabs, and which URLs stay on this origin.

/// A full page load of `path`, so every part of the page sees a new session.
pub fn go_to(path: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().assign(path);
    }
}

/// How near its end (in pixels) a scrolled box counts as showing it.
const END_SLACK: i32 = 48;

/// Whether a scrolled box shows its end; true on the server.
pub fn shows_end(element: &web_sys::Element) -> bool {
    element.scroll_top() + element.client_height() >= element.scroll_height() - END_SLACK
}

/// How far a scrolled box is scrolled down, in pixels.
pub fn scroll_top(element: &web_sys::Element) -> i32 {
    element.scroll_top()
}

/// How near its start (in pixels) a scrolled box counts as showing it: earlier rows are read
/// a little before the reader gets there.
const START_SLACK: i32 = 300;

/// Whether a scrolled box shows (or nearly shows) its start; false on the server.
pub fn shows_start(element: &web_sys::Element) -> bool {
    element.scroll_top() <= START_SLACK
}

/// How far a scrolled box's end is from the top of what it shows: kept across content added
/// above (`keep_distance_to_end`), the reader's place stays put.
pub fn distance_to_end(element: &web_sys::Element) -> i32 {
    element.scroll_height() - element.scroll_top()
}

/// Scrolls a box so its end is `distance` from the top of what it shows.
pub fn keep_distance_to_end(element: &web_sys::Element, distance: i32) {
    element.set_scroll_top(element.scroll_height() - distance);
}

/// Scrolls a box to its end; when its last ask card is taller than the box, to the card's
/// top instead, so the question shows first.
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

/// Copies `text` to the clipboard; `copied` tells whether it worked.
pub fn copy_text(text: String, copied: leptos::prelude::RwSignal<bool>) {
    use leptos::prelude::Set;
    if let Some(window) = web_sys::window() {
        let promise = window.navigator().clipboard().write_text(&text);
        leptos::task::spawn_local(async move {
            copied.set(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
        });
    }
}

/// Sets (or, with `None`, removes) an attribute of the document's root element.
pub fn set_root_attribute(name: &str, value: Option<&str>) {
    let root = web_sys::window().and_then(|window| window.document()).and_then(|document| document.document_element());
    if let Some(root) = root {
        let _ = match value {
            Some(value) => root.set_attribute(name, value),
            None => root.remove_attribute(name),
        };
    }
}

/// Opens an http(s) link in a new tab, with no way back to this page (`noopener`).
pub fn open_link(url: &str) {
    if url.starts_with("https://") || url.starts_with("http://") {
        let _ = leptos::prelude::window().open_with_url_and_target_and_features(url, "_blank", "noopener,noreferrer");
    }
}

/// Sizes a text box to its text where CSS cannot (`field-sizing: content`); the stylesheet's
/// `max-height` still caps it.
pub fn fit_to_content(element: &web_sys::HtmlElement) {
    if web_sys::css::supports_with_value("field-sizing", "content").unwrap_or(false) {
        return;
    }
    let style = element.style();
    let _ = style.set_property("height", "auto");
    let _ = style.set_property("height", &format!("{}px", element.scroll_height()));
}

/// Whether the caret of the text box a key went to is at its very start, nothing selected.
pub fn caret_at_start(event: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    let field = event.target().and_then(|target| target.dyn_into::<web_sys::HtmlTextAreaElement>().ok());
    field.is_some_and(|field| field.selection_end().ok().flatten() == Some(0))
}

/// Moves the focus to the first element `selector` finds, unless the person is typing in a field
/// (an input, a text area, a select, an editable element): a page never takes focus from them.
pub fn focus_if_free(selector: &str) -> bool {
    let active = leptos::prelude::document().active_element();
    let typing = active.is_some_and(|element| {
        use wasm_bindgen::JsCast;
        let editable = element.dyn_ref::<web_sys::HtmlElement>().is_some_and(web_sys::HtmlElement::is_content_editable);
        editable || matches!(element.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
    });
    !typing && focus_first(selector)
}

/// Moves the focus to the first element `selector` finds; false when there is none.
pub fn focus_first(selector: &str) -> bool {
    use wasm_bindgen::JsCast;
    let found = leptos::prelude::document().query_selector(selector).ok().flatten();
    match found.and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok()) {
        Some(element) => element.focus().is_ok(),
        None => false,
    }
}

/// Moves the focus from the element an event came from to the next (or previous) element
/// `selector` matches, in document order; at either end it stays.
pub fn focus_along(selector: &str, event: &web_sys::Event, forward: bool) {
    use wasm_bindgen::JsCast;
    let Some(from) = event.target().and_then(|target| target.dyn_into::<web_sys::Node>().ok()) else { return };
    let Ok(found) = leptos::prelude::document().query_selector_all(selector) else { return };
    let all: Vec<web_sys::Node> = (0..found.length()).filter_map(|index| found.item(index)).collect();
    let Some(at) = all.iter().position(|node| node.is_same_node(Some(&from))) else { return };
    let next = if forward { at.checked_add(1) } else { at.checked_sub(1) };
    if let Some(element) = next.and_then(|next| all.get(next)).and_then(|node| node.dyn_ref::<web_sys::HtmlElement>()) {
        let _ = element.focus();
    }
}

/// Sizes the frame a `load` event came from to its document's height, at most `max_px` (the
/// frame must share the page's origin for its document to be read; otherwise it keeps its size).
pub fn fit_frame(event: &web_sys::Event, max_px: u32) {
    use wasm_bindgen::JsCast;
    let Some(frame) = event.target().and_then(|target| target.dyn_into::<web_sys::HtmlIFrameElement>().ok()) else {
        return;
    };
    let Some(content) = frame.content_document().and_then(|document| document.document_element()) else { return };
    let height = u32::try_from(content.scroll_height()).unwrap_or(0).clamp(1, max_px);
    let _ = frame.style().set_property("height", &format!("{height}px"));
}

/// Sets the tab's title.
pub fn set_title(title: &str) {
    if let Some(document) = leptos::prelude::window().document() {
        document.set_title(title);
    }
}

/// `path` as a whole address on this page's origin (as it is, where the origin is unknown).
pub fn absolute_url(path: &str) -> String {
    let origin = web_sys::window().and_then(|window| window.location().origin().ok()).unwrap_or_default();
    format!("{origin}{path}")
}

/// Whether `path`, resolved by the browser's own URL parser, stays on this page's origin. On
/// the server the contract's rule alone decides (`crate::navigation`): true.
pub fn resolves_to_this_origin(path: &str) -> bool {
    let Some(origin) = web_sys::window().and_then(|window| window.location().origin().ok()) else { return false };
    web_sys::Url::new_with_base(path, &origin).is_ok_and(|url| url.origin() == origin)
}

/// Clicks the first element `selector` finds, as a pointer would (so its own checks apply),
/// unless it is disabled; false when there is none or it is disabled.
pub fn click_if_enabled(selector: &str) -> bool {
    use wasm_bindgen::JsCast;
    let found = leptos::prelude::document().query_selector(selector).ok().flatten();
    match found.and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok()) {
        Some(element) if !element.matches(":disabled").unwrap_or(true) => {
            element.click();
            true
        }
        _ => false,
    }
}

/// Clicks the element after (or, `forward` false, before) the one `current` matches, among
/// those `selector` matches in document order; with none current, forward clicks the first.
/// At either end nothing is clicked: false.
pub fn click_along(selector: &str, current: &str, forward: bool) -> bool {
    use wasm_bindgen::JsCast;
    let Ok(found) = leptos::prelude::document().query_selector_all(selector) else { return false };
    let all: Vec<web_sys::HtmlElement> =
        (0..found.length()).filter_map(|index| found.item(index)).filter_map(|node| node.dyn_into().ok()).collect();
    let at = all.iter().position(|element| element.matches(current).unwrap_or(false));
    let next = match at {
        Some(at) if forward => at.checked_add(1),
        Some(at) => at.checked_sub(1),
        None => forward.then_some(0),
    };
    match next.and_then(|next| all.get(next)) {
        Some(element) => {
            element.click();
            true
        }
        None => false,
    }
}

/// Shows a dialog as a modal (the page behind is inert, Escape closes it); once it closes, the
/// element that had the focus before gets it back.
pub fn show_modal(dialog: &web_sys::HtmlDialogElement) {
    use wasm_bindgen::JsCast;
    if dialog.open() {
        return;
    }
    let before = leptos::prelude::document()
        .active_element()
        .and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok());
    if dialog.show_modal().is_err() {
        return;
    }
    let give_back = wasm_bindgen::closure::Closure::once_into_js(move || {
        if let Some(element) = before.filter(|element| element.is_connected()) {
            let _ = element.focus();
        }
    });
    let once = web_sys::AddEventListenerOptions::new();
    once.set_once(true);
    let _ = dialog.add_event_listener_with_callback_and_add_event_listener_options(
        "close",
        give_back.unchecked_ref(),
        &once,
    );
}

/// Whether the keyboard is an Apple one (a Mac, an iPad, an iPhone), whose shortcuts take ⌘
/// where others take Ctrl; false on the server.
pub fn apple_keyboard() -> bool {
    let platform = web_sys::window().and_then(|window| window.navigator().platform().ok()).unwrap_or_default();
    ["Mac", "iPhone", "iPad", "iPod"].iter().any(|apple| platform.starts_with(apple))
}
