//! Following a path of this site in the browser: the contract's rule, then the browser's own
//! URL parser, where a click or a redirect is carried out.

use crate::browser::resolves_to_this_origin;
use palaver_contract::site_path::is_site_path;

/// Whether following `path` keeps the browser on this site: the contract's rule, and then, in
/// the browser, its own URL parser.
pub fn stays_on_this_site(path: &str) -> bool {
    is_site_path(path) && resolves_to_this_origin(path)
}
