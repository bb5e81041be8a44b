//! The origins users reach Palaver at (`PALAVER_PUBLIC_URL`). State-changing requests are
//! accepted only when they name one of these as their host and (when they say) their origin,
//! so a page served under another name that resolves to this server (DNS rebinding) can
//! neither sign up the first admin nor act for a signed-in user.

use std::net::{IpAddr, SocketAddr};

use url::Url;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicOrigins {
    /// `scheme://host[:port]`, as browsers send `Origin`: lower case, no default port.
    origins: Vec<String>,
}

impl PublicOrigins {
    /// `PALAVER_PUBLIC_URL`: one origin, or several separated by commas.
    pub fn parse(list: &str) -> Result<Self, String> {
        let mut origins = Vec::new();
        for item in list.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let not_an_origin = || {
                format!(
                    "PALAVER_PUBLIC_URL lists \"{item}\", which is not an origin: write it as https://chat.example.com \
                     (http or https, a host, an optional port, nothing after)."
                )
            };
            let url = Url::parse(item).map_err(|_not_a_url| not_an_origin())?;
            let plain = matches!(url.scheme(), "http" | "https")
                && url.host().is_some()
                && url.username().is_empty()
                && url.password().is_none()
                && url.path() == "/"
                && url.query().is_none()
                && url.fragment().is_none();
            if !plain {
                return Err(not_an_origin());
            }
            origins.push(url.origin().ascii_serialization());
        }
        if origins.is_empty() {
            return Err("PALAVER_PUBLIC_URL is empty: name the origin users reach Palaver at, such as https://chat.example.com.".into());
        }
        Ok(Self { origins })
    }

    /// Without `PALAVER_PUBLIC_URL`: http on the listen port, at `localhost`, `127.0.0.1`,
    /// `[::1]` and the listen address itself (unless it is every address).
    pub fn local(listen: SocketAddr) -> Self {
        let mut hosts = vec!["localhost".to_string(), "127.0.0.1".to_string(), "[::1]".to_string()];
        let own = match listen.ip() {
            IpAddr::V4(ip) => ip.to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
        };
        if !listen.ip().is_unspecified() && !hosts.contains(&own) {
            hosts.push(own);
        }
        let origins = hosts
            .iter()
            .filter_map(|host| Url::parse(&format!("http://{host}:{}", listen.port())).ok())
            .map(|url| url.origin().ascii_serialization())
            .collect();
        Self { origins }
    }

    /// Whether an `Origin` (or the origin of a `Referer`) is one of these.
    pub fn allows_origin(&self, origin_or_referer: &str) -> bool {
        Url::parse(origin_or_referer).is_ok_and(|url| self.contains(&url.origin().ascii_serialization()))
    }

    /// Whether a `Host` header names one of these: the origin's own `host[:port]` in any case,
    /// or with the scheme's default port spelled out. Compared as text, so no other spelling
    /// (`127.1`, percent-escapes, a dropped tab, a trailing dot) matches.
    pub fn allows_host(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.origins.iter().any(|origin| {
            let (scheme, authority) = origin.split_once("://").unwrap_or(("http", origin));
            let default_port = if scheme == "https" { ":443" } else { ":80" };
            host == authority || host.strip_suffix(default_port) == Some(authority)
        })
    }

    /// Whether users reach Palaver over https (then browsers are told to keep to it).
    pub fn uses_https(&self) -> bool {
        self.origins.iter().any(|origin| origin.starts_with("https://"))
    }

    /// The origins, for messages.
    pub fn listed(&self) -> String {
        self.origins.join(", ")
    }

    fn contains(&self, origin: &str) -> bool {
        self.origins.iter().any(|known| known == origin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_origins_follow_the_listen_port() {
        let local = PublicOrigins::local("0.0.0.0:3000".parse().unwrap());
        assert_eq!(local.listed(), "http://localhost:3000, http://127.0.0.1:3000, http://[::1]:3000");
        let own = PublicOrigins::local("192.0.2.7:80".parse().unwrap());
        assert!(own.allows_host("192.0.2.7") && own.allows_host("192.0.2.7:80") && own.allows_host("LOCALHOST"));
        assert!(own.allows_origin("http://192.0.2.7"));
        assert!(!own.allows_host("evil.example") && !own.allows_host("localhost:81"));
    }

    #[test]
    fn a_public_url_is_the_only_origin() {
        let public = PublicOrigins::parse("https://Chat.Example.com/, http://10.0.0.2:8080").unwrap();
        assert_eq!(public.listed(), "https://chat.example.com, http://10.0.0.2:8080");
        assert!(public.allows_host("chat.example.com") && public.allows_host("chat.example.com:443"));
        assert!(
            public.allows_origin("https://chat.example.com")
                && public.allows_origin("https://chat.example.com/settings")
        );
        assert!(!public.allows_origin("http://chat.example.com") && !public.allows_origin("null"));
        assert!(!public.allows_host("localhost:3000") && !public.allows_host("evil.example"));
        assert!(!public.allows_host("chat.example.com@evil.example") && !public.allows_host(""));
        let local = PublicOrigins::local("127.0.0.1:3000".parse().unwrap());
        for spelling in ["127.1:3000", "%6cocalhost:3000", "local\thost:3000", "localhost.:3000/"] {
            assert!(!local.allows_host(spelling), "{spelling}");
        }
        assert!(public.uses_https() && !PublicOrigins::local("127.0.0.1:3000".parse().unwrap()).uses_https());
    }

    #[test]
    fn what_is_not_an_origin_is_refused() {
        for bad in [
            "",
            " , ",
            "chat.example.com",
            "ftp://chat.example.com",
            "https://chat.example.com/app",
            "https://u:p@chat.example.com",
            "https://chat.example.com/?a=1",
        ] {
            let err = PublicOrigins::parse(bad).unwrap_err();
            assert!(err.starts_with("PALAVER_PUBLIC_URL"), "{bad}: {err}");
        }
    }
}
