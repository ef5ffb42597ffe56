//! [`play_match`]: one match played in-process, bots called directly.

use std::fmt;

use whistle_rules::{
    Action, DealError, DriveError, Event, Fallback, Game, HandResult, IllegalAction, MatchDriver,
    MatchResult, Seat, Status, Trump, dealing::Seed,
};

use crate::bot::Bot;

/// One hand as played: its result and what the table knew about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandRecord {
    /// The hand's result, as the game reported it.
    pub result: HandResult,
    /// Trump as it stood at the hand's last decision ([`Trump::Undecided`]
    /// for a hand thrown in before trump was fixed).
    pub trump: Trump,
    /// The contract or winning bid and its holder at the hand's last decision,
    /// if the game has one.
    pub contract: Option<(Seat, Action)>,
    /// Every event of the hand in full (the omniscient log, private events
    /// included), from the hand's start to its end.
    pub events: Vec<Event>,
}

impl HandRecord {
    /// The hand's calls in order: every decision that names no card (bids,
    /// passes, declarations...), with its seat. Card plays, passed cards and
    /// discards are left out.
    pub fn calls(&self) -> impl Iterator<Item = (Seat, Action)> + '_ {
        self.events.iter().filter_map(|e| match *e {
            Event::Action { seat, action } if action.card().is_none() => Some((seat, action)),
            _ => None,
        })
    }
}

/// A match played to the end by [`play_match`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchRecord {
    /// The hands completed during the call, in order (misdeals included).
    pub hands: Vec<HandRecord>,
    /// The match result.
    pub result: MatchResult,
    /// How many decisions the bots made.
    pub decisions: u64,
}

/// Why [`play_match`] could not finish a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchError {
    /// The number of bots is not the number of seats.
    SeatCount {
        /// Seats at the table.
        seats: usize,
        /// Bots given.
        bots: usize,
    },
    /// A bot answered with an index outside the list of legal actions.
    BadChoice {
        /// The bot's seat.
        seat: Seat,
        /// The index it gave.
        index: usize,
        /// How many legal actions there were.
        legal: usize,
    },
    /// The game waits for a seat that has no legal action (a bug in the game).
    NoLegalAction(Seat),
    /// The game waits for decisions but names no seat (a bug in the game).
    NobodyToAct,
    /// The game refused a deal from its own deck (a bug in the game).
    Deal(DealError),
    /// The game refused one of its own legal actions (a bug in the game).
    Illegal(IllegalAction),
    /// The game is over but gives no result (a bug in the game).
    NoResult,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::SeatCount { seats, bots } => {
                write!(f, "the game has {seats} seats but {bots} bots were given")
            }
            MatchError::BadChoice { seat, index, legal } => write!(
                f,
                "the bot in seat {seat} chose action {index} of {legal} (indices start at 0)"
            ),
            MatchError::NoLegalAction(seat) => {
                write!(
                    f,
                    "the game waits for seat {seat}, which has no legal action"
                )
            }
            MatchError::NobodyToAct => f.write_str("the game waits for decisions from no seat"),
            MatchError::Deal(e) => write!(f, "dealing failed: {e}"),
            MatchError::Illegal(e) => write!(f, "the game refused its own legal action: {e}"),
            MatchError::NoResult => f.write_str("the match is over but has no result"),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<DealError> for MatchError {
    fn from(e: DealError) -> MatchError {
        MatchError::Deal(e)
    }
}

/// Plays `game` to its end with `bots[s]` in seat `s`, dealing every hand from
/// `match_seed` ([`dealing::deal_if_needed`]).
///
/// Each seat that must act is given `game.observe(seat)` and
/// `game.legal_actions(seat)` and its choice is applied at once. When several
/// seats act in one step (a simultaneous step), they are asked one decision
/// each in ascending seat order, round after round, until the step completes.
/// After every deal and every action each bot receives the new events its seat
/// may see ([`Bot::on_event`]); after every hand, [`Bot::hand_over`].
///
/// `game` is normally a new match; a game already under way is played on from
/// where it stands, and only hands completed during the call are recorded.
/// The result depends only on the game, its options, `match_seed` and the
/// bots' choices: deterministic bots give the same record every time.
///
/// # Errors
/// [`MatchError::SeatCount`] if `bots` does not have one bot per seat,
/// [`MatchError::BadChoice`] if a bot answers out of range; the other
/// variants report a game that breaks the [`Game`] contract.
pub fn play_match<G: Game>(
    game: &mut G,
    match_seed: Seed,
    bots: &mut [Box<dyn Bot>],
) -> Result<MatchRecord, MatchError> {
    let seats = game.seats();
    if bots.len() != seats {
        return Err(MatchError::SeatCount {
            seats,
            bots: bots.len(),
        });
    }
    let (variant, options) = (game.variant(), game.options());
    for (i, bot) in bots.iter_mut().enumerate() {
        bot.rules(variant, &options);
        bot.new_match(Seat::new(i), seats);
    }
    let mut table = Table {
        feed_deal: game.deals(),
        feed_cursor: 0,
        results_seen: game.hand_results().len(),
        trump: Trump::Undecided,
        contract: None,
        hands: Vec::new(),
    };
    let mut decisions = 0;
    table.sync(game, bots);
    // The match driver deals and applies; bots are asked here.
    let mut driver = MatchDriver::new(game.clone(), match_seed, Fallback::First);
    loop {
        let deals = driver.game().deals();
        let round = driver.to_ask().map_err(|e| match e {
            DriveError::Deal { error, .. } => MatchError::Deal(error),
            DriveError::MissingDeal(_) | DriveError::Illegal { .. } => {
                unreachable!("no recorded deals or actions are replayed here")
            }
        })?;
        if driver.game().deals() != deals {
            table.trump = Trump::Undecided;
            table.contract = None;
            table.sync(driver.game(), bots);
        }
        if driver.game().is_over() {
            break;
        }
        if round.is_empty() {
            return Err(MatchError::NobodyToAct);
        }
        for seat in round.iter() {
            let game = driver.game();
            if game.status() != Status::Act {
                break;
            }
            if !game.to_act().contains(seat) {
                continue;
            }
            let obs = game.observe(seat);
            let legal = game.legal_actions(seat);
            if legal.is_empty() {
                return Err(MatchError::NoLegalAction(seat));
            }
            let index = bots[seat.index()].choose(&obs, &legal);
            let action = *legal.get(index).ok_or(MatchError::BadChoice {
                seat,
                index,
                legal: legal.len(),
            })?;
            table.trump = obs.trump;
            table.contract = obs.contract;
            driver
                .apply(seat, action, false)
                .map_err(MatchError::Illegal)?;
            decisions += 1;
            table.sync(driver.game(), bots);
        }
        // Events are read from the game's log by `table.sync`.
        driver.take_events();
    }
    *game = driver.into_game();
    let result = game.result().ok_or(MatchError::NoResult)?;
    for bot in bots.iter_mut() {
        bot.match_over(&result);
    }
    Ok(MatchRecord {
        hands: table.hands,
        result,
        decisions,
    })
}

/// The driver's bookkeeping between steps.
struct Table {
    /// The deal whose log `feed_cursor` points into.
    feed_deal: u32,
    /// How many entries of that log the bots have been sent.
    feed_cursor: usize,
    /// How many hand results have been recorded.
    results_seen: usize,
    /// Trump at the latest decision of the current hand.
    trump: Trump,
    /// The contract at the latest decision of the current hand.
    contract: Option<(Seat, Action)>,
    /// Hands recorded so far.
    hands: Vec<HandRecord>,
}

impl Table {
    /// Sends the bots the log entries they have not had yet, then records
    /// any newly completed hand. The log of a hand stays readable until the
    /// next deal, so a finished hand's events are still there.
    fn sync<G: Game>(&mut self, game: &G, bots: &mut [Box<dyn Bot>]) {
        if game.deals() != self.feed_deal {
            self.feed_deal = game.deals();
            self.feed_cursor = 0;
        }
        let log = game.log();
        for entry in log.iter().skip(self.feed_cursor) {
            for (i, bot) in bots.iter_mut().enumerate() {
                if let Some(event) = entry.seen_by(Seat::new(i)) {
                    bot.on_event(&event);
                }
            }
        }
        self.feed_cursor = log.len();

        let results = game.hand_results();
        for result in results.iter().skip(self.results_seen) {
            for bot in bots.iter_mut() {
                bot.hand_over(result);
            }
            self.hands.push(HandRecord {
                result: result.clone(),
                trump: self.trump,
                contract: self.contract,
                events: log.iter().map(|e| e.event).collect(),
            });
        }
        self.results_seen = results.len();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use whistle_rules::{ActionKind, Observation, Options, Variant};

    use super::*;
    use crate::builtin::{FirstBot, bot_by_name, bot_seed};

    fn israeli(options: &[&str]) -> impl Game {
        Variant::Israeli
            .new_game(&Options::parse(options).unwrap())
            .unwrap()
    }

    fn bots(names: &[&str], match_seed: Seed) -> Vec<Box<dyn Bot>> {
        names
            .iter()
            .enumerate()
            .map(|(s, n)| bot_by_name(n, bot_seed(match_seed, s)).unwrap())
            .collect()
    }

    fn play(options: &[&str], names: &[&str], seed: u64) -> MatchRecord {
        let seed = Seed::from_u64(seed);
        play_match(&mut israeli(options), seed, &mut bots(names, seed)).unwrap()
    }

    const MIXED: [&str; 4] = ["random", "first", "random", "first"];

    #[test]
    fn a_random_versus_first_match_of_israeli_completes_and_adds_up() {
        let record = play(&["hands=6"], &MIXED, 1);
        assert_eq!(record.hands.len(), 6);
        let mut totals = vec![0; 4];
        for (i, hand) in record.hands.iter().enumerate() {
            assert_eq!(hand.result.deal, i as u32);
            for (t, p) in totals.iter_mut().zip(&hand.result.points) {
                *t += p;
            }
            assert_eq!(*hand.result.totals, totals);
            assert!(matches!(hand.events.first(), Some(Event::HandStart { .. })));
            assert!(matches!(hand.events.last(), Some(Event::HandEnd { .. })));
            if !hand.result.misdeal {
                assert_ne!(hand.trump, Trump::Undecided);
                let (_, contract) = hand.contract.expect("a contract");
                assert_eq!(contract.kind(), ActionKind::Contract);
                assert_eq!(hand.result.tricks.iter().sum::<u8>(), 13);
            }
        }
        assert_eq!(record.result.totals, totals);
        assert!(record.decisions >= 6 * 52);
    }

    #[test]
    fn same_seed_same_match_other_seed_other_match() {
        let a = play(&["hands=4"], &MIXED, 7);
        assert_eq!(a, play(&["hands=4"], &MIXED, 7));
        let all_random = ["random"; 4];
        let b = play(&["hands=4"], &all_random, 7);
        assert_eq!(b, play(&["hands=4"], &all_random, 7));
        assert_ne!(b.hands, play(&["hands=4"], &all_random, 8).hands);
    }

    #[test]
    fn the_contract_is_the_last_auction_bid() {
        let record = play(&["hands=3"], &["random"; 4], 11);
        for hand in record.hands.iter().filter(|h| !h.result.misdeal) {
            let last_bid = hand
                .calls()
                .filter(|(_, a)| a.kind() == ActionKind::Contract)
                .last()
                .unwrap();
            assert_eq!(hand.contract, Some(last_bid));
        }
    }

    /// Bots that always take the first legal action always pass the auction:
    /// three frisches, then a misdeal, every hand.
    #[test]
    fn simultaneous_steps_ask_each_seat_in_ascending_order() {
        let order = Arc::new(Mutex::new(Vec::new()));
        struct Logger(Arc<Mutex<Vec<Seat>>>);
        impl Bot for Logger {
            fn choose(&mut self, obs: &Observation, legal: &[Action]) -> usize {
                if legal[0].kind() == ActionKind::Give {
                    self.0.lock().unwrap().push(obs.seat);
                }
                0
            }
        }
        let mut bots: Vec<Box<dyn Bot>> = (0..4)
            .map(|_| Box::new(Logger(order.clone())) as Box<dyn Bot>)
            .collect();
        let record = play_match(&mut israeli(&["hands=1"]), Seed::from_u64(2), &mut bots).unwrap();
        let hand = &record.hands[0];
        assert!(hand.result.misdeal);
        assert_eq!(hand.trump, Trump::Undecided);
        assert_eq!(hand.contract, None);
        let order: Vec<usize> = order.lock().unwrap().iter().map(|s| s.index()).collect();
        let one_frisch: Vec<usize> = (0..3).flat_map(|_| 0..4).collect();
        assert_eq!(order, one_frisch.repeat(3));
    }

    /// Follows the hooks a bot receives.
    #[derive(Default)]
    struct Seen {
        seat: Option<Seat>,
        matches: u32,
        events: u32,
        foreign_cards: u32,
        hands: u32,
        over: u32,
    }

    struct Watcher(Arc<Mutex<Seen>>);

    impl Bot for Watcher {
        fn choose(&mut self, obs: &Observation, _legal: &[Action]) -> usize {
            assert_eq!(Some(obs.seat), self.0.lock().unwrap().seat);
            0
        }
        fn new_match(&mut self, seat: Seat, seats: usize) {
            assert_eq!(seats, 4);
            let mut s = self.0.lock().unwrap();
            s.seat = Some(seat);
            s.matches += 1;
        }
        fn on_event(&mut self, event: &Event) {
            let mut s = self.0.lock().unwrap();
            s.events += 1;
            if let Event::Dealt { seat, .. } = event {
                if Some(*seat) != s.seat {
                    s.foreign_cards += 1;
                }
            }
        }
        fn hand_over(&mut self, _result: &HandResult) {
            self.0.lock().unwrap().hands += 1;
        }
        fn match_over(&mut self, _result: &MatchResult) {
            self.0.lock().unwrap().over += 1;
        }
    }

    #[test]
    fn bots_get_every_hook_and_only_their_own_cards() {
        let seen: Vec<_> = (0..4)
            .map(|_| Arc::new(Mutex::new(Seen::default())))
            .collect();
        let mut bots: Vec<Box<dyn Bot>> = seen
            .iter()
            .map(|s| Box::new(Watcher(s.clone())) as Box<dyn Bot>)
            .collect();
        play_match(&mut israeli(&["hands=2"]), Seed::from_u64(4), &mut bots).unwrap();
        for (i, s) in seen.iter().enumerate() {
            let s = s.lock().unwrap();
            assert_eq!(s.seat, Some(Seat::new(i)));
            assert_eq!((s.matches, s.hands, s.over), (1, 2, 1));
            assert_eq!(s.foreign_cards, 0);
            assert!(s.events > 0);
        }
    }

    #[test]
    fn wrong_bot_count_and_bad_indices_are_errors() {
        let seed = Seed::from_u64(1);
        let mut three = bots(&["first"; 3], seed);
        assert_eq!(
            play_match(&mut israeli(&[]), seed, &mut three).unwrap_err(),
            MatchError::SeatCount { seats: 4, bots: 3 }
        );

        struct Wild;
        impl Bot for Wild {
            fn choose(&mut self, _obs: &Observation, _legal: &[Action]) -> usize {
                usize::MAX
            }
        }
        let mut bots: Vec<Box<dyn Bot>> = vec![
            Box::new(FirstBot),
            Box::new(Wild),
            Box::new(FirstBot),
            Box::new(FirstBot),
        ];
        // Seat 1 (the dealer's left) opens the auction.
        let err = play_match(&mut israeli(&[]), seed, &mut bots).unwrap_err();
        assert!(matches!(
            err,
            MatchError::BadChoice { seat, index: usize::MAX, .. } if seat == Seat::new(1)
        ));
        assert!(err.to_string().contains("seat 1"));
    }
}
