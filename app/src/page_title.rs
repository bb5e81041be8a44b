//! The tab's title: how many asks wait, and the name of the conversation shown
//! ("(1) Send the report – Palaver"), each part kept by whoever knows it.

use leptos::prelude::*;

/// What the tab's title is made of: the inbox keeps `waiting`, the chat page `name`.
#[derive(Clone, Copy)]
pub struct PageTitle {
    pub waiting: RwSignal<usize>,
    pub name: RwSignal<Option<String>>,
}

impl PageTitle {
    /// Provides the parts, and keeps the tab's title made of them.
    pub fn provide() {
        let title = PageTitle { waiting: RwSignal::new(0), name: RwSignal::new(None) };
        provide_context(title);
        Effect::new(move |_| crate::browser::set_title(&tab_title(title.waiting.get(), title.name.get().as_deref())));
    }

    /// The parts, where `provide` was called (a page outside the app has none).
    pub fn get() -> Option<PageTitle> {
        use_context()
    }
}

fn tab_title(waiting: usize, name: Option<&str>) -> String {
    let count = if waiting == 0 { String::new() } else { format!("({waiting}) ") };
    match name {
        Some(name) => format!("{count}{name} – Palaver"),
        None => format!("{count}Palaver"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_names_what_waits_and_the_conversation() {
        assert_eq!(tab_title(0, None), "Palaver");
        assert_eq!(tab_title(2, None), "(2) Palaver");
        assert_eq!(tab_title(1, Some("Send the report")), "(1) Send the report – Palaver");
        assert_eq!(tab_title(0, Some("Send the report")), "Send the report – Palaver");
    }
}
