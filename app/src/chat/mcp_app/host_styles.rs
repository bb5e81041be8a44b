//! Palaver's look as an app is told it (`hostContext.styles.variables`, the extension's
//! standard names): each taken from the page's own custom property as the browser computes it
//! for the page's theme now, so an app that applies them matches the chat; a theme switch sends
//! them again.

use serde_json::{Map, Value};

/// The extension's name of each variable Palaver sends, and the page's property it is read from.
pub const STYLE_VARIABLES: &[(&str, &str)] = &[
    ("--color-background-primary", "--surface"),
    ("--color-background-secondary", "--bg"),
    ("--color-background-tertiary", "--surface-2"),
    ("--color-background-inverse", "--text"),
    ("--color-background-info", "--user-bubble"),
    ("--color-text-primary", "--text"),
    ("--color-text-secondary", "--text-muted"),
    ("--color-text-tertiary", "--text-muted"),
    ("--color-text-inverse", "--surface"),
    ("--color-text-info", "--accent"),
    ("--color-text-danger", "--danger"),
    ("--color-border-primary", "--border"),
    ("--color-border-secondary", "--border"),
    ("--color-border-info", "--accent"),
    ("--color-border-danger", "--danger"),
    ("--color-ring-primary", "--accent"),
    ("--font-sans", "--font"),
    ("--font-mono", "--mono"),
    ("--font-text-xs-size", "--text-xs"),
    ("--font-text-sm-size", "--text-sm"),
    ("--font-text-md-size", "--text-base"),
    ("--font-text-lg-size", "--text-lg"),
    ("--font-heading-sm-size", "--text-lg"),
    ("--font-heading-md-size", "--text-xl"),
    ("--font-heading-lg-size", "--text-2xl"),
    ("--font-heading-xl-size", "--text-3xl"),
    ("--border-radius-sm", "--radius-sm"),
    ("--border-radius-md", "--radius"),
    ("--border-radius-full", "--radius-pill"),
    ("--shadow-md", "--shadow-raised"),
];

/// `hostContext.styles`: the variables the page has values for.
pub fn host_styles() -> Value {
    let variables: Map<String, Value> = crate::browser::css_variables(STYLE_VARIABLES);
    serde_json::json!({ "variables": variables })
}
