//! Following a path of this site in the browser: the contract's rule, then the browser's own
//! URL parser, where a click or a redirect is carried out.

use palaver_contract::site_path::is_site_path;

/// Whether following `path` keeps the browser on this site: the contract's rule, and then, in
/// the browser, its own URL parser.
pub fn stays_on_this_site(path: &str) -> bool {
    is_site_path(path) && resolves_to_this_origin(path)
}

#[cfg(feature = "hydrate")]
fn resolves_to_this_origin(path: &str) -> bool {
    let Some(origin) = web_sys::window().and_then(|window| window.location().origin().ok()) else { return false };
    web_sys::Url::new_with_base(path, &origin).is_ok_and(|url| url.origin() == origin)
}

/// On the server the rule alone decides: what it accepts resolves to the same origin (the
/// contract's proptest checks that against a WHATWG parser).
#[cfg(not(feature = "hydrate"))]
fn resolves_to_this_origin(_path: &str) -> bool {
    true
}
