//! Code blocks (in the frame `crate::markdown` writes) in the browser: highlighted by
//! highlight.js (fetched the first time a page shows code, from `/vendor/highlight.js/`), and
//! their Copy buttons copying the code.
//!
//! Both watch the whole document rather than each component: a code block is inside markdown
//! set as `inner_html`, in replies, blocks and ask cards alike. highlight.js reads the code's
//! text and writes escaped spans, so what it shows stays as safe as the markdown.

use std::cell::Cell;
use std::time::Duration;

use js_sys::{Function, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlScriptElement, MutationObserver, MutationObserverInit};

const HIGHLIGHTER: &str = "/vendor/highlight.js/highlight.min.js";
/// Code not yet highlighted (highlight.js marks what it has done).
const WAITING: &str = ".code-block code:not([data-highlighted])";
/// How long the button says "Copied".
const COPIED_FOR: Duration = Duration::from_secs(2);

thread_local! {
    static PASS_PLANNED: Cell<bool> = const { Cell::new(false) };
    static LOADING: Cell<bool> = const { Cell::new(false) };
}

/// Starts both, once the page is hydrated.
pub fn enhance() {
    let document = leptos::prelude::document();
    let on_click = Closure::<dyn Fn(web_sys::Event)>::new(copy_on_click);
    let _ = document.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    on_click.forget();

    let on_change = Closure::<dyn Fn()>::new(plan_pass);
    if let (Ok(observer), Some(body)) = (MutationObserver::new(on_change.as_ref().unchecked_ref()), document.body()) {
        let options = MutationObserverInit::new();
        options.set_child_list(true);
        options.set_subtree(true);
        let _ = observer.observe_with_options(&body, &options);
    }
    on_change.forget();
    plan_pass();
}

/// One highlighting pass per frame, however many changes a streaming reply makes in it.
fn plan_pass() {
    if !PASS_PLANNED.replace(true) {
        leptos::prelude::request_animation_frame(|| {
            PASS_PLANNED.set(false);
            highlight_waiting();
        });
    }
}

fn highlight_waiting() {
    let Ok(waiting) = leptos::prelude::document().query_selector_all(WAITING) else { return };
    if waiting.length() == 0 {
        return;
    }
    let Some(hljs) = highlighter() else {
        load_highlighter();
        return;
    };
    let (Ok(highlight), Ok(get_language)) = (method(&hljs, "highlightElement"), method(&hljs, "getLanguage")) else {
        return;
    };
    for code in (0..waiting.length()).filter_map(|index| waiting.item(index)?.dyn_into::<Element>().ok()) {
        // A language highlight.js does not know stays plain (it would warn, and guess wrong).
        let language = code.class_name().strip_prefix("language-").map(str::to_owned);
        let known = language.is_none_or(|language| {
            get_language.call1(&hljs, &language.into()).is_ok_and(|found| !found.is_undefined())
        });
        if known {
            let _ = highlight.call1(&hljs, &code);
        } else {
            let _ = code.set_attribute("data-highlighted", "plain");
        }
    }
}

fn highlighter() -> Option<JsValue> {
    Reflect::get(&js_sys::global(), &"hljs".into()).ok().filter(|hljs| hljs.is_object())
}

fn method(object: &JsValue, name: &str) -> Result<Function, JsValue> {
    Reflect::get(object, &name.into())?.dyn_into::<Function>()
}

/// Adds the highlighter's script once; when it has run, the waiting code is highlighted.
fn load_highlighter() {
    if LOADING.replace(true) {
        return;
    }
    let document = leptos::prelude::document();
    let Some(script) = document.create_element("script").ok().and_then(|e| e.dyn_into::<HtmlScriptElement>().ok())
    else {
        return;
    };
    script.set_src(HIGHLIGHTER);
    let on_load = Closure::once_into_js(highlight_waiting);
    script.set_onload(Some(on_load.unchecked_ref()));
    if let Some(head) = document.head() {
        let _ = head.append_child(&script);
    }
}

/// A click on a Copy button copies its block's code, and the button says so for a moment.
fn copy_on_click(event: web_sys::Event) {
    let Some(target) = event.target().and_then(|target| target.dyn_into::<Element>().ok()) else { return };
    let Some(button) = target.closest(".code-copy").ok().flatten() else { return };
    let code =
        button.closest(".code-block").ok().flatten().and_then(|block| block.query_selector("code").ok().flatten());
    let Some(text) = code.and_then(|code| code.text_content()) else { return };
    let promise = leptos::prelude::window().navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        let copied = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        button.set_text_content(Some(if copied { "Copied" } else { "Copy failed" }));
        super::clock::sleep(COPIED_FOR).await;
        button.set_text_content(Some("Copy"));
    });
}
