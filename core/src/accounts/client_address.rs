//! Who the client is, for rate limits and the connection cap: the peer's address, or, when the
//! peer is a proxy `PALAVER_TRUSTED_PROXIES` names, the nearest address in `X-Forwarded-For`
//! that is not one of them. An `X-Forwarded-For` from anyone else is ignored: it is the
//! client's to write.

use std::net::IpAddr;

use http::HeaderMap;
use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// `10.0.0.0/8, 192.168.1.5, ::1`: addresses and ranges, comma-separated; empty for none.
    pub fn parse(list: &str) -> Result<Self, String> {
        let entries = list.split(',').map(str::trim).filter(|entry| !entry.is_empty());
        let parsed = entries.map(|entry| {
            entry.parse::<IpNet>().or_else(|_| entry.parse::<IpAddr>().map(IpNet::from)).map_err(|_neither| {
                format!(
                    "PALAVER_TRUSTED_PROXIES lists \"{entry}\", which is neither an address nor a range (10.0.0.0/8)."
                )
            })
        });
        Ok(Self(parsed.collect::<Result<_, _>>()?))
    }

    pub fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.0.iter().any(|proxy| proxy.contains(&address))
    }

    /// The client of a request that came from `peer` with these headers.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let forwarded = headers.get_all("x-forwarded-for").iter().filter_map(|value| value.to_str().ok());
        let hops: Vec<&str> = forwarded.flat_map(|value| value.split(',')).map(str::trim).collect();
        // From the nearest hop outward: each trusted proxy vouches for the one before it.
        let mut client = peer;
        for hop in hops.iter().rev() {
            let Ok(address) = hop.parse::<IpAddr>() else { break };
            client = address;
            if !self.trusts(address) {
                break;
            }
        }
        client
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", value.parse().unwrap());
        }
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn only_a_trusted_proxy_says_who_the_client_is() {
        let proxies = TrustedProxies::parse("10.0.0.0/8, 192.168.1.5").unwrap();
        let headers = forwarded(&["203.0.113.7"]);
        assert_eq!(proxies.client(ip("10.1.2.3"), &headers), ip("203.0.113.7"));
        assert_eq!(proxies.client(ip("198.51.100.1"), &headers), ip("198.51.100.1"), "anyone else's header is ignored");
        assert_eq!(TrustedProxies::default().client(ip("10.1.2.3"), &headers), ip("10.1.2.3"), "none trusted");
        assert_eq!(proxies.client(ip("10.1.2.3"), &HeaderMap::new()), ip("10.1.2.3"), "no header: the proxy itself");
    }

    #[test]
    fn the_client_is_the_nearest_hop_no_trusted_proxy_vouches_past() {
        let proxies = TrustedProxies::parse("10.0.0.0/8,192.168.1.5").unwrap();
        // The client wrote its own first entry; the proxies appended the rest.
        let chain = forwarded(&["1.1.1.1, 203.0.113.7", "192.168.1.5"]);
        assert_eq!(proxies.client(ip("10.0.0.2"), &chain), ip("203.0.113.7"));
        let garbled = forwarded(&["203.0.113.7, not-an-address"]);
        assert_eq!(proxies.client(ip("10.0.0.2"), &garbled), ip("10.0.0.2"), "a hop that does not parse ends the walk");
        let all_proxies = forwarded(&["10.9.9.9"]);
        assert_eq!(proxies.client(ip("10.0.0.2"), &all_proxies), ip("10.9.9.9"));
        assert!(proxies.trusts(ip("::ffff:10.0.0.1")), "an IPv4 address mapped to IPv6 is the same address");
    }

    #[test]
    fn a_list_that_is_not_addresses_is_refused_with_the_entry() {
        assert_eq!(TrustedProxies::parse(" ").unwrap(), TrustedProxies::default());
        let err = TrustedProxies::parse("10.0.0.0/8, proxy.internal").unwrap_err();
        assert!(err.contains("\"proxy.internal\""), "{err}");
        assert!(TrustedProxies::parse("::1, fd00::/8").is_ok());
    }
}
