//! `sampler`: determinize, play out, average.
//!
//! At each decision with more than one legal action the bot draws worlds
//! consistent with everything its seat has seen
//! ([`whistle_rules::sample::WorldSampler`]: the cards it has not seen, dealt
//! without bias given the cards seen, voids shown, bids and calls, hidden
//! hand-overs), plays every legal action in each world and the rest of the
//! hand out with a fast default policy (the heuristic bot's, for every
//! seat), and scores each by the hand's points for its side against the
//! other sides' average (weighted by the worlds' importance weights). It
//! plays the heuristic's choice unless another action beats it on the same
//! worlds by more than a standard error ([`Playouts::choose`]), and the
//! heuristic's choice should no world come within its attempts.
//!
//! Its strength is set by a [`Budget`]: playouts a decision (deterministic:
//! the same seed and observation give the same choice) or milliseconds a
//! decision. Under an event's clock ([`Bot::clock`]) a decision also stops
//! at a quarter of the per-action time, whatever the budget. Name forms for [`crate::bot_by_name`]: `sampler` (the default,
//! [`DEFAULT_PLAYOUTS`] playouts), `sampler:N` (N playouts), `sampler:Nms`.

use std::time::{Duration, Instant};

use whistle_rules::{
    Action, AnyGame, Game, Observation, Options, Seat, Variant,
    dealing::{Domain, Seed, Shuffler},
    sample::WorldSampler,
};

use crate::{
    bot::Bot,
    heuristic::HeuristicBot,
    playout::{self, Rollout},
};

/// Playouts a decision when no budget is named.
pub const DEFAULT_PLAYOUTS: u32 = 240;

/// Attempts at a consistent world before the bot gives up on one.
const ATTEMPTS: usize = 2_000;

/// How much a decision may spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// About this many playouts (worlds × legal actions), at least one
    /// world.
    Playouts(u32),
    /// Worlds until this time has passed (at least one world).
    Time(Duration),
}

impl Budget {
    /// Reads `N` (playouts) or `Nms` (milliseconds).
    ///
    /// # Errors
    /// A message for anything else, or zero.
    pub fn parse(text: &str) -> Result<Budget, String> {
        let text = text.trim();
        let (digits, ms) = match text.strip_suffix("ms") {
            Some(d) => (d, true),
            None => (text, false),
        };
        let n: u32 = digits
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("`{text}` is not a budget: a number of playouts (`500`) or of milliseconds (`200ms`), above zero"))?;
        Ok(if ms {
            Budget::Time(Duration::from_millis(n.into()))
        } else {
            Budget::Playouts(n)
        })
    }
}

/// The sampling bot.
#[derive(Debug, Clone)]
pub struct SamplerBot {
    seed: Seed,
    budget: Budget,
    /// A new match of the game being played (from its options), once known.
    game: Option<AnyGame>,
    /// Whether the missing rules were reported.
    warned: bool,
    /// The most a decision may take under the event's clock: a quarter of
    /// the per-action time, leaving the rest to the wire, the referee and
    /// the other seats this process may be deciding for at the same moment
    /// (a simultaneous step).
    limit: Option<Duration>,
}

impl SamplerBot {
    /// A sampler drawing from `seed` under `budget`.
    pub fn new(seed: Seed, budget: Budget) -> SamplerBot {
        SamplerBot {
            seed,
            budget,
            game: None,
            warned: false,
            limit: None,
        }
    }

    /// The budget.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// A new match of `obs`'s game: the one the rules named, else the
    /// game's defaults.
    fn fresh(&mut self, obs: &Observation) -> Option<AnyGame> {
        if let Some(g) = &self.game
            && g.variant() == obs.game
            && g.seats() == obs.seats as usize
        {
            return Some(g.clone());
        }
        if !self.warned {
            self.warned = true;
            tracing::warn!(
                "the sampler was not told the rules of this match (Bot::rules): it assumes {}'s defaults",
                obs.game
            );
        }
        let g = obs.game.new_game(&Options::new()).ok()?;
        (g.seats() == obs.seats as usize).then_some(g)
    }

    /// Every legal action's value in each world drawn (one row a world,
    /// one column an action) with the worlds' weights, or `None` where no
    /// world could be drawn.
    pub fn playouts(&mut self, obs: &Observation, legal: &[Action]) -> Option<Playouts> {
        let fresh = self.fresh(obs)?;
        let sampler = WorldSampler::new(&fresh, obs).ok()?;
        let key = ((obs.deal as u64) << 24) | (obs.history.len() as u64 & 0xff_ffff);
        let mut rng = Shuffler::new(self.seed.derive(Domain::Bot, key));
        let me = obs.seat;
        let mut out = Playouts::default();
        let started = Instant::now();
        loop {
            let worlds = out.weights.len() as u32;
            let spent = started.elapsed();
            let done = worlds > 0
                && (self.limit.is_some_and(|l| spent >= l)
                    || match self.budget {
                        Budget::Playouts(p) => worlds * legal.len() as u32 >= p,
                        Budget::Time(t) => spent >= t,
                    });
            if done {
                break;
            }
            let world = sampler.sample(&mut rng, ATTEMPTS)?;
            let mut row = Vec::with_capacity(legal.len());
            for &action in legal {
                let mut g = world.game.clone();
                g.apply(me, action).ok()?;
                row.push(play_out(&mut g, me, obs.deal, &mut rng));
            }
            out.values.push(row);
            out.weights.push(world.weight);
        }
        Some(out)
    }

    /// The estimated value of each legal action (the weighted mean over the
    /// worlds), or `None` where no world could be drawn.
    pub fn evaluate(&mut self, obs: &Observation, legal: &[Action]) -> Option<Vec<f64>> {
        let p = self.playouts(obs, legal)?;
        Some((0..legal.len()).map(|a| p.mean(|row| row[a])).collect())
    }
}

/// The values of a decision's playouts (see [`SamplerBot::playouts`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Playouts {
    /// One row a world: each legal action's value there.
    pub values: Vec<Vec<f64>>,
    /// Each world's importance weight.
    pub weights: Vec<f64>,
}

impl Playouts {
    /// The weighted mean of `f` over the worlds.
    fn mean(&self, f: impl Fn(&[f64]) -> f64) -> f64 {
        let total: f64 = self.weights.iter().sum();
        self.values
            .iter()
            .zip(&self.weights)
            .map(|(row, w)| w * f(row))
            .sum::<f64>()
            / total
    }

    /// The action to play: the best on average, if it beats `default` (the
    /// heuristic's choice) by more than one standard error of their paired
    /// difference over the same worlds; else `default`. With many actions
    /// and few worlds the best-looking action is often just lucky (the
    /// winner's curse); this keeps the sampler from paying for it.
    pub fn choose(&self, default: usize) -> usize {
        let actions = self.values.first().map_or(0, Vec::len);
        let mut best = default;
        let mut best_mean = 0.0_f64;
        for a in (0..actions).filter(|&a| a != default) {
            let diff = |row: &[f64]| row[a] - row[default];
            let mean = self.mean(diff);
            let n = self.values.len() as f64;
            let var = self.mean(|row| (diff(row) - mean).powi(2));
            let se = (var / n).sqrt();
            if mean - se > best_mean {
                best = a;
                best_mean = mean - se;
            }
        }
        best
    }
}

/// Plays the hand of deal `deal` to its end with the heuristic for every
/// seat; returns the hand's score for `me`'s side against the other sides'
/// average (negated where lower totals are better).
fn play_out(g: &mut AnyGame, me: Seat, deal: u32, rng: &mut Shuffler) -> f64 {
    playout::play_out(g, deal, Rollout::Heuristic, rng);
    playout::hand_value(g, me, deal)
}

impl Bot for SamplerBot {
    fn choose(&mut self, obs: &Observation, legal: &[Action]) -> usize {
        if legal.len() == 1 {
            return 0;
        }
        let default = HeuristicBot.choose(obs, legal);
        match self.playouts(obs, legal) {
            Some(p) => p.choose(default),
            None => default,
        }
    }

    fn rules(&mut self, variant: Variant, options: &Options) {
        self.game = variant.new_game(options).ok();
    }

    fn clock(&mut self, per_action: Duration, _bank: Duration) {
        self.limit = (!per_action.is_zero()).then_some(per_action / 4);
    }

    fn wants_events(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use whistle_rules::{Game, Options, Variant, dealing};

    use super::*;
    use crate::{bot_by_name, bot_seed, play_match};

    #[test]
    fn budgets_read_playouts_and_milliseconds() {
        assert_eq!(Budget::parse("500"), Ok(Budget::Playouts(500)));
        assert_eq!(
            Budget::parse("200ms"),
            Ok(Budget::Time(Duration::from_millis(200)))
        );
        for bad in ["0", "0ms", "", "ms", "-3", "fast", "1.5"] {
            assert!(Budget::parse(bad).is_err(), "{bad}");
        }
        assert!(bot_by_name("sampler:50", Seed::default()).is_ok());
        assert!(bot_by_name("Sampler:20ms", Seed::default()).is_ok());
        let err = bot_by_name("sampler:0", Seed::default()).err().unwrap();
        assert!(err.to_string().contains("sampler:500"), "{err}");
    }

    /// A decision in the middle of an Israeli hand (after the auction and
    /// bids, a few tricks in).
    fn mid_hand() -> (AnyGame, Seat) {
        let mut g = Variant::Israeli.new_game(&Options::new()).unwrap();
        let seed = Seed::from_u64(11);
        let mut h = HeuristicBot;
        loop {
            if dealing::deal_if_needed(&mut g, seed).unwrap() {
                continue;
            }
            let s = g.to_act().first().unwrap();
            if g.phase() == whistle_rules::Phase::Play && g.observe(s).tricks.len() >= 3 {
                return (g, s);
            }
            let legal = g.legal_actions(s);
            let i = h.choose(&g.observe(s), &legal);
            g.apply(s, legal[i]).unwrap();
        }
    }

    #[test]
    fn the_same_seed_and_observation_give_the_same_choice() {
        let (g, s) = mid_hand();
        let obs = g.observe(s);
        let legal = g.legal_actions(s);
        assert!(legal.len() > 1);
        let mut a = SamplerBot::new(Seed::from_u64(1), Budget::Playouts(60));
        let mut b = SamplerBot::new(Seed::from_u64(1), Budget::Playouts(60));
        let va = a.evaluate(&obs, &legal).expect("worlds are drawn");
        assert_eq!(va.len(), legal.len());
        assert!(va.iter().all(|v| v.is_finite()));
        assert_eq!(Some(va), b.evaluate(&obs, &legal));
        assert_eq!(a.choose(&obs, &legal), b.choose(&obs, &legal));
    }

    /// Every game's default match, the sampler in every seat with a small
    /// budget: every answer is in range (play_match checks) and the match
    /// ends.
    #[test]
    fn plays_every_game_to_the_end() {
        for variant in Variant::ALL {
            let mut g = variant
                .new_game(&Options::parse(&["hands=1"]).unwrap())
                .unwrap();
            let seed = Seed::from_u64(5);
            let mut bots: Vec<Box<dyn Bot>> = (0..g.seats())
                .map(|s| bot_by_name("sampler:12", bot_seed(seed, s)).unwrap())
                .collect();
            let record = play_match(&mut g, seed, &mut bots).unwrap();
            assert!(g.is_over(), "{variant}");
            assert!(!record.hands.is_empty(), "{variant}");
        }
    }

    /// Every option set the engine's suites play each game under
    /// (`crates/rules/src/games/*/testdata/options.txt`), one hand, the
    /// sampler in every seat on a small budget: every answer in range, every
    /// match to its end.
    #[test]
    fn plays_every_option_set_of_every_game() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/rules/src/games");
        for variant in Variant::ALL {
            let path = root.join(variant.name()).join("testdata/options.txt");
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
            {
                let mut pairs: Vec<&str> = line
                    .split_whitespace()
                    .filter(|p| !p.starts_with("hands="))
                    .collect();
                pairs.push("hands=1");
                let Ok(options) = Options::parse(&pairs) else {
                    panic!("{variant}: {line}");
                };
                let Ok(mut g) = variant.new_game(&options) else {
                    // Some sets need their own `hands` (Oneonta's play-offs).
                    continue;
                };
                let seed = Seed::from_u64(3);
                let mut bot = SamplerBot::new(Seed::from_u64(1), Budget::Playouts(4));
                bot.rules(variant, &g.options());
                let mut decisions = 0;
                while !g.is_over() {
                    if dealing::deal_if_needed(&mut g, seed).unwrap() {
                        continue;
                    }
                    let s = g.to_act().first().unwrap();
                    let (obs, legal) = (g.observe(s), g.legal_actions(s));
                    let i = bot.choose(&obs, &legal);
                    assert!(i < legal.len(), "{variant} {line}");
                    g.apply(s, legal[i]).unwrap();
                    decisions += 1;
                }
                assert!(decisions > 0, "{variant} {line}");
            }
        }
    }

    /// Options other than the defaults reach the bot through `Bot::rules`:
    /// with them it samples (a three-seat multiplayer Oneonta is not the
    /// one-seat default), without them it cannot.
    #[test]
    fn the_rules_hook_gives_the_game_its_options() {
        let options = Options::parse(&["mode=multi", "players=3"]).unwrap();
        let mut g = Variant::Oneonta.new_game(&options).unwrap();
        dealing::deal_if_needed(&mut g, Seed::from_u64(2)).unwrap();
        let s = g.to_act().first().unwrap();
        let (obs, legal) = (g.observe(s), g.legal_actions(s));
        let mut bot = SamplerBot::new(Seed::from_u64(1), Budget::Playouts(20));
        assert_eq!(bot.evaluate(&obs, &legal), None);
        bot.rules(Variant::Oneonta, &g.options());
        assert!(bot.evaluate(&obs, &legal).is_some());
    }

    /// Under an event's clock a large playout budget gives way: the
    /// decision stops drawing worlds at a quarter of the per-action time.
    #[test]
    fn the_event_clock_caps_a_playout_budget() {
        let (g, s) = mid_hand();
        let (obs, legal) = (g.observe(s), g.legal_actions(s));
        let budget = 1_000_000;
        let mut bot = SamplerBot::new(Seed::from_u64(1), Budget::Playouts(budget));
        bot.clock(Duration::from_millis(20), Duration::from_secs(10));
        let p = bot.playouts(&obs, &legal).expect("worlds are drawn");
        let worlds = p.values.len() as u32;
        assert!(worlds >= 1);
        assert!(
            worlds * (legal.len() as u32) < budget,
            "{worlds} worlds: the clock did not stop it"
        );
    }

    #[test]
    fn a_time_budget_draws_at_least_one_world() {
        let (g, s) = mid_hand();
        let mut bot = SamplerBot::new(Seed::from_u64(1), Budget::Time(Duration::from_millis(1)));
        assert!(bot.evaluate(&g.observe(s), &g.legal_actions(s)).is_some());
    }
}
