//! Display blocks: the reply documents agents can answer with. So far: the HTML block's
//! sanitizer (server side) and the sandboxed frame it is shown in.

mod frame;
#[cfg(feature = "ssr")]
mod sanitize;

pub use frame::{HTML_FRAME_CSP, HtmlHeight, frame_srcdoc};
#[cfg(feature = "ssr")]
pub use sanitize::sanitize_html_fragment;
