//! The tab's one connection to `/gpt/events`, shared by every component that listens: the
//! browser reconnects it by itself, sending the id it saw last.

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

/// Calls `on_event` with each of the signed-in user's live events until the calling component
/// is cleaned up (call it from an effect: the server has no events).
pub fn listen_live(on_event: impl Fn(&LiveEvent) + 'static) {
    let id = add(Rc::new(on_event));
    leptos::prelude::on_cleanup(move || remove(id));
}

fn dispatch(message: web_sys::MessageEvent) {
    let Some(Ok(event)) = message.data().as_string().map(|text| serde_json::from_str::<LiveEvent>(&text)) else {
        return;
    };
    // Called from a copy: a listener may add or remove listeners.
    let listeners: Vec<Listener> = LIVE.with_borrow(|live| live.listeners.iter().map(|(_, l)| l.clone()).collect());
    listeners.iter().for_each(|listener| listener(&event));
}

fn add(listener: Listener) -> usize {
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

fn remove(id: usize) {
    LIVE.with_borrow_mut(|live| {
        live.listeners.retain(|(listener, _)| *listener != id);
        if live.listeners.is_empty()
            && let Some((source, _handler)) = live.source.take()
        {
            source.close();
        }
    });
}
