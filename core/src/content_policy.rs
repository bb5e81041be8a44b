//! The Content-Security-Policy every response carries. Scripts and wasm come only from the
//! app itself; the one inline script a page may run is one carrying the page's nonce (the
//! hydration script Leptos writes, the theme script); nothing may frame a page (a decoy page
//! cannot overlay an Approve button). Styles may be inline: Leptos sets `style` attributes
//! and html blocks carry them. Images come only from the app, `data:` URLs and, over https
//! on any port, the image hosts a document's check allows: an image a model wrote elsewhere is
//! never fetched, whatever draws it. The html block frame adds its own stricter policy. Frames
//! come from the app itself and from the MCP Apps sandbox's origin, when apps are drawn.

use crate::conversation::is_host_name;

/// The policy for a response; a page passes the nonce its inline scripts carry. `image_hosts`
/// are this server's (`PALAVER_IMAGE_HOSTS`); anything in it that is not a host name is left out.
/// `apps_origins`: the MCP Apps sandbox's (a pattern with `*`), checked when the settings were read.
pub fn content_security_policy(nonce: Option<&str>, image_hosts: &[String], apps_origins: Option<&str>) -> String {
    let apps = apps_origins.map(|origin| format!(" {origin}")).unwrap_or_default();
    let page_script = nonce.map(|nonce| format!(" 'nonce-{nonce}'")).unwrap_or_default();
    let image_hosts: String =
        image_hosts.iter().filter(|host| is_host_name(host)).map(|host| format!(" https://{host}:*")).collect();
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{page_script}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:{image_hosts}; connect-src 'self'; font-src 'self' data:; object-src 'none'; \
         base-uri 'none'; form-action 'self'; frame-src 'self'{apps}; frame-ancestors 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directive<'a>(policy: &'a str, name: &str) -> &'a str {
        policy.split("; ").find(|directive| directive.starts_with(&format!("{name} "))).unwrap()
    }

    #[test]
    fn only_the_nonce_allows_an_inline_script() {
        let page = content_security_policy(Some("abc"), &[], None);
        assert!(page.contains("script-src 'self' 'wasm-unsafe-eval' 'nonce-abc';"), "{page}");
        let scripts = directive(&page, "script-src");
        assert!(!scripts.contains("'unsafe-inline'") && !scripts.contains("'unsafe-eval'"), "{scripts}");
        let other = content_security_policy(None, &[], None);
        assert!(other.contains("script-src 'self' 'wasm-unsafe-eval';") && other.contains("frame-ancestors 'none'"));
    }

    #[test]
    fn images_load_only_from_the_app_data_urls_and_the_image_hosts() {
        assert_eq!(directive(&content_security_policy(None, &[], None), "img-src"), "img-src 'self' data:");
        let hosts = ["images.example.com".to_string(), "127.0.0.1".to_string()];
        assert_eq!(
            directive(&content_security_policy(Some("abc"), &hosts, None), "img-src"),
            "img-src 'self' data: https://images.example.com:* https://127.0.0.1:*"
        );
        // A host that could change the policy is never written into it.
        let hostile = ["evil.test; script-src *".to_string(), "images.example.com".to_string()];
        let policy = content_security_policy(None, &hostile, None);
        assert_eq!(directive(&policy, "img-src"), "img-src 'self' data: https://images.example.com:*");
        assert!(!policy.contains("evil.test"), "{policy}");
    }

    #[test]
    fn pages_frame_only_the_app_and_the_apps_sandbox() {
        assert_eq!(directive(&content_security_policy(None, &[], None), "frame-src"), "frame-src 'self'");
        let with_apps = content_security_policy(Some("abc"), &[], Some("http://127.0.0.1:3001"));
        assert_eq!(directive(&with_apps, "frame-src"), "frame-src 'self' http://127.0.0.1:3001");
    }
}
