//! Wasm chunks the browser fetches on demand (`cargo leptos build --split`): views such as the
//! block renderer and the controls of pending ask cards (`lazy_view!`), and the pages the chat
//! does not need (`lazy_page!`). Each is a `#[wasm_split]` function; this is what they share:
//! whether the chunk is loaded, calling into it once it is, and a placeholder until then. A
//! page that shows what a chunk renders fetches it before it is hydrated
//! (`crate::hydration::prepare`).

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

/// Declares `mod $module`, whose `view_when_loaded($arg)` renders `$body` from the wasm chunk
/// `$chunk` (at once when it is loaded, else `pending` until `load()` has fetched it, or
/// `unavailable`), and whose `load()` fetches the chunk; whether it is loaded.
macro_rules! lazy_view {
    (
        $(#[$doc:meta])* $vis:vis mod $module:ident in $chunk:ident: |$arg:ident: $value:ty| $body:expr,
        pending: $pending:expr, unavailable: $unavailable:expr $(,)?
    ) => {
        $(#[$doc])*
        $vis mod $module {
            use super::*;

            static CHUNK: $crate::browser::Chunk = $crate::browser::Chunk::new($pending, $unavailable);

            #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible, preload(load_chunk))]
            fn split_view($arg: $value) -> Result<::leptos::prelude::AnyView, ::leptos::wasm_split::SplitLoaderError> {
                Ok($body)
            }

            pub(crate) async fn load() -> bool {
                CHUNK.load(load_chunk()).await
            }

            pub(crate) fn view_when_loaded($arg: $value) -> ::leptos::prelude::AnyView {
                CHUNK.view_when_loaded($arg, split_view, load)
            }
        }
    };
}
pub(crate) use lazy_view;

/// Declares a lazy route: `$page`'s code goes into the wasm chunk `$chunk`, which the router
/// fetches while it prepares the route, as Leptos's own `#[lazy_route]` does. That one panics
/// when a chunk cannot be fetched (a dropped connection, or a page left open across a deploy),
/// which stops the whole app; these routes recover instead (`unloaded_page`).
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
                    match page().await {
                        Ok(view) => view,
                        Err(_) => $crate::browser::unloaded_page().await,
                    }
                }

                async fn preload() {
                    // A failure shows when `view` calls the page.
                    let _ = preload_page().await;
                }
            }

            #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible, preload(preload_page))]
            fn page() -> Result<AnyView, ::leptos::wasm_split::SplitLoaderError> {
                Ok(view! { <$page /> }.into_any())
            }
        }
    };
}
pub(crate) use lazy_page;

/// A lazy page whose chunk could not be fetched after a link was followed: the browser loads
/// the page in full, which fetches the current code from the server; meanwhile the route never
/// resolves, so the router keeps the page it shows. (While the first page is being hydrated,
/// the router cannot wait for a chunk that failed: that page stays as the server rendered it.)
pub async fn unloaded_page() -> AnyView {
    if super::hydration::hydrated() {
        let _ = window().location().assign(&routed_url());
    }
    std::future::pending().await
}

/// The URL the router is going to (the address bar still shows the page it leaves).
fn routed_url() -> String {
    let url = leptos_router::hooks::use_url().get_untracked();
    let mut target = url.path().to_string();
    for (mark, part) in [('?', url.search()), ('#', url.hash())] {
        let part = part.trim_start_matches(mark);
        if !part.is_empty() {
            target.push(mark);
            target.push_str(part);
        }
    }
    target
}
