//! The frame an HTML block is shown in: `<iframe sandbox="allow-same-origin" srcdoc=…>` (no
//! scripts) whose document starts with a Content-Security-Policy that allows no scripts, no
//! network and no forms. Its height is the most the frame takes; the page sizes it to its content.

/// The policy the frame's document carries first.
pub const HTML_FRAME_CSP: &str =
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:; form-action 'none'; base-uri 'none'";

/// The frame's fixed heights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HtmlHeight {
    Sm,
    #[default]
    Md,
    Lg,
}

impl HtmlHeight {
    /// A block's `height` (sm, md, lg); md when absent.
    pub fn parse(height: Option<&str>) -> Self {
        match height {
            Some("sm") => HtmlHeight::Sm,
            Some("lg") => HtmlHeight::Lg,
            _ => HtmlHeight::Md,
        }
    }

    pub fn pixels(self) -> u32 {
        match self {
            HtmlHeight::Sm => 240,
            HtmlHeight::Md => 400,
            HtmlHeight::Lg => 640,
        }
    }
}

/// The frame's `srcdoc`: the CSP meta tag first, then the (already sanitized) HTML.
pub fn frame_srcdoc(sanitized_html: &str) -> String {
    format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{HTML_FRAME_CSP}\">{sanitized_html}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_comes_first() {
        let doc = frame_srcdoc("<h1>Invoice</h1>");
        assert!(
            doc.starts_with(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:;"
            )
        );
        assert!(doc.ends_with("<h1>Invoice</h1>"));
        assert_eq!((HtmlHeight::Sm.pixels(), HtmlHeight::default().pixels(), HtmlHeight::Lg.pixels()), (240, 400, 640));
    }
}
