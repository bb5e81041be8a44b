//! The chat page's keyboard shortcuts and the sheet that lists them (`?`, or the chat bar's
//! button). One table says which keys do what: the key handler and the sheet both read it, so
//! the sheet cannot show a key that does something else.
//!
//! A key with ⌘ (Ctrl off Apple keyboards) works in text fields too, as in other chat apps; a
//! plain key (`?`, `/`) only outside them, where it types nothing. No key fires during an IME
//! composition, on a key a field or card already handled (the composer's Enter and Escape), or
//! while the sheet is open. The keys leave alone what browsers, systems and screen readers
//! bind: Shift+Escape (Chrome's task manager), Ctrl+letter on a Mac (text editing), AltGr.

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys::{HtmlElement, KeyboardEvent};

use super::COMPOSER;

/// The search field of the conversation list.
const SEARCH: &str = ".conversations__search";
/// The pending question's main button: the shortcut clicks it, so the card's own checks apply.
/// The model's own questions only: an approval, an argument form or a server's question (a card
/// with Palaver's strip) is answered with the eyes on it.
const CARD_PRIMARY: &str = "[data-testid=\"ask-card\"]:not(:has(.palaver-strip)) .ask-button--primary";
/// The conversations' links in the list, and the one shown.
const CONVERSATION_LINKS: &str = ".conversations__item";
const SHOWN_CONVERSATION: &str = "[aria-current=\"page\"]";

/// What a shortcut does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    ShowShortcuts,
    NewChat,
    FocusComposer,
    SearchConversations,
    StopReply,
    AnswerQuestion,
    NextConversation,
    PreviousConversation,
}

/// The modifiers a key is pressed with. "Command" is ⌘ on an Apple keyboard and Ctrl elsewhere
/// (on a Mac, Ctrl with a letter edits text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Modifiers {
    /// None: only outside text fields, where the key would type.
    Plain,
    Command,
    CommandShift,
    /// Alt (⌥): only outside text fields and selects (where Alt+↓ opens the list).
    Alt,
}

/// One key with its modifiers.
#[derive(Clone, Copy, Debug)]
struct Chord {
    modifiers: Modifiers,
    /// The key as `KeyboardEvent.key` names it (a letter matches in either case).
    key: &'static str,
}

struct Shortcut {
    action: Action,
    /// What it does, as the sheet says it.
    does: &'static str,
    chords: &'static [Chord],
}

const fn chord(modifiers: Modifiers, key: &'static str) -> Chord {
    Chord { modifiers, key }
}

/// Every shortcut, in the order the sheet lists them.
const SHORTCUTS: &[Shortcut] = &[
    Shortcut {
        action: Action::ShowShortcuts,
        does: "Show keyboard shortcuts",
        chords: &[chord(Modifiers::Plain, "?"), chord(Modifiers::Command, "/")],
    },
    Shortcut { action: Action::NewChat, does: "Start a new chat", chords: &[chord(Modifiers::CommandShift, "O")] },
    Shortcut {
        action: Action::FocusComposer,
        does: "Go to the message box",
        chords: &[chord(Modifiers::CommandShift, "E")],
    },
    Shortcut {
        action: Action::SearchConversations,
        does: "Search conversations",
        chords: &[chord(Modifiers::Command, "K"), chord(Modifiers::Plain, "/")],
    },
    Shortcut { action: Action::StopReply, does: "Stop the reply", chords: &[chord(Modifiers::CommandShift, "X")] },
    Shortcut {
        action: Action::AnswerQuestion,
        does: "Answer the waiting question with its main button",
        chords: &[chord(Modifiers::CommandShift, "Enter")],
    },
    Shortcut {
        action: Action::NextConversation,
        does: "Open the next conversation in the list",
        chords: &[chord(Modifiers::Alt, "ArrowDown")],
    },
    Shortcut {
        action: Action::PreviousConversation,
        does: "Open the previous conversation in the list",
        chords: &[chord(Modifiers::Alt, "ArrowUp")],
    },
];

/// Where the focus was when a key went down.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A field that takes typing: an input, a text area, an editable element.
    TextField,
    Select,
    Elsewhere,
}

impl Target {
    fn of(event: &KeyboardEvent) -> Self {
        let element = event.target().and_then(|target| target.dyn_into::<HtmlElement>().ok());
        match element {
            Some(element) if element.tag_name() == "SELECT" => Target::Select,
            Some(element)
                if matches!(element.tag_name().as_str(), "INPUT" | "TEXTAREA") || element.is_content_editable() =>
            {
                Target::TextField
            }
            _ => Target::Elsewhere,
        }
    }
}

impl Chord {
    fn matches(self, event: &KeyboardEvent, apple: bool, target: Target) -> bool {
        let (command, other) =
            if apple { (event.meta_key(), event.ctrl_key()) } else { (event.ctrl_key(), event.meta_key()) };
        let (wants_command, wants_shift, wants_alt) = match self.modifiers {
            Modifiers::Plain => (false, false, false),
            Modifiers::Command => (true, false, false),
            Modifiers::CommandShift => (true, true, false),
            Modifiers::Alt => (false, false, true),
        };
        // Which symbols take Shift depends on the layout (`?` is Shift+/ on a US keyboard).
        let symbol = self.key.chars().count() == 1 && !self.key.chars().all(char::is_alphanumeric);
        let fires_here = match self.modifiers {
            Modifiers::Plain => target == Target::Elsewhere,
            // Not while typing: Alt+↑/↓ moves the caret by paragraph on a Mac, and what was typed
            // would go with the person to another conversation.
            Modifiers::Alt => target == Target::Elsewhere,
            Modifiers::Command | Modifiers::CommandShift => true,
        };
        fires_here
            && command == wants_command
            && !other
            && event.alt_key() == wants_alt
            && (symbol || event.shift_key() == wants_shift)
            && self.names(event)
    }

    /// Whether the event's key is this one: by the character the layout gives, or, for a letter
    /// on a layout that gives another script, by the key in its place on a US keyboard.
    fn names(self, event: &KeyboardEvent) -> bool {
        let key = event.key();
        let letter = self.key.len() == 1 && self.key.chars().all(|c| c.is_ascii_alphabetic());
        key.eq_ignore_ascii_case(self.key)
            || (letter && !key.is_ascii() && event.code() == format!("Key{}", self.key.to_ascii_uppercase()))
    }

    /// How the sheet writes the keys, in the keyboard's own words.
    fn shown(self, apple: bool) -> Vec<&'static str> {
        let (command, shift, alt) = if apple { ("⌘", "⇧", "⌥") } else { ("Ctrl", "Shift", "Alt") };
        let mut keys = match self.modifiers {
            Modifiers::Plain => vec![],
            Modifiers::Command => vec![command],
            Modifiers::CommandShift => vec![command, shift],
            Modifiers::Alt => vec![alt],
        };
        keys.push(match self.key {
            "ArrowDown" => "↓",
            "ArrowUp" => "↑",
            "Enter" if apple => "Return",
            other => other,
        });
        keys
    }
}

/// The shortcut a key press asks for, if any.
fn action_for(event: &KeyboardEvent, apple: bool) -> Option<Action> {
    let target = Target::of(event);
    SHORTCUTS
        .iter()
        .find(|shortcut| shortcut.chords.iter().any(|chord| chord.matches(event, apple, target)))
        .map(|shortcut| shortcut.action)
}

/// Runs the shortcuts' actions while the chat page is shown.
fn use_shortcut_keys(
    sheet_open: RwSignal<bool>,
    show_sheet: impl Fn() + 'static,
    busy: RwSignal<bool>,
    on_stop: impl Fn() + 'static,
) {
    let navigate = leptos_router::hooks::use_navigate();
    let handle = window_event_listener(leptos::ev::keydown, move |event| {
        if event.is_composing() || event.default_prevented() || event.repeat() || sheet_open.get_untracked() {
            return;
        }
        let Some(action) = action_for(&event, crate::browser::apple_keyboard()) else { return };
        event.prevent_default();
        match action {
            Action::ShowShortcuts => show_sheet(),
            Action::NewChat => {
                navigate("/", Default::default());
                crate::browser::focus_first(COMPOSER);
            }
            Action::FocusComposer => _ = crate::browser::focus_first(COMPOSER),
            Action::SearchConversations => _ = crate::browser::focus_first(SEARCH),
            Action::StopReply => {
                if busy.get_untracked() {
                    on_stop();
                }
            }
            Action::AnswerQuestion => _ = crate::browser::click_if_enabled(CARD_PRIMARY),
            Action::NextConversation => _ = crate::browser::click_along(CONVERSATION_LINKS, SHOWN_CONVERSATION, true),
            Action::PreviousConversation => {
                _ = crate::browser::click_along(CONVERSATION_LINKS, SHOWN_CONVERSATION, false)
            }
        }
    });
    on_cleanup(move || handle.remove());
}

/// The chat bar's "Keyboard shortcuts" button, the sheet it opens (a modal dialog: Escape or
/// Close shuts it and the focus goes back where it was), and the keys themselves.
#[component]
pub(super) fn ShortcutsHelp(
    /// A reply is running (Stop applies).
    busy: RwSignal<bool>,
    on_stop: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let sheet = NodeRef::<leptos::html::Dialog>::new();
    let open = RwSignal::new(false);
    // The server writes Ctrl; an Apple keyboard's sheet says ⌘ once the page runs.
    let apple = RwSignal::new(false);
    Effect::new(move |_| apple.set(crate::browser::apple_keyboard()));
    let show = move || {
        if let Some(dialog) = sheet.get_untracked() {
            crate::browser::show_modal(&dialog);
            open.set(true);
        }
    };
    use_shortcut_keys(open, show, busy, on_stop);
    let rows = SHORTCUTS
        .iter()
        .map(|shortcut| {
            view! {
                <tr>
                    <th scope="row">{shortcut.does}</th>
                    <td>{move || chords_view(shortcut.chords, apple.get())}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <button
            type="button"
            class="shortcuts-open"
            aria-haspopup="dialog"
            aria-keyshortcuts="?"
            on:click=move |_| show()
        >
            "Keyboard shortcuts"
        </button>
        <dialog
            class="shortcuts"
            node_ref=sheet
            aria-labelledby="shortcuts-title"
            data-testid="shortcuts"
            on:close=move |_| open.set(false)
        >
            <h2 class="shortcuts__title" id="shortcuts-title">
                "Keyboard shortcuts"
            </h2>
            <table class="shortcuts__table">
                <tbody>{rows}</tbody>
            </table>
            <form class="shortcuts__actions" method="dialog">
                <button class="shortcuts__close">"Close"</button>
            </form>
        </dialog>
    }
}

/// A shortcut's keys: each chord as its keys (`Ctrl`+`K`), one chord or another.
fn chords_view(chords: &'static [Chord], apple: bool) -> impl IntoView {
    let joiner = if apple { "" } else { "+" };
    chords
        .iter()
        .enumerate()
        .map(|(index, chord)| {
            let keys = chord.shown(apple);
            let last = keys.len().saturating_sub(1);
            view! {
                {(index > 0).then_some(" or ")}
                <span class="shortcuts__chord">
                    {keys
                        .into_iter()
                        .enumerate()
                        .map(|(at, key)| {
                            view! {
                                <kbd>{key}</kbd>
                                {(at < last).then_some(joiner)}
                            }
                        })
                        .collect_view()}
                </span>
            }
        })
        .collect_view()
}
