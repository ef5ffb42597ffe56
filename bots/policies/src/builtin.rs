//! The built-in bots and the factory that builds them by name.

use std::fmt;

use whistle_rules::{
    Action, Observation,
    dealing::{Domain, Seed, Shuffler},
};

use crate::{
    bot::Bot,
    sampler::{Budget, DEFAULT_PLAYOUTS, SamplerBot},
};

/// The names [`bot_by_name`] knows, in the order error messages list them.
pub const BOT_NAMES: [&str; 4] = ["random", "first", "heuristic", "sampler"];

/// Plays a uniformly random legal action, drawn from its own seed.
///
/// Stateless and deterministic: each decision draws from its own stream,
/// keyed by where the decision falls in the match, so the same seed and the
/// same observation always give the same choice, however the match got there
/// (a match resumed from its log makes the choices of an uninterrupted one).
/// The choice is `Shuffler::below(legal.len())` on
/// `seed.derive(Bot, deal << 24 | history length)` (`docs/dealing.md`), so a
/// bot in another language can reproduce it.
#[derive(Debug, Clone)]
pub struct RandomBot {
    seed: Seed,
}

impl RandomBot {
    /// A random bot drawing from `seed` (normally [`bot_seed`]).
    pub fn new(seed: Seed) -> RandomBot {
        RandomBot { seed }
    }

    /// The seed of the decision taken at `obs`.
    pub fn decision_seed(&self, obs: &Observation) -> Seed {
        let key = ((obs.deal as u64) << 24) | (obs.history.len() as u64 & 0xff_ffff);
        self.seed.derive(Domain::Bot, key)
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, obs: &Observation, legal: &[Action]) -> usize {
        // The cast cannot truncate: a decision has at most MAX_ACTIONS choices.
        Shuffler::new(self.decision_seed(obs)).below(legal.len() as u32) as usize
    }

    fn wants_events(&self) -> bool {
        false
    }
}

/// Always plays the first legal action (index 0).
#[derive(Debug, Clone, Copy, Default)]
pub struct FirstBot;

impl Bot for FirstBot {
    fn choose(&mut self, _obs: &Observation, _legal: &[Action]) -> usize {
        0
    }

    fn wants_events(&self) -> bool {
        false
    }
}

/// The seed of the built-in bot in `seat` of the match with `match_seed`:
/// `match_seed.derive(Domain::Bot, seat)`.
pub fn bot_seed(match_seed: Seed, seat: usize) -> Seed {
    match_seed.derive(Domain::Bot, seat as u64)
}

/// A bot name that [`bot_by_name`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownBot(pub String);

impl fmt::Display for UnknownBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown bot `{}` (known: {}; the sampler takes a budget as `sampler:500` playouts or `sampler:200ms`)",
            self.0,
            BOT_NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownBot {}

/// A built-in bot by name (case-insensitive, see [`BOT_NAMES`]); `seed` feeds
/// the bots that draw randomness and is ignored by the others. The sampler
/// takes a budget after a colon: `sampler:500` (playouts a decision) or
/// `sampler:200ms` (see [`crate::sampler`]).
///
/// # Errors
/// [`UnknownBot`] if no built-in bot has this name.
pub fn bot_by_name(name: &str, seed: Seed) -> Result<Box<dyn Bot>, UnknownBot> {
    match name.trim().to_ascii_lowercase().as_str() {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "first" => Ok(Box::new(FirstBot)),
        "heuristic" => Ok(Box::new(crate::heuristic::HeuristicBot)),
        "sampler" => Ok(Box::new(SamplerBot::new(
            seed,
            Budget::Playouts(DEFAULT_PLAYOUTS),
        ))),
        other => match other.strip_prefix("sampler:").map(Budget::parse) {
            Some(Ok(budget)) => Ok(Box::new(SamplerBot::new(seed, budget))),
            _ => Err(UnknownBot(name.to_string())),
        },
    }
}

#[cfg(test)]
mod tests {
    use whistle_rules::{Game, Options, Seat, Variant, dealing};

    use super::*;

    fn observation() -> (Observation, Vec<Action>) {
        let mut g = Variant::Israeli.new_game(&Options::new()).unwrap();
        dealing::deal_if_needed(&mut g, Seed::from_u64(3)).unwrap();
        let seat: Seat = g.to_act().first().unwrap();
        (g.observe(seat), g.legal_actions(seat).to_vec())
    }

    #[test]
    fn factory_knows_every_listed_name_and_nothing_else() {
        for name in BOT_NAMES {
            assert!(bot_by_name(name, Seed::default()).is_ok(), "{name}");
        }
        assert!(bot_by_name(" Random ", Seed::default()).is_ok());
        let err = bot_by_name("clever", Seed::default()).err().unwrap();
        assert_eq!(
            err.to_string(),
            "unknown bot `clever` (known: random, first, heuristic, sampler; the sampler takes a budget as `sampler:500` playouts or `sampler:200ms`)"
        );
    }

    #[test]
    fn first_bot_picks_index_zero() {
        let (obs, legal) = observation();
        assert_eq!(FirstBot.choose(&obs, &legal), 0);
    }

    #[test]
    fn random_bot_is_in_range_deterministic_and_varied() {
        let (obs, legal) = observation();
        // One decision by 200 bots with different seeds.
        let draws = |base: u64| {
            (0..200)
                .map(|i| RandomBot::new(Seed::from_u64(base * 1000 + i)).choose(&obs, &legal))
                .collect::<Vec<_>>()
        };
        let a = draws(9);
        assert!(a.iter().all(|&i| i < legal.len()));
        assert_eq!(a, draws(9));
        assert_ne!(a, draws(10));
        assert!(a.iter().any(|&i| i != a[0]));
    }

    #[test]
    fn random_bot_draws_below_on_its_seed() {
        // The documented derivation: seat seed from the match seed, then one
        // bounded draw on the stream of the decision's own seed.
        let (obs, legal) = observation();
        let seed = bot_seed(Seed::from_u64(5), 2);
        assert_eq!(seed, Seed::from_u64(5).derive(Domain::Bot, 2));
        let key = ((obs.deal as u64) << 24) | obs.history.len() as u64;
        let expected = Shuffler::new(seed.derive(Domain::Bot, key)).below(legal.len() as u32);
        let mut bot = RandomBot::new(seed);
        for _ in 0..3 {
            assert_eq!(bot.choose(&obs, &legal), expected as usize);
        }
    }
}
