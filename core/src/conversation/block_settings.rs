//! How this server takes block replies (`uiBlocks`): what the host allows, the prompt section
//! that asks the model for a document.

use palaver_contract::blocks::{
    BlockOptions, BlocksCheck, BlocksPromptOptions, SCALE_STEPPER, TOGGLE_CHECKLIST, blocks_prompt_section,
    check_blocks_text,
};

/// How this server takes block replies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BlocksSettings {
    /// The html block is allowed (sanitized, shown in a sandboxed frame).
    pub html: bool,
    /// Hosts https images may load from (host names, lowercase: [`parse_image_hosts`]).
    pub image_hosts: Vec<String>,
    /// An invalid document gets one repair call.
    pub repair: bool,
}

impl BlocksSettings {
    pub fn options(&self) -> BlockOptions {
        BlockOptions {
            allow_html: self.html,
            host_actions: Some(vec![SCALE_STEPPER.into(), TOGGLE_CHECKLIST.into()]),
            stepper_actions: Some(vec![SCALE_STEPPER.into()]),
            checklist_actions: Some(vec![TOGGLE_CHECKLIST.into()]),
            image_hosts: self.image_hosts.clone(),
            ..BlockOptions::default()
        }
    }

    pub fn prompt_section(&self) -> String {
        blocks_prompt_section(&BlocksPromptOptions {
            allow_html: self.html,
            host_actions: vec![SCALE_STEPPER.into(), TOGGLE_CHECKLIST.into()],
            image_hosts: self.image_hosts.clone(),
            rich_blocks: true,
            stepper_actions: vec![SCALE_STEPPER.into()],
            checklist_actions: vec![TOGGLE_CHECKLIST.into()],
        })
    }

    /// The check of a stored reply, with this server's options.
    pub fn check(&self, text: &str) -> BlocksCheck {
        check_blocks_text(text, &self.options())
    }

    /// Names what decides a reply's check: these settings' options and the release (the
    /// workspace's version, which the contract's checker shares, so a new checker checks again). A check kept with this fingerprint needs no remaking.
    pub fn fingerprint(&self) -> String {
        use sha2::{Digest, Sha256};
        let decided_by = format!(
            "release {}; html {}; image hosts {}",
            env!("CARGO_PKG_VERSION"),
            self.html,
            self.image_hosts.join(",")
        );
        Sha256::digest(decided_by.as_bytes()).iter().take(12).map(|byte| format!("{byte:02x}")).collect()
    }
}

/// The hosts `PALAVER_IMAGE_HOSTS` lists (comma-separated), lowercase, each once. A host may be
/// written as an https origin (`https://images.example.com:8443/`): like the document check, the
/// allowlist names hosts, and images load from them over https on any port.
pub fn parse_image_hosts(list: &str) -> Result<Vec<String>, String> {
    let mut hosts = Vec::new();
    for entry in list.split(',').map(str::trim).filter(|entry| !entry.is_empty()) {
        let host = listed_host(entry).ok_or_else(|| {
            format!(
                "PALAVER_IMAGE_HOSTS lists \"{entry}\", which is not a host: name one such as images.example.com \
                 (or https://images.example.com)."
            )
        })?;
        if !hosts.contains(&host) {
            hosts.push(host);
        }
    }
    Ok(hosts)
}

/// The host of `host`, `host:port` or `https://host[:port][/]`; `None` for another scheme, a path,
/// or anything a host name does not hold.
fn listed_host(entry: &str) -> Option<String> {
    let entry = entry.to_ascii_lowercase();
    let authority = entry.strip_prefix("https://").unwrap_or(&entry);
    let authority = authority.strip_suffix('/').unwrap_or(authority);
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.bytes().all(|byte| byte.is_ascii_digit()) => host,
        _ => authority,
    };
    is_host_name(host).then(|| host.to_string())
}

/// Whether `host` is a plain host name or IPv4 address (letters, digits, `-` and `.`), so it can
/// stand in a Content-Security-Policy as it is.
pub fn is_host_name(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 253
        && host.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'.')
        && !host.starts_with(['.', '-'])
        && !host.ends_with(['.', '-'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_hosts_are_read_with_or_without_scheme_and_port() {
        let listed = " Images.Example.com, https://cdn.example.org:8443/ ,127.0.0.1:9000,,images.example.com";
        assert_eq!(parse_image_hosts(listed).unwrap(), ["images.example.com", "cdn.example.org", "127.0.0.1"]);
        assert_eq!(parse_image_hosts("").unwrap(), Vec::<String>::new());
        for refused in [
            "http://images.example.com",
            "images.example.com/photos",
            "images.example.com; script-src *",
            "*.example.com",
            "[::1]",
            "https://",
            ".example.com",
        ] {
            let error = parse_image_hosts(refused).unwrap_err();
            assert!(error.contains(&format!("\"{refused}\"")) && error.contains("images.example.com"), "{error}");
        }
    }

    #[test]
    fn the_fingerprint_follows_what_decides_a_check() {
        let plain = BlocksSettings::default();
        let repairing = BlocksSettings { repair: true, ..BlocksSettings::default() };
        let with_html = BlocksSettings { html: true, ..BlocksSettings::default() };
        let with_images =
            BlocksSettings { image_hosts: vec!["images.example.com".into()], ..BlocksSettings::default() };
        assert_eq!(plain.fingerprint(), repairing.fingerprint(), "a repair does not change a stored reply's check");
        assert_ne!(plain.fingerprint(), with_html.fingerprint());
        assert_ne!(plain.fingerprint(), with_images.fingerprint());
        assert_eq!(plain.fingerprint().len(), 24);
    }

    #[test]
    fn the_built_in_actions_are_offered() {
        let section = BlocksSettings::default().prompt_section();
        assert!(section.contains("stepper requires") && section.contains("toggleChecklist"));
        assert!(section.contains("Do not emit type html"));
    }
}
