//! The theme toggle: follow the OS, or pin light or dark (kept in localStorage).

use leptos::prelude::*;

/// Where the choice is kept (the same key as in `THEME_SCRIPT`).
#[cfg(feature = "hydrate")]
const STORAGE_KEY: &str = "palaver-theme";
const THEMES: [&str; 3] = ["auto", "light", "dark"];

/// Sets the saved theme before the page paints, so a pinned theme never flashes.
pub const THEME_SCRIPT: &str = "try{var t=localStorage.getItem('palaver-theme');\
if(t==='light'||t==='dark')document.documentElement.dataset.theme=t;}catch(e){}";

fn label(theme: &str) -> &'static str {
    match theme {
        "light" => "Theme: light",
        "dark" => "Theme: dark",
        _ => "Theme: auto",
    }
}

#[cfg(feature = "hydrate")]
fn apply(theme: &str) {
    let Some(window) = web_sys::window() else { return };
    if let Some(root) = window.document().and_then(|document| document.document_element()) {
        let _ =
            if theme == "auto" { root.remove_attribute("data-theme") } else { root.set_attribute("data-theme", theme) };
    }
    if let Ok(Some(storage)) = window.local_storage() {
        let _ = storage.set_item(STORAGE_KEY, theme);
    }
}

#[component]
pub fn ThemeToggle() -> impl IntoView {
    let theme = RwSignal::new("auto");
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let saved = web_sys::window()
            .and_then(|window| window.local_storage().ok().flatten())
            .and_then(|storage| storage.get_item(STORAGE_KEY).ok().flatten());
        if let Some(saved) = saved.and_then(|saved| THEMES.into_iter().find(|theme| *theme == saved)) {
            theme.set(saved);
        }
    });
    let next = move |_| {
        let index = THEMES.iter().position(|candidate| *candidate == theme.get_untracked()).unwrap_or(0);
        let chosen = THEMES[(index + 1) % THEMES.len()];
        theme.set(chosen);
        #[cfg(feature = "hydrate")]
        apply(chosen);
    };
    view! {
        <button type="button" class="theme-toggle" data-testid="theme-toggle" on:click=next>
            {move || label(theme.get())}
        </button>
    }
}
