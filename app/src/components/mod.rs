//! Widgets shared across pages.

mod blocks;
mod call_arguments;
mod chart;
mod error_alert;
mod icons;
mod local_time;
mod palaver_strip;
mod simple_card;
mod text_area;
mod theme;
mod visible_text;

pub(crate) use blocks::renderer as block_renderer;
pub use blocks::{
    BlockActionsContext, BlocksDocumentView, BlocksReply, IMAGE_HOSTS_ATTRIBUTE, ImageHostsContext, StreamingBlocks,
};
pub use call_arguments::{CallArguments, GuardedCallView};
pub use error_alert::{ErrorLine, error_alert, error_paragraph};
pub use icons::{Icon, IconView};
pub use local_time::LocalTime;
pub use palaver_strip::{PalaverStrip, approval_lines, impact_lines, palaver_line, tool_line};
pub use simple_card::{SimpleCardView, button_label, handoff_line};
pub use text_area::textarea_text;
pub use theme::{THEME_SCRIPT, ThemeToggle};
pub use visible_text::VisibleText;
