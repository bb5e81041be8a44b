//! The theme toggle: follow the OS, or pin light or dark (kept in localStorage).

use leptos::prelude::*;

/// Where the choice is kept (the same key as in `THEME_SCRIPT`).
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

fn apply(theme: &str) {
    crate::browser::set_root_attribute("data-theme", Some(theme).filter(|theme| *theme != "auto"));
    crate::browser::store(STORAGE_KEY, theme);
}

#[component]
pub fn ThemeToggle() -> impl IntoView {
    let theme = RwSignal::new("auto");
    // Effects run only in the browser.
    Effect::new(move |_| {
        let saved = crate::browser::stored(STORAGE_KEY);
        if let Some(saved) = saved.and_then(|saved| THEMES.into_iter().find(|theme| *theme == saved)) {
            theme.set(saved);
        }
    });
    let next = move |_| {
        let index = THEMES.iter().position(|candidate| *candidate == theme.get_untracked()).unwrap_or(0);
        let chosen = THEMES[(index + 1) % THEMES.len()];
        theme.set(chosen);
        apply(chosen);
    };
    view! {
        <button type="button" class="theme-toggle" data-testid="theme-toggle" on:click=next>
            {move || label(theme.get())}
        </button>
    }
}
