//! What a run decided about its bots' fair play ([`FairPlay`]): the
//! sandboxes, the address each bot reaches the referee at, and each local
//! bot's launch. `runner::prepare_bots` decides it; the match level launches
//! bots from it.

use std::path::{Path, PathBuf};

use crate::{
    confine::{self, Confinement},
    error::RunError,
    procs,
};

/// What a run decided about its bots' fair play: their sandboxes, whether
/// each play of a deal gets its own instance of a bot, who runs unconfined.
pub(crate) struct FairPlay {
    /// The sandboxes, when any bot has one.
    pub(crate) confinement: Option<Confinement>,
    /// Where sandboxed bots reach the referee, and plain ones.
    pub(crate) reach: Option<confine::Reach>,
    pub(crate) plain_address: String,
    /// The Unix socket's server (namespaces mode), taken out of
    /// `reach` to be stopped when the run ends.
    pub(crate) unix_server: std::sync::Mutex<Option<whistle_referee::ServerHandle>>,
    /// Why a fresh instance plays each seat of each match, if one does.
    pub(crate) instances: Option<String>,
    /// Each local bot: its command (arguments made absolute), folder, grants.
    pub(crate) locals: std::collections::HashMap<String, LocalLaunch>,
    /// Bots the organiser runs without a sandbox.
    pub(crate) unsandboxed: Vec<String>,
}

pub(crate) struct LocalLaunch {
    pub(crate) command: Vec<String>,
    pub(crate) dir: PathBuf,
    pub(crate) read: Vec<PathBuf>,
    pub(crate) sandbox: bool,
    pub(crate) limits: whistle_sandbox::Limits,
    pub(crate) stdio: bool,
}

impl FairPlay {
    /// The launch of bot `name` with `token` (a bot or seat token).
    pub(crate) fn launch(
        &self,
        name: &str,
        token: String,
        out: &Path,
        once: bool,
    ) -> procs::Launch {
        let l = &self.locals[name];
        let sandbox = match (&self.confinement, &self.reach, l.sandbox) {
            (Some(c), Some(reach), true) => Some(c.sandboxed(l.limits, l.read.clone(), reach)),
            _ => None,
        };
        procs::Launch {
            name: name.to_string(),
            command: l.command.clone(),
            dir: l.dir.clone(),
            // A stdio bot's bridge runs in whistle, outside any sandbox.
            address: match (&sandbox, &self.reach) {
                (Some(_), Some(reach)) if !l.stdio => reach.address.clone(),
                _ => self.plain_address.clone(),
            },
            token,
            stderr_log: procs::stderr_log(out, name),
            sandbox,
            once,
            stdio: l.stdio,
        }
    }

    pub(crate) fn start_error(&self, name: &str, e: std::io::Error) -> RunError {
        RunError::BotStart {
            bot: name.to_string(),
            program: self.locals[name].command[0].clone(),
            message: e.to_string(),
        }
    }
}

/// The address bots are given: `host:port` as every gRPC library takes it
/// (the kits still take `http://` too), `https://` kept for TLS.
pub(crate) fn bot_address(address: &str) -> String {
    address
        .strip_prefix("http://")
        .unwrap_or(address)
        .trim_end_matches('/')
        .to_string()
}
