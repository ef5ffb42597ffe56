//! One folder per game. Each holds the game's state type, its options, its
//! [`Game`](crate::Game) implementation by stage and its scenario tests; a
//! game is registered by one line below.

#[macro_use]
mod registry;

register! {
    israeli::Israeli,
    honeymoon::Honeymoon,
    illustrated::Illustrated,
    yogi::Yogi,
    oneonta::Oneonta,
}

mod core;
mod observe;
mod prelude;
mod tricks;
pub use self::core::MatchCore;
pub(crate) use self::observe::{Notes, Piles, Shown, observe, observe_into};

/// Helpers shared by the games' scenario tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::{
        Action, Card, CardSet, Event, Game, OptionError, Options, Player, Seat, Status, Trick,
        TrickRules,
        dealing::{Seed, Shuffler, deal_if_needed},
    };

    pub(crate) fn seat(i: usize) -> Seat {
        Seat::new(i)
    }

    pub(crate) fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    pub(crate) fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    /// Plays random legal actions (a random seat among those to act) from
    /// a seeded shuffler while the hand goes on, at most `steps`; returns
    /// what was played.
    pub(crate) fn random_steps<G: Game>(
        g: &mut G,
        rng: &mut Shuffler,
        steps: usize,
    ) -> Vec<(Seat, Action)> {
        let mut done = Vec::new();
        while g.status() == Status::Act && done.len() < steps {
            let to_act: Vec<Seat> = g.to_act().iter().collect();
            let s = if to_act.len() == 1 {
                to_act[0]
            } else {
                to_act[rng.below(to_act.len() as u32) as usize]
            };
            let legal = g.legal_actions(s);
            let a = legal[rng.below(legal.len() as u32) as usize];
            g.apply(s, a).unwrap();
            done.push((s, a));
        }
        done
    }

    /// Each option set of `given` reads back from the game's own options to
    /// the same config; each option of `bad` is refused.
    pub(crate) fn options_round_trip<G: Game, C: PartialEq + std::fmt::Debug>(
        new: impl Fn(&Options) -> Result<G, OptionError>,
        config: impl Fn(&G) -> C,
        given: &[&[&str]],
        bad: &[&str],
    ) {
        for set in given {
            let g = new(&Options::parse(set).unwrap()).unwrap();
            let again = new(&g.options()).unwrap();
            assert_eq!(config(&again), config(&g), "{set:?}");
        }
        for bad in bad {
            assert!(new(&Options::parse(&[bad]).unwrap()).is_err(), "{bad}");
        }
    }

    /// Plays a whole match of `g` with random legal actions from `seed`;
    /// the log keeps one buffer for every hand (it never reallocates).
    pub(crate) fn play_random_match<G: Game>(g: &mut G, seed: u64) {
        let seed = Seed::from_u64(seed);
        let mut rng = Shuffler::new(seed);
        let log_buffer = g.core().log().as_ptr();
        while !g.is_over() {
            if deal_if_needed(g, seed).unwrap() {
                continue;
            }
            random_steps(g, &mut rng, usize::MAX);
        }
        assert_eq!(g.core().log().as_ptr(), log_buffer, "the log reallocated");
    }

    /// The legal actions of seat `s` in `g`'s notation.
    pub(crate) fn legal_texts<G: Game>(g: &G, s: usize) -> Vec<String> {
        g.legal_actions(seat(s))
            .iter()
            .map(Action::to_string)
            .collect()
    }

    /// Which card wins a trick of `text` (cards played by seats 0, 1, ...
    /// in order) under `rules`: its index.
    pub(crate) fn trick_winner(rules: &TrickRules, text: &str) -> usize {
        let mut t = Trick::new();
        for (i, c) in text.split_whitespace().enumerate() {
            t.push(Player::Seat(seat(i)), card(c));
        }
        rules.winning_index(&t)
    }

    /// The first two events of a hand as `seat` sees them: the hand starts,
    /// and its cards are dealt.
    pub(crate) fn hand_start(deal: u32, dealer: Seat, seat: Seat, cards: CardSet) -> [Event; 2] {
        [
            Event::HandStart { deal, dealer },
            Event::Dealt { seat, cards },
        ]
    }

    /// Parses `text` in `g`'s notation and applies it for seat `s`; panics
    /// with the text and the reason when it is refused.
    pub(crate) fn act<G: Game>(g: &mut G, s: usize, text: &str) {
        let a = g
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        g.apply(seat(s), a)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}
