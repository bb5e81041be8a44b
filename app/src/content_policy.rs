//! The Content-Security-Policy every response carries. Scripts and wasm come only from the
//! app itself; the one inline script a page may run is one carrying the page's nonce (the
//! hydration script Leptos writes, the theme script); nothing may frame a page (a decoy page
//! cannot overlay an Approve button). Styles may be inline: Leptos sets `style` attributes
//! and html blocks carry them. The html block frame adds its own stricter policy.

/// The policy for a response; a page passes the nonce its inline scripts carry.
pub fn content_security_policy(nonce: Option<&str>) -> String {
    let page_script = nonce.map(|nonce| format!(" 'nonce-{nonce}'")).unwrap_or_default();
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{page_script}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob: https:; connect-src 'self'; font-src 'self' data:; object-src 'none'; \
         base-uri 'none'; form-action 'self'; frame-src 'self'; frame-ancestors 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_nonce_allows_an_inline_script() {
        let page = content_security_policy(Some("abc"));
        assert!(page.contains("script-src 'self' 'wasm-unsafe-eval' 'nonce-abc';"), "{page}");
        let scripts = page.split("; ").find(|directive| directive.starts_with("script-src")).unwrap();
        assert!(!scripts.contains("'unsafe-inline'") && !scripts.contains("'unsafe-eval'"), "{scripts}");
        let other = content_security_policy(None);
        assert!(other.contains("script-src 'self' 'wasm-unsafe-eval';") && other.contains("frame-ancestors 'none'"));
    }
}
