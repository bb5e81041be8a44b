use std::path::Path;

use clap::Parser;
use leptos::prelude::get_configuration;
use tracing_subscriber::EnvFilter;

use palaver_server::config::{AuditCommand, BlocksCommand, Cli, Command, McpCommand, ServeConfig, UsersCommand};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")))
        .init();
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(cli.serve).await,
        Command::Asks { command } => {
            return run_on_stdin(|stdin| palaver_server::asks_cli::run_bytes(command, stdin)).await;
        }
        Command::Users { command } => run_users(command, &cli.serve).await,
        Command::Audit { command } => return run_audit(command, &cli.serve).await,
        Command::Mcp { command: McpCommand::Try { call_all, answer_defaults, target } } => {
            try_mcp_server(target, palaver_core::mcp::TryOptions { call_all, answer_defaults }).await
        }
        Command::Blocks { command: BlocksCommand::Sanitize } => sanitize_stdin().await,
        Command::Blocks { command: BlocksCommand::Check { html, image_hosts, host_actions } } => {
            let options = palaver_contract::blocks::BlockOptions {
                allow_html: html,
                image_hosts,
                host_actions: (!host_actions.is_empty()).then_some(host_actions),
                ..Default::default()
            };
            return run_on_stdin(|stdin| palaver_server::blocks_cli::check(stdin, &options)).await;
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!("{err}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn try_mcp_server(target: Vec<String>, options: palaver_core::mcp::TryOptions) -> Result<(), String> {
    use palaver_core::mcp::config::{
        ApprovalRule, DEFAULT_ANSWER_TIMEOUT, DEFAULT_TIMEOUT, GrantRule, ServerConfig, Transport,
    };
    let mut target = target.into_iter();
    let first = target.next().unwrap_or_default();
    let transport = if first.starts_with("http://") || first.starts_with("https://") {
        Transport::Http { url: first, headers: Default::default() }
    } else {
        Transport::Stdio { command: first, args: target.collect(), env: Default::default(), cwd: None }
    };
    let server = ServerConfig {
        name: "server".into(),
        transport,
        approval: ApprovalRule::Never,
        grants: GrantRule::Offer,
        tools: None,
        timeout: DEFAULT_TIMEOUT,
        answer_timeout: DEFAULT_ANSWER_TIMEOUT,
    };
    palaver_core::mcp::try_server(server, options).await
}

/// Runs a contract command on stdin, prints its outcome and exits with its code (2 when stdin
/// cannot be read).
async fn run_on_stdin(command: impl FnOnce(&[u8]) -> palaver_server::asks_cli::Outcome) -> std::process::ExitCode {
    let mut stdin = Vec::new();
    if let Err(err) = tokio::io::AsyncReadExt::read_to_end(&mut tokio::io::stdin(), &mut stdin).await {
        eprintln!("Cannot read stdin: {err}");
        return std::process::ExitCode::from(2);
    }
    let outcome = command(&stdin);
    print!("{}", outcome.stdout);
    eprint!("{}", outcome.stderr);
    std::process::ExitCode::from(outcome.code)
}

async fn sanitize_stdin() -> Result<(), String> {
    let mut html = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut tokio::io::stdin(), &mut html)
        .await
        .map_err(|err| format!("Cannot read HTML from stdin: {err}"))?;
    println!("{}", palaver_contract::blocks::sanitize_html_fragment(&html));
    Ok(())
}

/// Opens (creating and migrating if needed) the configured database.
async fn open_database(config: &ServeConfig) -> Result<palaver_core::db::Pool, String> {
    let settings = config.database();
    let shown = palaver_core::db::redacted(&settings.url);
    let backend = palaver_core::db::Backend::of_url(&settings.url)?;
    if backend == palaver_core::db::Backend::Sqlite {
        ensure_database_folder(&settings.url).map_err(|err| format!("Cannot create the database folder: {err}"))?;
    }
    palaver_core::db::connect_with(&settings).await.map_err(|err| format!("Cannot open the database {shown}: {err}"))
}

async fn run_users(command: UsersCommand, config: &ServeConfig) -> Result<(), String> {
    let UsersCommand::Create { username, admin } = command;
    let mut password = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut tokio::io::stdin(), &mut password)
        .await
        .map_err(|err| format!("Cannot read the password from stdin: {err}"))?;
    let password = password.trim_end_matches(['\r', '\n']);
    let pool = open_database(config).await?;
    let role = if admin { palaver_wire::accounts::Role::Admin } else { palaver_wire::accounts::Role::User };
    let user = palaver_core::accounts::service::create_account(&pool, &username, password, role)
        .await
        .map_err(|err| err.to_string())?;
    println!("created {} ({})", user.username, user.role.as_str());
    Ok(())
}

/// `palaver audit …`: prints what the check found and exits with its code (2: nothing to check).
async fn run_audit(command: AuditCommand, config: &ServeConfig) -> std::process::ExitCode {
    let key = config.audit_key();
    let outcome = match command {
        AuditCommand::Key => match key {
            Ok(key) => palaver_server::asks_cli::Outcome {
                code: 0,
                stdout: format!("{}\n", key.public_key()),
                stderr: String::new(),
            },
            Err(err) => {
                palaver_server::asks_cli::Outcome { code: 2, stdout: String::new(), stderr: format!("{err}\n") }
            }
        },
        AuditCommand::Verify { file, mut trusted } => {
            match key {
                Ok(key) => trusted.push(key.public_key().to_owned()),
                Err(err) => eprintln!("Not trusting this instance's key: {err}"),
            }
            match file {
                Some(file) => match std::fs::read_to_string(&file) {
                    Ok(text) => palaver_server::audit_cli::verify_export(&text, &trusted),
                    Err(err) => palaver_server::asks_cli::Outcome {
                        code: 2,
                        stdout: String::new(),
                        stderr: format!("Cannot read {}: {err}\n", file.display()),
                    },
                },
                None => match open_database(config).await {
                    Ok(pool) => palaver_server::audit_cli::verify_database(&pool, &trusted).await,
                    Err(err) => {
                        palaver_server::asks_cli::Outcome { code: 2, stdout: String::new(), stderr: format!("{err}\n") }
                    }
                },
            }
        }
    };
    print!("{}", outcome.stdout);
    eprint!("{}", outcome.stderr);
    std::process::ExitCode::from(outcome.code)
}

/// Creates the parent folder of a `sqlite://` file path, so a fresh checkout just runs.
fn ensure_database_folder(url: &str) -> std::io::Result<()> {
    let path = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let path = path.split('?').next().unwrap_or_default();
    if path.is_empty() || path.starts_with(':') {
        return Ok(());
    }
    match Path::new(path).parent() {
        Some(parent) if !parent.as_os_str().is_empty() => std::fs::create_dir_all(parent),
        _ => Ok(()),
    }
}

async fn serve(config: ServeConfig) -> Result<(), String> {
    let mut leptos_options =
        get_configuration(None).map_err(|err| format!("Leptos configuration: {err}"))?.leptos_options;
    if let Some(addr) = config.site_addr {
        leptos_options.site_addr = addr;
    }
    let addr = leptos_options.site_addr;
    // Settings are checked before anything is created or migrated.
    let auth_settings = config.auth_settings(addr)?;
    let auth_trusted_proxies = auth_settings.trusted_proxies.clone();
    let apps_sandbox = config.apps_sandbox(&auth_settings.public_origins)?;
    let public_origins = auth_settings.public_origins.clone();
    let turn_settings = config.turn_settings()?;
    let turn_dependencies = config.turn_dependencies()?;
    std::fs::create_dir_all(&config.data_dir)
        .map_err(|err| format!("Cannot create the data folder {}: {err}", config.data_dir.display()))?;
    let pool = open_database(&config).await?;
    let models = palaver_core::llm::Models::from_settings(
        config.model.as_deref(),
        config.models.as_deref(),
        config.mock_log.clone(),
        &config.provider_settings(),
    )?;
    let mcp = config.mcp_config.as_deref().map(palaver_core::mcp::McpHub::from_file).unwrap_or_default();
    tracing::info!(model = models.default_choice().id, database = %palaver_core::db::redacted(&config.database_url), "starting");

    if let Some(files) = &turn_dependencies.files {
        match files.remove_leftovers().await {
            Ok(0) => {}
            Ok(removed) => tracing::info!(removed, "removed the partial files of uploads a stop cut off"),
            Err(err) => tracing::warn!(%err, "could not clear the partial uploads"),
        }
    }
    let signals = palaver_core::signals::Signals::connect(&pool)
        .await
        .map_err(|err| format!("Cannot listen for the other instances' signals: {err}"))?;
    let mut state = palaver_server::app_state(
        leptos_options,
        pool.clone(),
        models,
        auth_settings,
        turn_settings,
        turn_dependencies,
        mcp.clone(),
        signals,
        config.reach()?,
    )?;
    let apps_listener = match &apps_sandbox {
        Some((apps_addr, origins)) => {
            state.apps = palaver_core::mcp::AppsSandbox { origins: Some(origins.as_str().into()) };
            let listener = tokio::net::TcpListener::bind(apps_addr)
                .await
                .map_err(|err| format!("Cannot listen on {apps_addr} for MCP Apps: {err}"))?;
            tracing::info!(origins, "MCP Apps are drawn from http://{apps_addr}");
            Some(listener)
        }
        None => None,
    };
    let sweeper = state.turns.spawn_sweeper();
    let audit_key = std::sync::Arc::new(config.audit_key()?);
    palaver_core::audit::spawn_signer(pool.clone(), audit_key, palaver_core::audit::SIGN_EVERY);
    let (running, live) = (state.conversations.running.clone(), state.live.clone());
    let router = palaver_server::router(state);
    let listener =
        tokio::net::TcpListener::bind(addr).await.map_err(|err| format!("Cannot listen on {addr}: {err}"))?;
    tracing::info!("listening on http://{addr}");
    let signals = count_signals();
    let grace = std::time::Duration::from_secs(config.shutdown_grace_seconds);
    shut_down_turns(signals.clone(), running.clone(), live, grace);
    let mut first = signals.clone();
    let limits = palaver_server::listen::ListenLimits {
        header_timeout: std::time::Duration::from_secs(config.header_timeout_seconds),
        body_timeout: std::time::Duration::from_secs(config.body_timeout_seconds),
        max_connections_per_client: usize::try_from(config.max_connections_per_client).unwrap_or(usize::MAX),
        max_connections: match config.max_connections {
            Some(max) => usize::try_from(max).unwrap_or(usize::MAX),
            None => palaver_server::listen::connections_the_fd_limit_allows(),
        },
        trusted_proxies: auth_trusted_proxies,
    };
    if let Some(apps_listener) = apps_listener {
        let mut stop = signals.clone();
        let sandbox = palaver_server::sandbox::router(public_origins);
        let apps_limits = limits.clone();
        tokio::spawn(async move {
            let stopped = async move {
                let _ = stop.wait_for(|count| *count >= 1).await;
            };
            if let Err(err) = palaver_server::listen::serve(apps_listener, sandbox, apps_limits, stopped).await {
                tracing::error!(%err, "the MCP Apps sandbox stopped serving");
            }
        });
    }
    palaver_server::listen::serve(listener, router, limits, async move {
        let _ = first.wait_for(|count| *count >= 1).await;
    })
    .await
    .map_err(|err| format!("Server error: {err}"))?;
    // Turns whose client left are no connection: wait for them too, then for the stopped ones
    // to save what they have.
    let saved = async {
        while running.count() > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    };
    // The serving stopped at the first signal, so the turns are stopped within `grace` of now.
    if tokio::time::timeout(grace + SAVE_WAIT, saved).await.is_err() {
        tracing::warn!(turns = running.count(), "some turns did not save before the exit");
    }
    mcp.shut_down().await;
    // Stopped before the pool closes, so no sweep meets a closed pool.
    sweeper.abort();
    pool.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// How long stopped turns get to save what they have, past the grace period.
const SAVE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Counts SIGTERM and Ctrl-C signals as they come.
fn count_signals() -> tokio::sync::watch::Receiver<u32> {
    let (count, counted) = tokio::sync::watch::channel(0);
    tokio::spawn(async move {
        loop {
            shutdown_signal().await;
            count.send_modify(|signals| *signals += 1);
        }
    });
    counted
}

/// On the first signal: event streams end, running turns get `grace` to finish, then they are
/// stopped (each saves what it has); a second signal stops them at once.
fn shut_down_turns(
    mut signals: tokio::sync::watch::Receiver<u32>,
    running: palaver_core::conversation::running::RunningTurns,
    live: palaver_core::live::LiveHub,
    grace: std::time::Duration,
) {
    tokio::spawn(async move {
        let _ = signals.wait_for(|count| *count >= 1).await;
        tracing::info!(turns = running.count(), grace_seconds = grace.as_secs(), "shutting down");
        live.close();
        let finished = async {
            while running.count() > 0 {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        };
        tokio::select! {
            () = finished => return,
            () = tokio::time::sleep(grace) => {}
            _ = signals.wait_for(|count| *count >= 2) => tracing::info!("a second signal: stopping the turns now"),
        }
        running.stop_everything();
    });
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
