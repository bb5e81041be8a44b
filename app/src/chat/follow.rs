//! The transcript follows its newest message: while the reader is at the end, new content
//! (a streaming reply, a new ask card) scrolls into view; once they scroll up to read, it
//! stays put and a "new messages" pill offers the way back down.

use leptos::html::Section;
use leptos::prelude::*;

/// How a scrolled transcript keeps up with new content.
#[derive(Clone, Copy)]
pub(super) struct Follow {
    element: NodeRef<Section>,
    /// The reader is at the end: new content scrolls into view.
    pinned: StoredValue<bool>,
    /// New content arrived while the reader was up the page.
    behind: RwSignal<bool>,
}

/// Follows `element` whenever what `changes` reads changes.
pub(super) fn use_follow_newest(element: NodeRef<Section>, changes: impl Fn() + 'static) -> Follow {
    let follow = Follow { element, pinned: StoredValue::new(true), behind: RwSignal::new(false) };
    Effect::new(move |_| {
        changes();
        // After the browser has laid out the new content.
        request_animation_frame(move || follow.after_change());
    });
    follow
}

impl Follow {
    fn after_change(self) {
        let Some(element) = self.element.get_untracked() else { return };
        if self.pinned.get_value() {
            crate::browser::scroll_to_newest(&element);
        } else {
            self.behind.set(true);
        }
    }

    /// The reader scrolled: at the end again, the transcript follows anew.
    pub(super) fn scrolled(self) {
        let Some(element) = self.element.get_untracked() else { return };
        let at_end = crate::browser::shows_end(&element);
        self.pinned.set_value(at_end);
        if at_end {
            self.behind.set(false);
        }
    }

    /// Whether the "new messages" pill shows.
    pub(super) fn shown(self) -> bool {
        self.behind.get()
    }

    /// The pill's action: down to the newest, following again.
    pub(super) fn catch_up(self) {
        self.follow_again();
        if let Some(element) = self.element.get_untracked() {
            crate::browser::scroll_to_newest(&element);
        }
    }

    /// Follows the newest again from the next change on (the reader sent a message).
    pub(super) fn follow_again(self) {
        self.pinned.set_value(true);
        self.behind.set(false);
    }
}
