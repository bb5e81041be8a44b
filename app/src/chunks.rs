//! Wasm chunks the browser fetches on demand (the block renderer, the controls of pending ask
//! cards). Each is a `#[wasm_split]` function; this is what they share: whether the chunk is
//! loaded, calling into it once it is, and a placeholder until then. A page that shows what a
//! chunk renders fetches it before it is hydrated (`crate::hydration::prepare`).

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Waker};

use leptos::prelude::*;

/// One chunk's state and the lines it shows while it is not there.
pub struct Chunk {
    loaded: AtomicBool,
    /// The class and text shown while the chunk is fetched.
    pending: (&'static str, &'static str),
    /// The class and text shown when it could not be fetched.
    unavailable: (&'static str, &'static str),
}

impl Chunk {
    pub const fn new(pending: (&'static str, &'static str), unavailable: (&'static str, &'static str)) -> Self {
        Self { loaded: AtomicBool::new(false), pending, unavailable }
    }

    /// Fetches the chunk with `fetch` (once it has loaded, at once); whether it is loaded.
    pub async fn load<E>(&self, fetch: impl Future<Output = Result<(), E>>) -> bool {
        if !self.loaded.load(Ordering::Relaxed) && fetch.await.is_ok() {
            self.loaded.store(true, Ordering::Relaxed);
        }
        self.loaded.load(Ordering::Relaxed)
    }

    /// Calls into the chunk when it is loaded: the call then completes on its first poll.
    pub fn view_now<E>(&self, call: impl Future<Output = Result<AnyView, E>>) -> Option<AnyView> {
        if !self.loaded.load(Ordering::Relaxed) {
            return None;
        }
        match pin!(call).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(Ok(view)) => Some(view),
            _ => None,
        }
    }

    /// `call(value)` rendered at once when the chunk is loaded (which hydration relies on), or a
    /// placeholder until `load` has fetched it. Calls made while it is in flight share its fetch.
    pub fn view_when_loaded<T, Call, Load, E>(
        &'static self,
        value: T,
        call: fn(T) -> Call,
        load: fn() -> Load,
    ) -> AnyView
    where
        T: Clone + Send + Sync + 'static,
        Call: Future<Output = Result<AnyView, E>> + 'static,
        Load: Future<Output = bool> + 'static,
    {
        if let Some(view) = self.view_now(call(value.clone())) {
            return view;
        }
        let loaded = RwSignal::new(None::<bool>);
        leptos::task::spawn_local(async move { loaded.set(Some(load().await)) });
        let ((pending_class, pending_text), (unavailable_class, unavailable_text)) = (self.pending, self.unavailable);
        let unavailable = move || {
            view! {
                <p class=unavailable_class role="alert">
                    {unavailable_text}
                </p>
            }
            .into_any()
        };
        (move || match loaded.get() {
            None => view! { <p class=pending_class>{pending_text}</p> }.into_any(),
            Some(true) => self.view_now(call(value.clone())).unwrap_or_else(unavailable),
            Some(false) => unavailable(),
        })
        .into_any()
    }
}
