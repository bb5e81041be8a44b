//! Small icons drawn inline as SVG in the text's colour: emoji need an emoji font, which some
//! machines lack (they showed empty boxes). Each is decoration: its button names itself.

use leptos::prelude::*;

/// An icon's drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    Menu,
    Pencil,
    Trash,
    ThumbUp,
    ThumbDown,
}

impl Icon {
    /// The strokes, on a 24 × 24 grid.
    fn path(self) -> &'static str {
        match self {
            Icon::Menu => "M4 6h16M4 12h16M4 18h16",
            Icon::Pencil => "M4 20h4L19 9l-4-4L4 16zM13 7l4 4",
            Icon::Trash => "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6",
            // A thumb: the hand's back, then the raised thumb; down is the same turned over.
            Icon::ThumbUp | Icon::ThumbDown => {
                "M7 11v9H4v-9zM7 11l4-8c1.7 0 2.7 1.2 2.3 3L12.5 10H19a2 2 0 0 1 2 2.3l-1.3 6A2 2 0 0 1 17.7 20H7"
            }
        }
    }
}

/// `icon` at the text's size and colour, hidden from assistive technology.
#[component]
pub fn IconView(icon: Icon) -> impl IntoView {
    let turned = (icon == Icon::ThumbDown).then_some("rotate(180 12 12)");
    view! {
        <svg
            class="icon"
            viewBox="0 0 24 24"
            width="1.1em"
            height="1.1em"
            fill="none"
            stroke="currentColor"
            stroke-width="2"
            stroke-linecap="round"
            stroke-linejoin="round"
            aria-hidden="true"
            focusable="false"
        >
            <path d=icon.path() transform=turned />
        </svg>
    }
}
