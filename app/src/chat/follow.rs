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
    /// Where the box was scrolled to at the last scroll event.
    last_top: StoredValue<i32>,
    /// New content arrived while the reader was up the page.
    behind: RwSignal<bool>,
}

/// Follows `element` whenever what `changes` reads changes.
pub(super) fn use_follow_newest(element: NodeRef<Section>, changes: impl Fn() + 'static) -> Follow {
    let follow =
        Follow { element, pinned: StoredValue::new(true), last_top: StoredValue::new(0), behind: RwSignal::new(false) };
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

    /// The box scrolled: at the end again, the transcript follows anew; up the page, the reader
    /// left the end. A scroll that did not go up leaves following as it was: the page's own
    /// scroll to the end is reported after the browser lays out what came next, so content
    /// that grew meanwhile must not read as the reader leaving.
    pub(super) fn scrolled(self) {
        let Some(element) = self.element.get_untracked() else { return };
        let top = crate::browser::scroll_top(&element);
        let went_up = top < self.last_top.get_value();
        self.last_top.set_value(top);
        if crate::browser::shows_end(&element) {
            self.pinned.set_value(true);
            self.behind.set(false);
        } else if went_up {
            self.pinned.set_value(false);
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
