//! Fresh instances started ahead of need: where each play of a deal gets
//! its own instance of a bot (`FairPlay::instances`), the run starts a
//! match's instances as soon as the match may start (its holds free, see
//! `confine::Pending`) rather than when a table is free for it: they start,
//! enter their sandboxes and subscribe while earlier matches play, and the
//! match's table starts at once when its turn comes. At most `parallel`
//! matches wait so, ready.
//!
//! Each instance is started with a seat token reserved at the referee
//! ([`Referee::reserve_seat_token`]): it subscribes and waits, seeing
//! nothing, until its match's table is created with the token for its seat;
//! it then receives that one seat and its `Subscribe` stream ends, as an
//! instance started with a table's seat token would. So an instance still
//! holds exactly one seat of one match, and since the match's holds are
//! taken before its instances start, the instances of a bot that hold the
//! same deals never overlap in time (docs/fair-play.md, "One view of a deal
//! per bot").
//!
//! An instance that ends before its match starts is the bot's affair, as
//! during the match: one that failed is started again by its supervisor
//! with the same token (`procs`, at most [`procs::MAX_RESTARTS`] times, then
//! the bot is out of the event and its seats forfeit); one that exited
//! cleanly leaves its seat empty, which waits for it `start_timeout`, then
//! forfeits, as for a bot that never connects. A match that never gets its
//! table (the run is stopped) gives its tokens back: its instances' streams
//! end, the bots exit by themselves, and they are stopped with the others.

use std::{path::PathBuf, sync::Arc};

use tracing::warn;
use whistle_referee::Referee;

use crate::{
    config::Tournament,
    fair_play::FairPlay,
    procs::{self, BotProcess},
    schedule::Planned,
};

/// Starts the instances of matches ahead of their tables.
pub(crate) struct Instances {
    referee: Referee,
    fair: Arc<FairPlay>,
    out: PathBuf,
    /// What a bot out of the event does (`runner::out_of_event`).
    on_out: Box<dyn Fn() -> procs::OnOut + Send + Sync>,
}

/// One seat's instance: its process and the seat token its table is
/// created with.
pub(crate) struct Instance {
    pub(crate) process: BotProcess,
    pub(crate) token: String,
}

impl Instances {
    /// Instances of the bots of `fair`, their stderr logs in `out`.
    pub(crate) fn new(
        referee: Referee,
        fair: Arc<FairPlay>,
        out: PathBuf,
        on_out: Box<dyn Fn() -> procs::OnOut + Send + Sync>,
    ) -> Instances {
        Instances {
            referee,
            fair,
            out,
            on_out,
        }
    }

    /// Starts an instance for each seat of `p` whose bot the run starts, by
    /// seat (`None`: a remote bot's seat, or an instance that could not
    /// start: its seat waits, then forfeits, as for a bot that never
    /// connects).
    pub(crate) fn start(&self, t: &Tournament, p: &Planned) -> Vec<Option<Instance>> {
        p.seats
            .iter()
            .map(|&b| {
                let name = &t.bots[b].name;
                if !self.fair.locals.contains_key(name) {
                    return None;
                }
                let token = self.referee.reserve_seat_token();
                let launch = self.fair.launch(name, token.clone(), &self.out, true);
                match BotProcess::start(launch, Some((self.on_out)())) {
                    Ok(process) => Some(Instance { process, token }),
                    Err(e) => {
                        self.referee.release_seat_token(&token);
                        warn!(bot = %name, error = %e, "cannot start an instance of the bot");
                        None
                    }
                }
            })
            .collect()
    }
}
