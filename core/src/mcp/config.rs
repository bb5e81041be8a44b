//! The MCP servers to connect to, in the file format users already have (Claude Desktop,
//! Cursor): `{"mcpServers": {"<name>": {"command", "args", "env", "cwd"} | {"url", "headers"}}}`,
//! plus Palaver's own per-server keys: `approval`, `grants` (`"never"`: no approval of its tools
//! offers a grant), `tools` (an allow-list), `timeoutSeconds` and `answerTimeoutSeconds`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

/// When a server's tool pauses on an approval before it runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApprovalRule {
    Always,
    Never,
    /// Every tool but those the server marks `readOnlyHint: true`.
    #[default]
    UnlessReadOnly,
}

impl ApprovalRule {
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalRule::Always => "always",
            ApprovalRule::Never => "never",
            ApprovalRule::UnlessReadOnly => "unless-read-only",
        }
    }
}

/// Whether an approval of a server's tool may offer a grant of later calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GrantRule {
    #[default]
    Offer,
    Never,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Transport {
    /// A child process speaking MCP on its stdin and stdout.
    Stdio { command: String, args: Vec<String>, env: BTreeMap<String, String>, cwd: Option<PathBuf> },
    /// A streamable HTTP endpoint; header values may name environment variables (`${VAR}`).
    Http { url: String, headers: BTreeMap<String, String> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ServerConfig {
    pub name: String,
    pub transport: Transport,
    pub approval: ApprovalRule,
    pub grants: GrantRule,
    /// Only these tools reach the model; `None` offers them all.
    pub tools: Option<Vec<String>>,
    /// How long one tool call may run, not counting the time the user spends answering.
    pub timeout: Duration,
    /// How long one call may hold the server waiting on its user's answers, in all: calls on a
    /// server run one at a time, so this is the longest one person keeps it from everyone else.
    pub answer_timeout: Duration,
}

pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// Time to fill in a form or follow a link and come back, for a person at the screen.
pub const DEFAULT_ANSWER_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest either timeout may be.
const LONGEST_TIMEOUT_SECONDS: f64 = 86_400.0;

/// One entry of the file as written; checked into a [`ServerConfig`].
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    cwd: Option<PathBuf>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(default)]
    approval: ApprovalRule,
    #[serde(default)]
    grants: GrantRule,
    tools: Option<Vec<String>>,
    timeout_seconds: Option<f64>,
    answer_timeout_seconds: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct File {
    mcp_servers: BTreeMap<String, serde_json::Value>,
}

/// What a configuration file gave: the servers it describes well, and one problem per entry
/// that could not be used (`(name, why)`), so the rest still connect.
#[derive(Debug, Default, PartialEq)]
pub struct McpConfig {
    pub servers: Vec<ServerConfig>,
    pub problems: Vec<(String, String)>,
}

impl McpConfig {
    /// Reads a configuration file's text. `Err` when the file as a whole is unusable.
    pub fn parse(text: &str) -> Result<McpConfig, String> {
        let file: File = serde_json::from_str(text).map_err(|err| {
            format!("The MCP configuration is not valid JSON of the form {{\"mcpServers\": {{…}}}}: {err}.")
        })?;
        let mut config = McpConfig::default();
        for (name, value) in file.mcp_servers {
            match server(&name, value) {
                Ok(server) => config.servers.push(server),
                Err(problem) => config.problems.push((name, problem)),
            }
        }
        Ok(config)
    }
}

fn server(name: &str, value: serde_json::Value) -> Result<ServerConfig, String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err("A server name may use only letters, digits, \"_\" and \"-\".".into());
    }
    let entry: Entry = serde_json::from_value(value).map_err(|err| format!("{err}."))?;
    let transport = match (entry.command, entry.url) {
        (Some(command), None) if !command.trim().is_empty() => {
            Transport::Stdio { command, args: entry.args, env: entry.env, cwd: entry.cwd }
        }
        (None, Some(url)) => {
            let parsed = url::Url::parse(&url).map_err(|err| format!("\"url\" is not a URL: {err}."))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return Err("\"url\" must be an http or https URL.".into());
            }
            Transport::Http { url, headers: entry.headers }
        }
        (Some(_), Some(_)) => return Err("Give either \"command\" or \"url\", not both.".into()),
        _ => return Err("Give \"command\" (a program to start) or \"url\" (a streamable HTTP endpoint).".into()),
    };
    let timeout = match entry.timeout_seconds {
        None => DEFAULT_TIMEOUT,
        Some(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= LONGEST_TIMEOUT_SECONDS => {
            Duration::from_secs_f64(seconds)
        }
        Some(_) => return Err("\"timeoutSeconds\" must be a number of seconds above 0, at most a day.".into()),
    };
    // An ask's deadline is kept in whole seconds: under one, the question would expire as asked.
    let answer_timeout = match entry.answer_timeout_seconds {
        None => DEFAULT_ANSWER_TIMEOUT,
        Some(seconds) if (1.0..=LONGEST_TIMEOUT_SECONDS).contains(&seconds) => Duration::from_secs_f64(seconds),
        Some(_) => return Err("\"answerTimeoutSeconds\" must be a number of seconds from 1 to a day.".into()),
    };
    Ok(ServerConfig {
        name: name.to_string(),
        transport,
        approval: entry.approval,
        grants: entry.grants,
        tools: entry.tools,
        timeout,
        answer_timeout,
    })
}

/// A header or environment value with its `${VAR}` (or `${env:VAR}`) references filled in
/// from this process's environment; `Err` names a variable that is not set.
pub fn expand_env(value: &str) -> Result<String, String> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return Ok(out);
        };
        let name = after[..end].strip_prefix("env:").unwrap_or(&after[..end]);
        let variable = std::env::var(name).map_err(|_unset| format!("The environment variable {name} is not set."))?;
        out.push_str(&variable);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_claude_desktop_shape_with_palavers_keys() {
        let config = McpConfig::parse(
            r#"{"mcpServers": {
                "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
                "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"},
                           "approval": "always", "tools": ["search"], "timeoutSeconds": 5,
                           "answerTimeoutSeconds": 30, "grants": "never"},
                "both": {"command": "x", "url": "http://localhost"},
                "hasty": {"command": "x", "answerTimeoutSeconds": 0.5},
                "neither": {"args": []},
                "odd rule": {"command": "x", "approval": "sometimes"},
                "odd grants": {"command": "x", "grants": "sometimes"}
            }}"#,
        )
        .unwrap();
        let names: Vec<&str> = config.servers.iter().map(|server| server.name.as_str()).collect();
        assert_eq!(names, ["everything", "remote"]);
        assert_eq!(config.servers[0].approval, ApprovalRule::UnlessReadOnly);
        assert_eq!(config.servers[0].timeout, DEFAULT_TIMEOUT);
        assert_eq!(config.servers[0].answer_timeout, DEFAULT_ANSWER_TIMEOUT);
        assert_eq!(config.servers[1].approval, ApprovalRule::Always);
        assert_eq!((config.servers[0].grants, config.servers[1].grants), (GrantRule::Offer, GrantRule::Never));
        assert_eq!(config.servers[1].tools.as_deref(), Some(&["search".to_string()][..]));
        assert_eq!(config.servers[1].timeout, Duration::from_secs(5));
        assert_eq!(config.servers[1].answer_timeout, Duration::from_secs(30));
        let problems: Vec<&str> = config.problems.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(problems, ["both", "hasty", "neither", "odd grants", "odd rule"]);
        assert!(config.problems[0].1.contains("not both"));
        assert!(config.problems[1].1.contains("\"answerTimeoutSeconds\" must be a number of seconds from 1"));
        assert!(McpConfig::parse("{\"servers\": {}}").unwrap_err().contains("mcpServers"));
    }

    #[test]
    fn environment_references_are_filled_in_and_a_missing_one_is_named() {
        // SAFETY: this test alone reads or writes this variable.
        unsafe { std::env::set_var("PALAVER_TEST_MCP_TOKEN", "s3cret") };
        assert_eq!(expand_env("Bearer ${PALAVER_TEST_MCP_TOKEN}").unwrap(), "Bearer s3cret");
        assert_eq!(expand_env("${env:PALAVER_TEST_MCP_TOKEN}!").unwrap(), "s3cret!");
        assert_eq!(expand_env("plain").unwrap(), "plain");
        assert!(expand_env("${PALAVER_TEST_MCP_UNSET}").unwrap_err().contains("PALAVER_TEST_MCP_UNSET"));
    }
}
