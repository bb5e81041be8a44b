//! The hosts https images in replies may load from (`PALAVER_IMAGE_HOSTS`), as a page knows
//! them: the app provides them (on the server from its settings, in the browser from the
//! `<body>` attribute the server wrote), so a document still streaming draws only the images
//! its check will allow.

use leptos::prelude::use_context;

/// The `<body>` attribute listing the image hosts, space-separated.
pub const IMAGE_HOSTS_ATTRIBUTE: &str = "data-image-hosts";

/// This server's image hosts (none when replies are not documents).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImageHostsContext(pub Vec<String>);

impl ImageHostsContext {
    /// The value of the page's [`IMAGE_HOSTS_ATTRIBUTE`]; `None` when no host is allowed.
    pub fn attribute(&self) -> Option<String> {
        (!self.0.is_empty()).then(|| self.0.join(" "))
    }

    /// The hosts an [`IMAGE_HOSTS_ATTRIBUTE`] lists.
    pub fn from_attribute(value: &str) -> Self {
        ImageHostsContext(value.split_whitespace().map(str::to_string).collect())
    }
}

/// The page's image hosts; none when the app provided none.
pub(super) fn page_image_hosts() -> Vec<String> {
    use_context::<ImageHostsContext>().map(|hosts| hosts.0).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hosts_travel_in_the_page_attribute() {
        let hosts = ImageHostsContext(vec!["images.example.com".into(), "127.0.0.1".into()]);
        assert_eq!(hosts.attribute().as_deref(), Some("images.example.com 127.0.0.1"));
        assert_eq!(ImageHostsContext::from_attribute(&hosts.attribute().unwrap()), hosts);
        assert_eq!(ImageHostsContext::default().attribute(), None);
    }
}
