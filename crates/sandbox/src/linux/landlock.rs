//! Stage: the Landlock ruleset and the place where a bot's process confines
//! itself ([`confine_self`]).

use std::path::PathBuf;

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope, path_beneath_rules,
};

use crate::{Mode, Spec, system_paths};

/// The newest Landlock ABI whistle asks for.
const ABI_USED: ABI = ABI::V6;

/// The Landlock ABI this kernel gives (0: none; 1, 4 or 6 as far as
/// whistle cares).
pub(crate) fn abi() -> u32 {
    let hard = || Ruleset::default().set_compatibility(CompatLevel::HardRequirement);
    let scope = hard().scope(Scope::Signal).and_then(|r| r.create()).is_ok();
    let net = hard()
        .handle_access(AccessNet::ConnectTcp)
        .and_then(|r| r.create())
        .is_ok();
    let fs = hard()
        .handle_access(AccessFs::Execute)
        .and_then(|r| r.create())
        .is_ok();
    match (fs, net, scope) {
        (_, _, true) => 6,
        (_, true, false) => 4,
        (true, false, false) => 1,
        _ => 0,
    }
}

/// Everything the bot's own process applies to itself just before it
/// becomes the bot (after its launcher or init started it, so that they stay
/// outside its Landlock domain: it cannot signal or trace them): the
/// Landlock ruleset. A system-call filter belongs here too, after Landlock.
pub(crate) fn confine_self(spec: &Spec) -> Result<(), String> {
    restrict(spec).and_then(|()| crate::filter::install(spec))
}

/// Applies the Landlock ruleset to this process (and so to everything it
/// starts): read and run the system's paths, its folder and `read` paths,
/// write only the scratch folder (and in namespaces its `/dev/shm`) and a
/// few device files, no TCP but to the referee's port, signals and abstract
/// sockets only inside.
fn restrict(spec: &Spec) -> Result<(), String> {
    let e =
        |what: &'static str| move |err: landlock::RulesetError| format!("Landlock ({what}): {err}");
    let abi = ABI_USED;
    let namespaces = spec.mode == Mode::Namespaces;
    let mut read: Vec<PathBuf> = system_paths();
    read.push(spec.dir.clone());
    read.extend(spec.read.iter().cloned());
    if spec.program.is_absolute() {
        read.push(spec.program.clone());
    }
    if namespaces {
        // The sandbox's own /proc.
        read.push("/proc".into());
    }
    read.retain(|p| p.exists());
    let mut write: Vec<PathBuf> = vec![spec.scratch.clone()];
    if namespaces && std::path::Path::new("/dev/shm").exists() {
        // The sandbox's own, small /dev/shm (not the host's).
        write.push("/dev/shm".into());
    }
    let devices: Vec<PathBuf> = ["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"]
        .into_iter()
        .map(PathBuf::from)
        .filter(|p| p.exists())
        .collect();
    // Namespaces: the mounts confine already, Landlock is a second wall
    // where the kernel has it; alone it must hold entirely.
    let level = if namespaces {
        CompatLevel::BestEffort
    } else {
        CompatLevel::HardRequirement
    };
    let ruleset = Ruleset::default()
        .set_compatibility(level)
        .handle_access(AccessFs::from_all(ABI::V1))
        .map_err(e("file rights"))?
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))
        .map_err(e("file rights"))?
        .set_compatibility(level)
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
        .map_err(e("network"))?
        .scope(Scope::Signal | Scope::AbstractUnixSocket)
        .map_err(e("scopes"))?;
    let mut created = ruleset
        .create()
        .map_err(e("create"))?
        .add_rules(path_beneath_rules(&read, AccessFs::from_read(abi)))
        .map_err(e("read paths"))?
        .add_rules(path_beneath_rules(&write, AccessFs::from_all(abi)))
        .map_err(e("scratch"))?
        .add_rules(path_beneath_rules(
            &devices,
            AccessFs::from_read(abi) | AccessFs::WriteFile,
        ))
        .map_err(e("devices"))?;
    if let Some(port) = spec.referee_port {
        created = created
            .add_rule(NetPort::new(port, AccessNet::ConnectTcp))
            .map_err(e("referee port"))?;
    }
    let status = created.restrict_self().map_err(e("restrict"))?;
    match status.ruleset {
        RulesetStatus::NotEnforced if !namespaces => {
            Err("Landlock is not enforced by this kernel".into())
        }
        RulesetStatus::PartiallyEnforced if !namespaces => {
            Err("Landlock is only partly enforced by this kernel".into())
        }
        _ => Ok(()),
    }
}
