//! Which pages may open a WebSocket: only the server's own, named by the `Origin` a browser puts
//! on every upgrade. The page's origin is `http://HOST:PORT` with this server's port and a name
//! or address of this machine that the listening address reaches: `localhost` and `127.0.0.1`
//! always; the listening address itself; and, listening on every interface (`0.0.0.0`, `::`),
//! this machine's host name (also with `.local`) and any address of this machine. A page that
//! makes its own name resolve to this machine (DNS rebinding) still sends its own name, and is
//! refused; so are a missing `Origin` and `null` (sandboxed frames, `file:` pages).

use std::net::{IpAddr, SocketAddr, UdpSocket};

/// The origins of the server's own page.
#[derive(Debug, Clone)]
pub(super) struct Origins {
    /// The names and address literals (IPv6 in brackets), lowercase.
    hosts: Vec<String>,
    /// Whether any address of this machine is one (listening on every interface).
    any_local_address: bool,
    /// The port the server listens on.
    port: u16,
}

impl Origins {
    /// The origins of the page served on `address`, `port`.
    pub(super) fn new(address: IpAddr, port: u16) -> Origins {
        let mut hosts = vec!["localhost".to_string(), "127.0.0.1".to_string()];
        hosts.push(literal(address));
        let any_local_address = address.is_unspecified();
        if any_local_address {
            if let Some(name) = host_name() {
                hosts.push(format!("{name}.local"));
                hosts.push(name);
            }
        }
        hosts.dedup();
        Origins {
            hosts,
            any_local_address,
            port,
        }
    }

    /// Whether a WebSocket upgrade with this `Origin` header (None: without one) comes from the
    /// server's own page.
    pub(super) fn allows(&self, origin: Option<&str>) -> bool {
        let Some(rest) = origin.and_then(|o| o.strip_prefix("http://")) else {
            return false;
        };
        let Some((host, port)) = split_host_port(rest) else {
            return false;
        };
        if port != self.port {
            return false;
        }
        let host = host.to_ascii_lowercase();
        if self.hosts.contains(&host) {
            return true;
        }
        self.any_local_address && is_local_address(&host)
    }
}

/// An address as a URL writes it: IPv6 in brackets.
fn literal(address: IpAddr) -> String {
    match address {
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    }
}

/// `HOST[:PORT]` of an origin, its port 80 if none is written; None for anything else (a path,
/// user information, a port that is not one).
fn split_host_port(text: &str) -> Option<(&str, u16)> {
    if text.is_empty() || text.contains(['/', '@', '?', '#']) {
        return None;
    }
    let (host, port) = match text.rfind(':') {
        // An IPv6 literal's own colons are inside its brackets.
        Some(colon) if !text[colon..].contains(']') => (&text[..colon], Some(&text[colon + 1..])),
        _ => (text, None),
    };
    let port = match port {
        None => 80,
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            digits.parse().ok()?
        }
        Some(_) => return None,
    };
    (!host.is_empty()).then_some((host, port))
}

/// Whether `host` is an address literal of this machine: one a socket can be bound to.
fn is_local_address(host: &str) -> bool {
    let ip = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => v6.parse::<IpAddr>().ok(),
        None => host.parse::<IpAddr>().ok().filter(IpAddr::is_ipv4),
    };
    ip.is_some_and(|ip| UdpSocket::bind(SocketAddr::new(ip, 0)).is_ok())
}

/// This machine's host name, lowercase, if it can be read.
fn host_name() -> Option<String> {
    let from_kernel = std::fs::read_to_string("/proc/sys/kernel/hostname").ok();
    let name = match from_kernel {
        Some(name) => name,
        None => {
            let output = std::process::Command::new("hostname").output().ok()?;
            String::from_utf8(output.stdout).ok()?
        }
    };
    let name = name.trim().to_ascii_lowercase();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_loopback_only_the_loopback_names_on_this_port_are_the_page() {
        let origins = Origins::new("127.0.0.1".parse().unwrap(), 8080);
        for allowed in [
            "http://localhost:8080",
            "http://127.0.0.1:8080",
            "http://LocalHost:8080",
        ] {
            assert!(origins.allows(Some(allowed)), "{allowed}");
        }
        for refused in [
            None,
            Some("null"),
            Some(""),
            Some("http://evil.example"),
            Some("http://evil.example:8080"),
            Some("http://localhost:1"),
            Some("http://localhost"),
            Some("https://localhost:8080"),
            Some("http://localhost.evil.example:8080"),
            Some("http://localhost:8080@evil.example"),
            Some("http://localhost:8080/"),
            Some("http://localhost:+8080"),
            Some("http://:8080"),
            Some("ws://localhost:8080"),
        ] {
            assert!(!origins.allows(refused), "{refused:?}");
        }
    }

    #[test]
    fn on_an_address_that_address_is_the_page_too() {
        let origins = Origins::new("127.0.0.2".parse().unwrap(), 80);
        assert!(origins.allows(Some("http://127.0.0.2")));
        assert!(origins.allows(Some("http://127.0.0.2:80")));
        assert!(!origins.allows(Some("http://127.0.0.3")));
        let origins = Origins::new("::1".parse().unwrap(), 9000);
        assert!(origins.allows(Some("http://[::1]:9000")));
        assert!(!origins.allows(Some("http://[::2]:9000")));
    }

    #[test]
    fn on_every_interface_this_machines_addresses_are_the_page() {
        let origins = Origins::new("0.0.0.0".parse().unwrap(), 8080);
        assert!(origins.allows(Some("http://127.0.0.1:8080")));
        // 127.0.0.0/8 is this machine's; 192.0.2.1 is a documentation address, nobody's.
        assert!(origins.allows(Some("http://127.0.0.9:8080")));
        assert!(!origins.allows(Some("http://192.0.2.1:8080")));
        assert!(!origins.allows(Some("http://evil.example:8080")));
        if let Some(name) = host_name() {
            assert!(origins.allows(Some(&format!("http://{name}:8080"))));
            assert!(origins.allows(Some(&format!("http://{name}.local:8080"))));
        }
    }
}
