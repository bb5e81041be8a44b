//! Command line and environment configuration. Every flag can also be set by its variable.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "palaver",
    version,
    about = "Palaver: a self-hostable AI chat whose agent can ask you typed questions mid-turn."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub serve: ServeConfig,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the chat and the API (the default).
    Serve,
    /// The ask contract on the command line (reads JSON on stdin).
    Asks {
        #[command(subcommand)]
        command: crate::asks_cli::AsksCommand,
    },
    /// Display blocks on the command line.
    Blocks {
        #[command(subcommand)]
        command: BlocksCommand,
    },
    /// Manage accounts.
    Users {
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// MCP servers on the command line.
    Mcp {
        #[command(subcommand)]
        command: McpCommand,
    },
    /// The audit trail's chains and signatures.
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Check every chain and signature of the database (or of an export with `--file`); names
    /// the first entry that does not fit (exit 1). Trusts this instance's key and `--trust`'s.
    Verify {
        /// An export (`GET /gpt/audit/export`, JSON lines) to check instead of the database.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Also trust this public key (base64url, as `palaver audit key` prints it; repeatable).
        // A key is base64url: it may begin with '-', which is its value, not an option.
        #[arg(long = "trust", value_name = "PUBLIC_KEY", allow_hyphen_values = true)]
        trusted: Vec<String>,
    },
    /// Print this instance's public key (what a check of an export trusts).
    Key,
}

#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Connect to one MCP server as the chat does, list its tools and call those it marks
    /// read-only with sample arguments, declining its questions: `palaver mcp try <url>` or
    /// `palaver mcp try <command> [args…]` (the options come before the target).
    Try {
        /// Call every tool, also those not marked read-only (they may write, delete or send).
        #[arg(long)]
        call_all: bool,
        /// Answer the server's questions as a person who accepts each form as filled in
        /// (its defaults); without it they are declined.
        #[arg(long)]
        answer_defaults: bool,
        /// A streamable HTTP URL, or the program to start (then its arguments).
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        target: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum BlocksCommand {
    /// Sanitize an HTML block: reads HTML on stdin, prints what the frame would show.
    Sanitize,
    /// Check a reply document: reads YAML or JSON on stdin, prints {"errors": [...], "warnings": [...]}
    /// (exit 0 valid, 1 invalid, 2 unreadable input).
    Check {
        /// Allow html blocks.
        #[arg(long)]
        html: bool,
        /// Allow https images from this host (repeatable).
        #[arg(long = "image-host", value_name = "HOST")]
        image_hosts: Vec<String>,
        /// Check callbacks against this host action (repeatable); without it callbacks are not checked.
        #[arg(long = "host-action", value_name = "NAME")]
        host_actions: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum UsersCommand {
    /// Create an account; reads the password from stdin. The first account is always an admin.
    Create {
        username: String,
        /// Make the account an admin.
        #[arg(long)]
        admin: bool,
    },
}

#[derive(Clone, Debug, Args)]
pub struct ServeConfig {
    /// The database: `sqlite://<file>?mode=rwc` (embedded, the default) or
    /// `postgres://user:password@host:port/database` (TLS: `?sslmode=require`, or `verify-full`
    /// with `sslrootcert=<file>`).
    #[arg(long, global = true, env = "PALAVER_DATABASE_URL", default_value = "sqlite://data/palaver.db?mode=rwc")]
    pub database_url: String,
    /// Connections the pool keeps open at most.
    #[arg(long, global = true, env = "PALAVER_DATABASE_MAX_CONNECTIONS", default_value_t = 8)]
    pub database_max_connections: u32,
    /// How long a query waits for a database connection, and the start for the first one.
    #[arg(long, global = true, env = "PALAVER_DATABASE_CONNECT_TIMEOUT_SECONDS", default_value_t = 10)]
    pub database_connect_timeout_seconds: u64,
    /// PostgreSQL cancels a statement that runs longer than this.
    #[arg(long, global = true, env = "PALAVER_DATABASE_STATEMENT_TIMEOUT_SECONDS", default_value_t = 30)]
    pub database_statement_timeout_seconds: u64,
    /// The model: "demo" (keyless demo agent), "mock:<path>" (a scripted model for tests),
    /// "openai:<model>" (any OpenAI-compatible server) or "anthropic:<model>". The default
    /// model; without it (and without --models), "demo".
    #[arg(long, global = true, env = "PALAVER_MODEL")]
    pub model: Option<String>,
    /// The models a person may pick per conversation: comma-separated "provider:model", each
    /// with an optional "=Label" ("openai:gpt-4o=GPT-4o,anthropic:claude-sonnet-4-5=Claude").
    /// Without --model, the first is the default.
    #[arg(long, global = true, env = "PALAVER_MODELS")]
    pub models: Option<String>,
    /// The context budget, in tokens, of every model whose entry names none (";context=TOKENS"
    /// after an entry of --model or --models); unset, each model's family default (Claude 200k,
    /// GPT-4o 128k, GPT-4.1 ~1M, GPT-5 400k, the demo and the mock 64k, others 32k).
    #[arg(long, global = true, env = "PALAVER_CONTEXT_TOKENS", value_parser = clap::value_parser!(u32).range(1..))]
    pub context_tokens: Option<u32>,
    /// The OpenAI-compatible server's base URL (Ollama: http://127.0.0.1:11434/v1).
    #[arg(long, global = true, env = "PALAVER_OPENAI_BASE_URL", default_value = palaver_core::llm::OPENAI_BASE_URL)]
    pub openai_base_url: String,
    /// The OpenAI-compatible server's API key (sent as a bearer token; optional for local servers).
    #[arg(long, global = true, env = "PALAVER_OPENAI_API_KEY", hide_env_values = true)]
    pub openai_api_key: Option<Secret>,
    /// Anthropic's base URL.
    #[arg(long, global = true, env = "PALAVER_ANTHROPIC_BASE_URL", default_value = palaver_core::llm::ANTHROPIC_BASE_URL)]
    pub anthropic_base_url: String,
    /// Anthropic's API key.
    #[arg(long, global = true, env = "PALAVER_ANTHROPIC_API_KEY", hide_env_values = true)]
    pub anthropic_api_key: Option<Secret>,
    /// With the mock model, append every model request to this file as one JSON line.
    #[arg(long, global = true, env = "PALAVER_MOCK_LOG")]
    pub mock_log: Option<PathBuf>,
    /// Where uploads are kept instead of the data folder: `s3://<bucket>/<prefix>`, an
    /// S3-compatible bucket every instance reaches; the endpoint, region and credentials come
    /// from AWS_ENDPOINT, AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
    /// (AWS_ALLOW_HTTP=true for an endpoint without TLS).
    #[arg(long, global = true, env = "PALAVER_FILES_URL")]
    pub files_url: Option<String>,
    /// Where Palaver keeps its files (uploads, the default database, the audit signing key).
    #[arg(long, global = true, env = "PALAVER_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
    /// The key this instance signs the audit chains' heads with: an Ed25519 PKCS#8 document,
    /// base64url. Give every instance the same one (the `audit-signing-key` file a first start
    /// makes in the data folder holds one); without it each instance makes its own there.
    #[arg(long, global = true, env = "PALAVER_AUDIT_KEY", hide_env_values = true)]
    pub audit_key: Option<Secret>,
    /// Address to listen on (overrides Leptos's site-addr).
    #[arg(long, global = true, env = "LEPTOS_SITE_ADDR")]
    pub site_addr: Option<SocketAddr>,
    /// Let anyone sign up (the first account can always sign up, and becomes admin).
    #[arg(long, global = true, env = "PALAVER_OPEN_SIGNUP", default_value_t = false)]
    pub open_signup: bool,
    /// Minutes without a request after which a browser session ends.
    #[arg(long, global = true, env = "PALAVER_SESSION_IDLE_MINUTES", default_value_t = 7 * 24 * 60)]
    pub session_idle_minutes: u64,
    /// Days after which a browser session ends however busy it is (the user logs in again).
    #[arg(long, global = true, env = "PALAVER_SESSION_MAX_DAYS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3650))]
    pub session_max_days: u64,
    /// The most accounts one client address may sign up in an hour (with open sign-up).
    #[arg(long, global = true, env = "PALAVER_SIGNUPS_PER_HOUR", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub signups_per_hour: u32,
    /// The reverse proxies in front of Palaver (addresses or ranges, comma-separated): only
    /// their `X-Forwarded-For` says who the client is, for the log-in limits and the
    /// connection cap (a proxy's own connections are not capped per client).
    #[arg(long, global = true, env = "PALAVER_TRUSTED_PROXIES")]
    pub trusted_proxies: Option<String>,
    /// The ask kinds the agent may use, comma-separated ("" turns asks off).
    #[arg(
        long,
        global = true,
        env = "PALAVER_ASK_KINDS",
        default_value = "choice,confirm,markdown,form,files,questions"
    )]
    pub ask_kinds: String,
    /// Seconds an ask waits for its answer; then it ends as expired (never answered by time).
    #[arg(long, global = true, env = "PALAVER_ASK_TTL_SECONDS", default_value_t = 24 * 60 * 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub ask_ttl_seconds: u64,
    /// Seconds an approval waits; then it ends as expired and its tool does not run.
    #[arg(long, global = true, env = "PALAVER_APPROVAL_TTL_SECONDS", default_value_t = 60 * 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub approval_ttl_seconds: u64,
    /// Days the request log keeps each turn's prompt and reply text (then only the model, token
    /// counts, timing and what the turn asked stay); 0 empties them within a minute.
    #[arg(long, global = true, env = "PALAVER_REQUEST_TEXT_DAYS", default_value_t = 30)]
    pub request_text_days: u64,
    /// Seconds running turns get to finish after SIGTERM or Ctrl-C; then they are stopped (each
    /// saves what it has). A second signal stops them at once.
    #[arg(long, global = true, env = "PALAVER_SHUTDOWN_GRACE_SECONDS", default_value_t = 10)]
    pub shutdown_grace_seconds: u64,
    /// Seconds a client has to send a request's headers (and an idle connection is kept);
    /// slower connections are closed.
    #[arg(long, global = true, env = "PALAVER_HEADER_TIMEOUT_SECONDS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_seconds: u64,
    /// Seconds a request body may go without a byte arriving; a stalled upload gets 408.
    #[arg(long, global = true, env = "PALAVER_BODY_TIMEOUT_SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub body_timeout_seconds: u64,
    /// The most connections one client address may hold open at once; more are closed as they
    /// arrive.
    #[arg(long, global = true, env = "PALAVER_MAX_CONNECTIONS_PER_CLIENT", default_value_t = 128,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections_per_client: u64,
    /// The most connections all clients together may hold; more get 503. Default: the open-file
    /// limit (raised to its hard limit at start) less 256 kept for the database, files and MCP
    /// servers.
    #[arg(long, global = true, env = "PALAVER_MAX_CONNECTIONS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: Option<u64>,
    /// The most replies one user may have running at once; more get 429 with Retry-After.
    #[arg(long, global = true, env = "PALAVER_MAX_TURNS_PER_USER", default_value_t = 4,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_turns_per_user: u64,
    /// How long a running turn's lease lasts: when an instance dies, its turns stop counting
    /// toward the user's limit after this long.
    #[arg(long, global = true, env = "PALAVER_TURN_LEASE_SECONDS", default_value_t = 15,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub turn_lease_seconds: u64,
    /// Per-file cap of `files` answers and uploads, in bytes.
    #[arg(long, global = true, env = "PALAVER_MAX_FILE_SIZE_BYTES", default_value_t = 10 * 1024 * 1024)]
    pub max_file_size_bytes: u64,
    /// The most model calls one turn makes.
    #[arg(long, global = true, env = "PALAVER_MAX_STEPS", default_value_t = 5)]
    pub max_steps: usize,
    /// Offer the demo todo tools (listTodos, addTodo, completeTodo, deleteCompletedTodos).
    #[arg(long, global = true, env = "PALAVER_DEMO_TOOLS", default_value_t = true, action = clap::ArgAction::Set)]
    pub demo_tools: bool,
    /// Replies are block documents (headings, metrics, charts, tables, actions…); off keeps them markdown.
    #[arg(long, global = true, env = "PALAVER_UI_BLOCKS", default_value_t = true, action = clap::ArgAction::Set)]
    pub ui_blocks: bool,
    /// Allow html blocks (sanitized, shown in a sandboxed frame without scripts or network).
    #[arg(long, global = true, env = "PALAVER_UI_BLOCKS_HTML", default_value_t = false, action = clap::ArgAction::Set)]
    pub ui_blocks_html: bool,
    /// Give the model one chance to fix a document that did not validate.
    #[arg(long, global = true, env = "PALAVER_UI_BLOCKS_REPAIR", default_value_t = false, action = clap::ArgAction::Set)]
    pub ui_blocks_repair: bool,
    /// Hosts https images in replies may load from, comma-separated (images.example.com, or
    /// https://images.example.com: any port of the host).
    #[arg(long, global = true, env = "PALAVER_IMAGE_HOSTS", default_value = "")]
    pub image_hosts: String,
    /// The origin users reach Palaver at, such as https://chat.example.com (several: comma-separated).
    /// State-changing requests naming any other host or origin are refused. Default: http on the
    /// listen port at localhost, 127.0.0.1 and the listen address.
    #[arg(long, global = true, env = "PALAVER_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// The SMTP server ask mails go through, as lettre's URL: `smtp://host:port` (plain, a
    /// local relay), `smtps://user:password@host` (TLS) or `smtp://user:password@host?tls=required`
    /// (STARTTLS). Without it Palaver sends no mail; mail also needs PALAVER_PUBLIC_URL for its links.
    #[arg(long, global = true, env = "PALAVER_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<Secret>,
    /// The address mails come from ("Palaver <palaver@example.com>"); required with PALAVER_SMTP_URL.
    #[arg(long, global = true, env = "PALAVER_MAIL_FROM")]
    pub mail_from: Option<String>,
    /// A JSON file naming the MCP servers whose tools the model may use, in the Claude Desktop
    /// shape: {"mcpServers": {"<name>": {"command", "args", "env", "cwd"} | {"url", "headers"}}}.
    #[arg(long, global = true, env = "PALAVER_MCP_CONFIG")]
    pub mcp_config: Option<std::path::PathBuf>,
    /// Where MCP Apps' sandbox listens (127.0.0.1:3001, say): a second origin Palaver serves
    /// the apps' views from, never its own pages. Without it, apps are not drawn.
    #[arg(long, global = true, env = "PALAVER_APPS_ADDR")]
    pub apps_addr: Option<SocketAddr>,
    /// The origin browsers reach the apps' sandbox at, such as https://apps.chat.example.com
    /// (a proxy in front of PALAVER_APPS_ADDR). Default: http on PALAVER_APPS_ADDR, when that
    /// is a loopback address.
    #[arg(long, global = true, env = "PALAVER_APPS_URL")]
    pub apps_url: Option<String>,
    /// Always mark cookies Secure (set this behind an https proxy that sends no X-Forwarded-Proto).
    #[arg(long, global = true, env = "PALAVER_SECURE_COOKIES", default_value_t = false)]
    pub secure_cookies: bool,
    /// Whom push services may write to about this server's pushes (the VAPID subject): a
    /// mailto: or https: URL. Default: the public URL when it is https.
    #[arg(long, global = true, env = "PALAVER_PUSH_CONTACT")]
    pub push_contact: Option<String>,
    /// When an unanswered ask is pushed again, comma-separated: a delay after the ask (10m,
    /// 1h, 2d) or, with a minus, a time before it expires (-1h); "off" for never.
    #[arg(long, global = true, env = "PALAVER_PUSH_NUDGES", default_value = palaver_core::push::DEFAULT_NUDGES,
        value_parser = clap::value_parser!(palaver_core::push::NudgeSchedule))]
    pub push_nudges: palaver_core::push::NudgeSchedule,
}

impl ServeConfig {
    pub fn database(&self) -> palaver_core::db::DatabaseSettings {
        palaver_core::db::DatabaseSettings {
            url: self.database_url.clone(),
            max_connections: self.database_max_connections.max(1),
            connect_timeout: std::time::Duration::from_secs(self.database_connect_timeout_seconds.max(1)),
            statement_timeout: std::time::Duration::from_secs(self.database_statement_timeout_seconds.max(1)),
        }
    }

    pub fn turn_settings(&self) -> Result<palaver_core::turn::TurnSettings, String> {
        let mut kinds = Vec::new();
        for name in self.ask_kinds.split(',').map(str::trim).filter(|name| !name.is_empty()) {
            let kind = palaver_contract::asks::AskKind::parse(name)
                .ok_or_else(|| format!("PALAVER_ASK_KINDS lists \"{name}\", which is not an ask kind."))?;
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        let image_hosts = palaver_core::conversation::parse_image_hosts(&self.image_hosts)?;
        Ok(palaver_core::turn::TurnSettings {
            ask_kinds: kinds,
            max_file_size_bytes: self.max_file_size_bytes,
            max_steps: self.max_steps.max(1),
            blocks: self.ui_blocks.then_some(palaver_core::conversation::BlocksSettings {
                html: self.ui_blocks_html,
                image_hosts,
                repair: self.ui_blocks_repair,
            }),
            ask_ttl: std::time::Duration::from_secs(self.ask_ttl_seconds),
            approval_ttl: std::time::Duration::from_secs(self.approval_ttl_seconds),
            max_turns_per_user: usize::try_from(self.max_turns_per_user).unwrap_or(usize::MAX),
            turn_lease: std::time::Duration::from_secs(self.turn_lease_seconds),
            request_text_kept: std::time::Duration::from_secs(self.request_text_days.saturating_mul(24 * 60 * 60)),
        })
    }

    pub fn turn_dependencies(&self) -> Result<palaver_core::turn::TurnDependencies, String> {
        let tools =
            if self.demo_tools { palaver_core::turn::tools::ToolRegistry::demo_todos() } else { Default::default() };
        Ok(palaver_core::turn::TurnDependencies {
            tools,
            // `app_state` adds the MCP servers, connected by `serve` inside the runtime.
            tool_sources: Vec::new(),
            files: Some(palaver_core::uploads::FileStore::from_url(self.files_url.as_deref(), &self.data_dir)?),
        })
    }

    pub fn provider_settings(&self) -> palaver_core::llm::ProviderSettings {
        palaver_core::llm::ProviderSettings {
            openai_base_url: self.openai_base_url.clone(),
            openai_api_key: self.openai_api_key.as_ref().map(|key| key.0.clone()),
            anthropic_base_url: self.anthropic_base_url.clone(),
            anthropic_api_key: self.anthropic_api_key.as_ref().map(|key| key.0.clone()),
            context_tokens: self.context_tokens,
            ..Default::default()
        }
    }

    /// The first origin of `PALAVER_PUBLIC_URL`, which links sent outside Palaver (mail,
    /// webhook payloads) point at.
    fn first_public_url(&self) -> Option<&str> {
        self.public_url.as_deref()?.split(',').map(str::trim).find(|url| !url.is_empty())
    }

    /// How this deployment reaches people outside its tabs. A push contact that is not a
    /// mailto: or https: URL is refused here; none at all is noted in the log, as a push service may
    /// refuse the placeholder (mail's own settings are checked as the service starts).
    pub fn reach(&self) -> Result<crate::ReachConfig, String> {
        let public_url = self.first_public_url().map(str::to_string);
        let contact = match (self.push_contact.as_deref().map(str::trim), public_url.as_deref()) {
            (Some(contact), _) if contact.starts_with("mailto:") || contact.starts_with("https://") => {
                contact.to_string()
            }
            (Some(contact), _) => {
                return Err(format!("PALAVER_PUSH_CONTACT must be a mailto: or https: URL, not `{contact}`"));
            }
            (None, Some(public)) if public.starts_with("https://") => public.to_string(),
            // Local use, mostly (a browser subscribes only on https or localhost): said, not warned.
            (None, _) => {
                tracing::info!(
                    "no PALAVER_PUSH_CONTACT is set and the public URL is not https: pushes name a placeholder contact, which some push services refuse"
                );
                palaver_core::push::PLACEHOLDER_CONTACT.to_string()
            }
        };
        Ok(crate::ReachConfig {
            push: palaver_core::push::PushConfig { contact, nudges: self.push_nudges.clone() },
            webhooks: palaver_core::webhooks::WebhookSettings { public_url: public_url.clone(), ..Default::default() },
            mail: palaver_core::mail::MailConfig {
                smtp_url: self.smtp_url.as_ref().map(|url| url.0.clone()),
                from: self.mail_from.clone(),
                public_url,
            },
        })
    }

    /// The account settings for a server listening on `listen`.
    pub fn auth_settings(&self, listen: SocketAddr) -> Result<palaver_core::accounts::auth::AuthSettings, String> {
        let public_origins = match &self.public_url {
            Some(list) => palaver_core::accounts::PublicOrigins::parse(list)?,
            None => palaver_core::accounts::PublicOrigins::local(listen),
        };
        Ok(palaver_core::accounts::auth::AuthSettings {
            open_signup: self.open_signup,
            signups_per_hour: self.signups_per_hour,
            session_idle: std::time::Duration::from_secs(self.session_idle_minutes.saturating_mul(60)),
            session_max: std::time::Duration::from_secs(self.session_max_days.saturating_mul(86_400)),
            secure_cookies: self.secure_cookies,
            public_origins,
            trusted_proxies: palaver_core::accounts::TrustedProxies::parse(
                self.trusted_proxies.as_deref().unwrap_or_default(),
            )?,
        })
    }
}

/// A secret setting (an API key): it never prints, so no debug output or log can leak it.
#[derive(Clone)]
pub struct Secret(String);

impl ServeConfig {
    /// Where the MCP Apps sandbox listens and the origins browsers reach it at (a pattern whose
    /// `*` each server's apps fill, `AppsSandbox`), when apps are drawn: origins none of
    /// Palaver's own pages has (`public_origins`).
    pub fn apps_sandbox(
        &self,
        public_origins: &palaver_core::accounts::PublicOrigins,
    ) -> Result<Option<(SocketAddr, String)>, String> {
        let Some(addr) = self.apps_addr else {
            return match self.apps_url {
                Some(_) => Err("PALAVER_APPS_URL needs PALAVER_APPS_ADDR: where the apps' sandbox listens.".into()),
                None => Ok(None),
            };
        };
        let origins = crate::sandbox::origins(addr, self.apps_url.as_deref(), public_origins)?;
        Ok(Some((addr, origins)))
    }

    /// The key this instance signs the audit chains' heads with.
    pub fn audit_key(&self) -> Result<palaver_core::audit::signing::AuditKey, String> {
        palaver_core::audit::signing::AuditKey::load(self.audit_key.as_ref().map(|key| key.0.as_str()), &self.data_dir)
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Ok(Secret(value.to_string()))
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[test]
    fn a_trusted_key_that_begins_with_a_dash_is_the_options_value() {
        let cli = Cli::try_parse_from(["palaver", "audit", "verify", "--trust", "-1Ab_", "--trust", "xY"]).unwrap();
        let Some(Command::Audit { command: AuditCommand::Verify { trusted, .. } }) = cli.command else {
            panic!("audit verify: {cli:?}");
        };
        assert_eq!(trusted, ["-1Ab_", "xY"]);
    }
}
