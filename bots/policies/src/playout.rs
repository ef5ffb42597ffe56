//! Playouts: the rest of a hand played out by a fast policy in every seat,
//! and the hand's value for one seat.
//!
//! This is the inner loop of a Monte-Carlo bot: the sampler
//! ([`crate::sampler`]) plays every legal action out in each world it draws
//! with [`Rollout::Heuristic`], and the Python package runs batches of
//! playouts through [`play_out`] and [`hand_value`] without going back to
//! Python between decisions.
//!
//! ```
//! use whistle_policies::playout::{Rollout, hand_value, play_out};
//! use whistle_rules::{Game, Options, Variant, dealing::{self, Seed, Shuffler}};
//!
//! let mut game = Variant::Israeli.new_game(&Options::new()).unwrap();
//! dealing::deal_if_needed(&mut game, Seed::from_u64(7)).unwrap();
//! let deal = game.deals() - 1;
//! let me = game.to_act().first().unwrap();
//! let mut rng = Shuffler::new(Seed::from_u64(1));
//! let mut world = game.clone();
//! play_out(&mut world, deal, Rollout::Random, &mut rng);
//! assert_eq!(world.hand_results().last().unwrap().deal, deal);
//! println!("{}", hand_value(&world, me, deal));
//! ```

use std::{any::Any, fmt};

use whistle_rules::{ActionList, AnyGame, Game, ScoreOrder, Seat, Status, dealing::Shuffler};

use crate::heuristic::{HeuristicBot, Memo};

/// The policy a playout plays every seat with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rollout {
    /// A uniformly random legal action, drawn from the playout's
    /// [`Shuffler`] (`below(legal.len())`).
    Random,
    /// The heuristic bot's choice ([`HeuristicBot`]): deterministic, so the
    /// playouts of one position all agree.
    Heuristic,
}

impl Rollout {
    /// Every rollout policy, in the order error messages list them.
    pub const ALL: [Rollout; 2] = [Rollout::Random, Rollout::Heuristic];

    /// The policy's name: `random` or `heuristic`.
    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Heuristic => "heuristic",
        }
    }

    /// The policy named `name` (case-insensitive).
    ///
    /// # Errors
    /// [`UnknownRollout`] for any other name.
    pub fn from_name(name: &str) -> Result<Rollout, UnknownRollout> {
        Rollout::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| UnknownRollout(name.to_string()))
    }
}

impl fmt::Display for Rollout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rollout policy name that [`Rollout::from_name`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRollout(pub String);

impl fmt::Display for UnknownRollout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown playout policy `{}` (known: {})",
            self.0,
            Rollout::ALL.map(Rollout::name).join(", ")
        )
    }
}

impl std::error::Error for UnknownRollout {}

/// Plays the hand of deal `deal` (0-based: the hand in play is deal
/// `game.deals() - 1`) to its end with `rollout` in every seat; in a
/// simultaneous step the lowest seat still to act goes first (which shows
/// nobody anything: the game reveals the step when it completes). Returns
/// the decisions made. Does nothing once that hand is over or when the game
/// waits for a deal.
///
/// On an [`AnyGame`], the game inside is played out under its own type, so
/// that every call a decision makes (the legal actions, the heuristic's
/// views, applying) goes straight to that game instead of through the
/// enum's dispatch.
pub fn play_out<G: Game>(game: &mut G, deal: u32, rollout: Rollout, rng: &mut Shuffler) -> u32 {
    match (game as &mut dyn Any).downcast_mut::<AnyGame>() {
        Some(AnyGame::Israeli(g)) => play_out_in(g, deal, rollout, rng),
        Some(AnyGame::Honeymoon(g)) => play_out_in(g, deal, rollout, rng),
        Some(AnyGame::Illustrated(g)) => play_out_in(g, deal, rollout, rng),
        Some(AnyGame::Yogi(g)) => play_out_in(g, deal, rollout, rng),
        Some(AnyGame::Oneonta(g)) => play_out_in(g, deal, rollout, rng),
        None => play_out_in(game, deal, rollout, rng),
    }
}

/// [`play_out`] on the game's own type.
fn play_out_in<G: Game>(game: &mut G, deal: u32, rollout: Rollout, rng: &mut Shuffler) -> u32 {
    let mut decisions = 0;
    let mut legal = ActionList::new();
    let memo = Memo::default();
    while game.status() == Status::Act && game.deals() == deal + 1 {
        let Some(seat) = game.to_act().first() else {
            break;
        };
        legal.clear();
        // The seat is to act: its list without checking that again.
        game.append_legal(seat, &mut legal);
        let i = match (legal.len(), rollout) {
            (0, _) => break,
            (1, _) => 0,
            // The cast cannot truncate: a decision has at most MAX_ACTIONS choices.
            (n, Rollout::Random) => rng.below(n as u32) as usize,
            (_, Rollout::Heuristic) => HeuristicBot.choose_memo(game, seat, &legal, &memo),
        };
        // Legal: one of the list the game just gave for this seat.
        game.apply_unchecked(seat, legal[i]);
        decisions += 1;
    }
    decisions
}

/// The result of the hand of deal `deal` for `me`: its points for `me`'s
/// side against the other sides' average, negated where lower totals are
/// better (Yogi's fines), so that more is better in every game; 0 when that
/// hand has no result (it is not over).
pub fn hand_value<G: Game>(game: &G, me: Seat, deal: u32) -> f64 {
    let Some(result) = game.hand_results().last().filter(|r| r.deal == deal) else {
        return 0.0;
    };
    let teams = game.teams();
    let mine = teams[me.index()];
    // The other sides' points summed in seat order (as a list's sum adds
    // them: no point is -0.0, so starting from 0.0 changes nothing).
    let (mut sum, mut count) = (0.0, 0usize);
    for (s, &team) in teams.iter().enumerate() {
        if team != mine {
            sum += f64::from(result.points[s]);
            count += 1;
        }
    }
    let against = if count == 0 { 0.0 } else { sum / count as f64 };
    let value = f64::from(result.points[me.index()]) - against;
    match game.score_order() {
        ScoreOrder::HigherIsBetter => value,
        ScoreOrder::LowerIsBetter => -value,
    }
}

#[cfg(test)]
mod tests {
    use whistle_rules::{
        AnyGame, Options, Variant,
        dealing::{self, Seed},
    };

    use super::*;

    fn dealt(variant: Variant, seed: u64) -> AnyGame {
        let mut g = variant.new_game(&Options::new()).unwrap();
        dealing::deal_if_needed(&mut g, Seed::from_u64(seed)).unwrap();
        g
    }

    #[test]
    fn names_round_trip_and_unknown_names_list_the_known() {
        for r in Rollout::ALL {
            assert_eq!(Rollout::from_name(r.name()), Ok(r));
        }
        assert_eq!(Rollout::from_name(" Heuristic "), Ok(Rollout::Heuristic));
        assert_eq!(
            Rollout::from_name("clever").unwrap_err().to_string(),
            "unknown playout policy `clever` (known: random, heuristic)"
        );
    }

    #[test]
    fn every_game_plays_its_first_hand_to_the_end_and_no_further() {
        for variant in Variant::ALL {
            for rollout in Rollout::ALL {
                let mut g = dealt(variant, 3);
                let deal = g.deals() - 1;
                let mut rng = Shuffler::new(Seed::from_u64(5));
                let decisions = play_out(&mut g, deal, rollout, &mut rng);
                assert!(decisions > 0, "{variant} {rollout}");
                let results = g.hand_results();
                assert_eq!(results.len(), 1, "{variant} {rollout}");
                assert_eq!(results[0].deal, deal);
                // The next hand waits for its deal: nothing is played.
                assert_eq!(play_out(&mut g, deal, rollout, &mut rng), 0);
                assert_eq!(g.deals(), deal + 1);
            }
        }
    }

    #[test]
    fn random_playouts_follow_their_stream_and_heuristic_ones_agree() {
        let g = dealt(Variant::Israeli, 9);
        let me = g.to_act().first().unwrap();
        let values = |rollout, seed| {
            let mut rng = Shuffler::new(Seed::from_u64(seed));
            (0..20)
                .map(|_| {
                    let mut w = g.clone();
                    play_out(&mut w, 0, rollout, &mut rng);
                    hand_value(&w, me, 0)
                })
                .collect::<Vec<_>>()
        };
        let a = values(Rollout::Random, 1);
        assert_eq!(a, values(Rollout::Random, 1));
        assert_ne!(a, values(Rollout::Random, 2));
        assert!(a.iter().any(|&v| v != a[0]), "{a:?}");
        let h = values(Rollout::Heuristic, 1);
        assert!(h.iter().all(|&v| v == h[0]), "{h:?}");
        assert_eq!(h, values(Rollout::Heuristic, 2));
    }

    /// A heuristic playout (one dispatch on the game inside, the memo kept
    /// across its decisions) makes the choices `choose_in` makes
    /// decision by decision on the `AnyGame`, with a fresh memo each time.
    #[test]
    fn heuristic_playouts_choose_as_each_decision_alone() {
        for variant in Variant::ALL {
            for seed in 0..8 {
                let g = dealt(variant, seed);
                let deal = g.deals() - 1;
                let mut fast = g.clone();
                let mut rng = Shuffler::new(Seed::from_u64(seed));
                let decisions = play_out(&mut fast, deal, Rollout::Heuristic, &mut rng);
                let mut slow = g.clone();
                let mut made = 0;
                while slow.status() == Status::Act && slow.deals() == deal + 1 {
                    let seat = slow.to_act().first().unwrap();
                    let legal = slow.legal_actions(seat);
                    let i = match legal.len() {
                        1 => 0,
                        _ => HeuristicBot.choose_in(&slow, seat, &legal),
                    };
                    slow.apply(seat, legal[i]).unwrap();
                    made += 1;
                }
                assert_eq!(decisions, made, "{variant} {seed}");
                assert_eq!(
                    format!("{:?}", fast.log()),
                    format!("{:?}", slow.log()),
                    "{variant} {seed}"
                );
                assert_eq!(
                    format!("{:?}", fast.hand_results()),
                    format!("{:?}", slow.hand_results()),
                    "{variant} {seed}"
                );
            }
        }
    }

    #[test]
    fn the_value_is_the_sides_points_against_the_others_average() {
        for variant in Variant::ALL {
            let mut g = dealt(variant, 11);
            let mut rng = Shuffler::new(Seed::from_u64(1));
            play_out(&mut g, 0, Rollout::Random, &mut rng);
            let r = g.hand_results()[0].clone();
            let teams = g.teams();
            let sign = match g.score_order() {
                ScoreOrder::HigherIsBetter => 1.0,
                ScoreOrder::LowerIsBetter => -1.0,
            };
            for s in 0..g.seats() {
                let others: Vec<f64> = (0..g.seats())
                    .filter(|&o| teams[o] != teams[s])
                    .map(|o| f64::from(r.points[o]))
                    .collect();
                let mean = if others.is_empty() {
                    0.0
                } else {
                    others.iter().sum::<f64>() / others.len() as f64
                };
                let expected = sign * (f64::from(r.points[s]) - mean);
                assert_eq!(hand_value(&g, Seat::new(s), 0), expected, "{variant} {s}");
            }
            // Another hand's value is not this one's.
            assert_eq!(hand_value(&g, Seat::new(0), 1), 0.0);
        }
    }
}
