//! Conformance of every game to the `Game` contract, by seeded random playouts.
//!
//! One generic harness (in the spirit of OpenSpiel's `basic_tests.h`) plays
//! thousands of seeded random matches for every game in `Variant::ALL` under
//! every option set in each game's `testdata/options.txt` (uniform play, plus biased play
//! that reaches the rare paths such as Israeli frisches and misdeals; every
//! kind of action a game has must get played), and at every state checks what
//! any driver (the referee, replays, bots) relies on:
//!
//! * status, `to_act` and the observations agree: a deal step has no one to
//!   act, a decision step has at least one seat, each with at least one legal
//!   action, and only the match's end has a result;
//! * every legal action is accepted by `Game::apply`, agrees with `check` and
//!   `validate`, belongs to the game's vocabulary (its kind is accepted,
//!   and `Game::vocabulary` under the case's options, the same at every
//!   state, gives it an id), and its canonical text parses back to it
//!   (`parse_action`, `resolve`);
//! * anything else (every shape of action with random payloads, actions by
//!   seats not to act, actions while a deal is awaited or after the end) is
//!   refused with a reason and leaves the game unchanged;
//! * matches end, and results add up: each hand's totals are the running sum
//!   of its points, the match totals are the last hand's, ranks follow the
//!   score order;
//! * `Game::deal` refuses a deck with a card missing, repeated, foreign or
//!   extra.
//!
//! Sizes: `CI=true` runs fewer matches; either way the total is thousands of
//! hands per game (each run asserts a floor). See `sizes` for a longer soak.

mod common;

use std::collections::BTreeSet;

use common::{Case, Driver, Policy, Rng, action_universe, cases, option_sets, random_action};
use whistle_rules::{
    Action, ActionKind, AnyGame, Card, DealError, Game, IllegalReason, Observation, Phase, Seat,
    SeatSet, Status, Variant, ranks_by,
};

/// More actions than any match here should take.
const MAX_STEPS: usize = 200_000;

/// Matches per option set (with every check at every state, with the cheaper
/// per-state checks) and the first match seed. `WHISTLE_CONFORMANCE=h,l,seed`
/// overrides them for a longer soak, e.g. `WHISTLE_CONFORMANCE=200,5000,777`
/// with `--release`.
fn sizes() -> (u64, u64, u64) {
    if let Ok(v) = std::env::var("WHISTLE_CONFORMANCE") {
        let n: Vec<u64> = v
            .split(',')
            .map(|x| {
                x.trim()
                    .parse()
                    .expect("WHISTLE_CONFORMANCE=heavy,light[,seed]")
            })
            .collect();
        return (n[0], n[1], n.get(2).copied().unwrap_or(0));
    }
    if common::in_ci() {
        (10, 120, 0)
    } else {
        (16, 180, 0)
    }
}

fn debug(game: &AnyGame) -> String {
    format!("{game:?}")
}

thread_local! {
    /// The observation `observe_into` refills, kept from state to state.
    static REUSED: std::cell::RefCell<Option<Observation>> = const { std::cell::RefCell::new(None) };
}

/// Checks one state. `heavy` adds every legal action applied on a clone, the
/// whole action universe checked against the legal list, and state
/// comparisons after refused actions.
fn check_state(case: &Case, game: &AnyGame, rng: &mut Rng, universe: &[Action], heavy: bool) {
    let label = &case.label;
    let seats = game.seats();
    assert!((1..=whistle_rules::MAX_SEATS).contains(&seats), "{label}");
    let status = game.status();
    let to_act = game.to_act();
    match status {
        Status::Deal => {
            assert!(to_act.is_empty(), "{label}: someone to act at a deal");
            assert!(game.result().is_none(), "{label}: a result before the end");
            assert!(!game.deck().is_empty(), "{label}: an empty deck");
        }
        Status::Act => {
            assert!(!to_act.is_empty(), "{label}: no seat to act");
            assert!(game.result().is_none(), "{label}: a result before the end");
            assert!(
                to_act.iter().all(|s| s.index() < seats),
                "{label}: to_act names a seat outside the table"
            );
        }
        Status::Over => {
            assert!(to_act.is_empty(), "{label}: someone to act after the end");
            assert!(game.result().is_some(), "{label}: no result at the end");
        }
    }
    if game.simultaneous() {
        assert_eq!(
            status,
            Status::Act,
            "{label}: simultaneous outside a decision"
        );
    }

    // Every refused action in this state goes to this one clone; at the end
    // it must still be identical to the original.
    let mut refused = game.clone();
    for seat in Seat::all(seats) {
        let obs = game.observe(seat);
        // What compact requests build: the same observation, no history.
        let without = game.observe_without_history(seat);
        assert!(without.history.is_empty(), "{label}: a history");
        assert_eq!(
            without,
            Observation {
                history: Vec::new(),
                ..obs.clone()
            },
            "{label}: observe_without_history differs from observe beyond the history"
        );
        // What the referee builds: the same, refilled into an observation
        // of any earlier state (another seat, hand, game or option set, as
        // this thread's cases come).
        REUSED.with_borrow_mut(|reused| {
            let out = reused.get_or_insert_with(|| obs.clone());
            game.observe_into(seat, true, out);
            assert_eq!(*out, obs, "{label}: observe_into differs from observe");
            game.observe_into(seat, false, out);
            assert_eq!(
                *out, without,
                "{label}: observe_into without history differs from observe_without_history"
            );
        });
        assert_eq!(obs.game, case.variant, "{label}");
        assert_eq!(obs.seat, seat, "{label}");
        assert_eq!(obs.seats as usize, seats, "{label}");
        assert_eq!(obs.players.len(), seats, "{label}");
        assert_eq!(
            obs.me().known,
            obs.hand,
            "{label}: a seat knows its own hand"
        );
        assert_eq!(obs.me().held as usize, obs.hand.len(), "{label}");
        assert_eq!(obs.simultaneous, game.simultaneous(), "{label}");
        assert_eq!(
            obs.phase == Phase::Deal,
            status == Status::Deal,
            "{label}: phase"
        );
        assert_eq!(
            obs.phase == Phase::Over,
            status == Status::Over,
            "{label}: phase"
        );
        if game.simultaneous() {
            assert!(
                to_act.iter().all(|s| obs.to_act.contains(s)),
                "{label}: a simultaneous step hides who is to act"
            );
        } else {
            assert_eq!(obs.to_act, to_act, "{label}: observed to_act");
        }
        if status == Status::Act {
            assert_eq!(obs.deal + 1, game.deals(), "{label}: observed deal index");
            assert!(
                game.seen_by(seat).and(obs.hand) == obs.hand,
                "{label}: a seat has not seen its own hand"
            );
        }

        let legal = game.legal_actions(seat);
        if !to_act.contains(seat) {
            assert!(
                legal.is_empty(),
                "{label}: seat {seat} not to act has legal actions"
            );
            let a = random_action(rng);
            let err = refused
                .apply(seat, a)
                .expect_err("an action by a seat not to act");
            let expected = match status {
                Status::Deal => IllegalReason::AwaitingDeal,
                Status::Over => IllegalReason::MatchOver,
                Status::Act if game.simultaneous() => IllegalReason::NotYourTurn {
                    to_act: SeatSet::EMPTY,
                },
                Status::Act => IllegalReason::NotYourTurn {
                    to_act: game.to_act(),
                },
            };
            assert_eq!(err.reason, expected, "{label}: {a} by {seat}");
            continue;
        }

        // `legal_actions_into` appends to what the list already holds.
        if legal.len() < whistle_rules::MAX_ACTIONS {
            let mut appended = whistle_rules::ActionList::new();
            appended.push(Action::Pass);
            game.legal_actions_into(seat, &mut appended);
            assert_eq!(&appended[1..], &legal[..], "{label}: legal_actions_into");
        }
        assert!(
            !legal.is_empty(),
            "{label}: seat {seat} to act has no legal action"
        );
        for (i, &a) in legal.iter().enumerate() {
            assert!(!legal[..i].contains(&a), "{label}: {a} listed twice");
            assert_eq!(
                game.check(seat, a),
                Ok(()),
                "{label}: legal {a} fails check"
            );
            assert_eq!(game.validate(seat, a), Ok(()), "{label}: legal {a}");
            assert!(
                game.accepts(a.kind()),
                "{label}: legal {a} outside the vocabulary"
            );
            assert!(
                case.vocabulary.contains(a),
                "{label}: legal {a} has no id in `Game::vocabulary`"
            );
            let text = a.to_string();
            assert_eq!(
                game.parse_action(&text),
                Ok(a),
                "{label}: `{text}` round trip"
            );
            assert_eq!(
                game.resolve(seat, &text),
                Ok(a),
                "{label}: resolve `{text}`"
            );
            if heavy {
                let mut g = game.clone();
                g.apply(seat, a)
                    .unwrap_or_else(|e| panic!("{label}: legal action refused: {e}"));
            }
        }

        // Legal iff check() says so; everything else is refused with a reason
        // and changes nothing.
        let sample: Vec<Action> = if heavy {
            universe.to_vec()
        } else {
            (0..6).map(|_| random_action(rng)).collect()
        };
        for &a in &sample {
            let is_legal = legal.contains(&a);
            assert_eq!(
                game.check(seat, a).is_ok(),
                is_legal,
                "{label}: check({a}) disagrees with the legal list {legal:?}"
            );
            if is_legal {
                continue;
            }
            let err = refused.apply(seat, a).expect_err("an illegal action");
            assert_eq!(err.seat, seat, "{label}");
            assert_eq!(err.action, a, "{label}");
            assert_eq!(Err(err.reason.clone()), game.validate(seat, a), "{label}");
            if !heavy {
                assert!(!err.to_string().is_empty(), "{label}");
            }
        }
    }

    // A seat beyond the table is never to act.
    if seats < whistle_rules::MAX_SEATS && status == Status::Act {
        let outside = Seat::new(seats);
        assert!(game.legal_actions(outside).is_empty(), "{label}");
        let err = refused
            .apply(outside, random_action(rng))
            .expect_err("a seat outside the table");
        assert_eq!(
            err.reason,
            IllegalReason::NoSuchSeat { seats: seats as u8 },
            "{label}"
        );
    }
    if status != Status::Deal {
        let order: Vec<Card> = game.deck().iter().collect();
        assert_eq!(refused.deal(&order), Err(DealError::NotExpected), "{label}");
    }
    if heavy {
        assert_eq!(
            debug(game),
            debug(&refused),
            "{label}: a refused action or deal changed the game"
        );
        assert!(
            game.vocabulary() == case.vocabulary,
            "{label}: the vocabulary changed with the state"
        );
    }

    // Deals are refused unless one is expected, and only the deck's own cards deal.
    if status == Status::Deal {
        check_bad_decks(case, game, rng, heavy);
    }
}

fn check_bad_decks(case: &Case, game: &AnyGame, rng: &mut Rng, heavy: bool) {
    let label = &case.label;
    let deck = game.deck();
    let mut order: Vec<Card> = deck.iter().collect();
    rng.shuffle(&mut order);
    let before = heavy.then(|| debug(game));
    let mut g = game.clone();

    // A card missing.
    let short = &order[..order.len() - 1];
    assert_eq!(
        g.deal(short),
        Err(DealError::WrongCards {
            expected: deck.len(),
            got: deck.len() - 1
        }),
        "{label}: a deck with a card missing"
    );
    // A card too many (a repeat).
    let mut long = order.clone();
    long.push(order[0]);
    assert!(
        matches!(g.deal(&long), Err(DealError::WrongCards { .. })),
        "{label}: a deck with an extra card"
    );
    // A card twice, another missing.
    let mut dup = order.clone();
    let i = rng.below(dup.len());
    let j = (i + 1 + rng.below(dup.len() - 1)) % dup.len();
    dup[j] = dup[i];
    assert_eq!(
        g.deal(&dup),
        Err(DealError::BadCard(dup[i])),
        "{label}: a deck with a repeated card"
    );
    // A card from outside the deck, if there is one.
    let foreign: Vec<Card> = (0..Card::COUNT)
        .filter_map(Card::from_index)
        .filter(|c| !deck.contains(*c))
        .collect();
    if !foreign.is_empty() {
        let mut bad = order.clone();
        let f = rng.pick(&foreign);
        bad[i] = f;
        assert_eq!(
            g.deal(&bad),
            Err(DealError::BadCard(f)),
            "{label}: a deck with a foreign card"
        );
    }
    assert_eq!(
        g.deal(&[]).is_err(),
        !deck.is_empty(),
        "{label}: an empty deck"
    );
    if let Some(before) = before {
        assert_eq!(
            before,
            debug(&g),
            "{label}: a refused deal changed the game"
        );
    }
    // The good order deals.
    g.deal(&order)
        .unwrap_or_else(|e| panic!("{label}: a permutation of the deck refused: {e}"));
}

/// Checks the newest hand result and the ones before it.
fn check_hand_results(case: &Case, game: &AnyGame, seen: &mut Vec<whistle_rules::HandResult>) {
    let label = &case.label;
    let results = game.hand_results();
    assert!(results.len() >= seen.len(), "{label}: hand results shrank");
    assert_eq!(
        &results[..seen.len()],
        &seen[..],
        "{label}: a past result changed"
    );
    let seats = game.seats();
    let teams = game.teams();
    for r in &results[seen.len()..] {
        let prev = seen.last().map_or(vec![0; seats], |p| p.totals.to_vec());
        assert_eq!(r.points.len(), seats, "{label}");
        assert_eq!(r.totals.len(), seats, "{label}");
        assert_eq!(r.tricks.len(), seats, "{label}");
        assert_eq!(r.bids.len(), seats, "{label}");
        assert_eq!(r.made.len(), seats, "{label}");
        for s in 0..seats {
            assert_eq!(
                r.totals[s],
                prev[s] + r.points[s],
                "{label}: totals are not the running sum of points ({r:?})"
            );
            for t in 0..seats {
                if teams[s] == teams[t] {
                    assert_eq!(r.points[s], r.points[t], "{label}: partners differ");
                }
            }
        }
        if r.misdeal {
            assert!(
                r.points.iter().all(|&p| p == 0),
                "{label}: a misdeal scored"
            );
        }
        if let Some(p) = seen.last() {
            assert!(r.deal > p.deal, "{label}: deal indices must increase");
        }
        assert!(
            r.deal < game.deals(),
            "{label}: a result for a deal not dealt"
        );
        assert!(!r.summary.is_empty(), "{label}: an empty summary");
        seen.push(r.clone());
    }
}

fn check_match_result(case: &Case, game: &AnyGame) {
    let label = &case.label;
    let result = game.result().expect("a finished match has a result");
    let hands = game.hand_results();
    let last = hands.last().expect("a match has at least one hand");
    assert_eq!(
        result.totals,
        last.totals.as_slice(),
        "{label}: match totals"
    );
    assert_eq!(result.order, game.score_order(), "{label}");
    assert_eq!(result.teams[..], game.teams()[..], "{label}");
    assert_eq!(
        result.ranks,
        ranks_by(&result.totals, result.order),
        "{label}: ranks"
    );
    assert_eq!(
        result.hands as usize,
        hands.iter().filter(|h| !h.misdeal).count(),
        "{label}: hands scored"
    );
    let winners = result.winners();
    assert!(!winners.is_empty(), "{label}: no winner");
    for w in &winners {
        for s in 0..game.seats() {
            assert!(
                !result
                    .order
                    .better(result.totals[s], result.totals[w.index()]),
                "{label}: a winner is beaten"
            );
        }
    }
}

/// What a run played, to make sure the rare paths were reached.
#[derive(Debug, Default)]
struct Coverage {
    hands: usize,
    actions: usize,
    misdeals: usize,
    simultaneous_steps: usize,
    kinds: BTreeSet<ActionKind>,
    phases: BTreeSet<String>,
}

/// Plays `count` matches of `case` from match seeds `first..`, checking every
/// state; the policy rotates with the seed (see `common::Policy`).
fn run_matches(case: &Case, first: u64, count: u64, heavy: bool, cov: &mut Coverage) {
    let universe = action_universe(30);
    for seed in first..first + count {
        let mut driver = Driver::new(case, seed);
        let mut rng = Rng::new(seed.wrapping_mul(31) ^ heavy as u64);
        let mut seen = Vec::new();
        let mut steps = 0;
        loop {
            check_state(case, &driver.game, &mut rng, &universe, heavy);
            check_hand_results(case, &driver.game, &mut seen);
            if driver.game.is_over() {
                break;
            }
            cov.simultaneous_steps += driver.game.simultaneous() as usize;
            cov.phases
                .insert(format!("{:?}", driver.game.observe(Seat::new(0)).phase));
            if let Some((_, action)) = driver.step(&mut rng, Policy::nth(seed)) {
                cov.kinds.insert(action.kind());
                steps += 1;
                assert!(
                    steps <= MAX_STEPS,
                    "{}: seed {seed} did not end",
                    case.label
                );
            }
        }
        check_match_result(case, &driver.game);
        cov.hands += seen.len();
        cov.misdeals += seen.iter().filter(|r| r.misdeal).count();
        cov.actions += steps;
    }
}

fn run_all(heavy: bool) {
    let (full, light, seed) = sizes();
    let count = if heavy { full } else { light };
    for variant in Variant::ALL {
        let mut total = Coverage::default();
        for case in cases().iter().filter(|c| c.variant == variant) {
            let first = seed + if heavy { 1_000_000 } else { 0 };
            let mut cov = Coverage::default();
            run_matches(case, first, count, heavy, &mut cov);
            println!(
                "{}: {count} matches, {} hands ({} misdeals), {} actions ({})",
                case.label,
                cov.hands,
                cov.misdeals,
                cov.actions,
                if heavy {
                    "every check"
                } else {
                    "per-state checks"
                }
            );
            assert!(
                cov.hands as u64 >= count,
                "{}: a match without a hand",
                case.label
            );
            total.hands += cov.hands;
            total.actions += cov.actions;
            total.misdeals += cov.misdeals;
            total.simultaneous_steps += cov.simultaneous_steps;
            total.kinds.extend(cov.kinds);
            total.phases.extend(cov.phases);
        }
        println!("{variant}: {total:?}");
        // Shrinking the sizes must not quietly make the suite trivial.
        let floor = if heavy { 100 } else { 1000 };
        assert!(
            total.hands >= floor,
            "{variant}: only {} hands played",
            total.hands
        );
        // Every kind of action the game has was played (the policies make the
        // rare ones, such as Israeli frisch passes, happen).
        if !heavy {
            let game = variant.new_game(&Default::default()).unwrap();
            for a in action_universe(30) {
                if game.accepts(a.kind()) {
                    assert!(
                        total.kinds.contains(&a.kind()),
                        "{variant}: no {:?} action was ever played",
                        a.kind()
                    );
                }
            }
        }
    }
}

#[test]
fn random_playouts_with_per_state_checks() {
    run_all(false);
}

#[test]
fn random_playouts_with_every_check() {
    run_all(true);
}

#[test]
fn option_table_covers_every_game_and_option() {
    for variant in Variant::ALL {
        let sets = option_sets(variant);
        assert!(!sets.is_empty(), "{variant}: no option sets");
        for spec in variant.option_specs() {
            let given = sets
                .iter()
                .any(|set| set.iter().any(|kv| kv.split('=').next() == Some(spec.key)));
            assert!(
                given,
                "{variant}: option `{}` is in no option set of its testdata/options.txt",
                spec.key
            );
        }
    }
}

#[test]
fn parse_action_accepts_exactly_the_games_vocabulary() {
    for case in cases() {
        let game = case.variant.new_game(&case.options).unwrap();
        for a in action_universe(99) {
            let text = a.to_string();
            match game.parse_action(&text) {
                Ok(parsed) => {
                    assert!(game.accepts(a.kind()), "{}: `{text}` parsed", case.label);
                    assert_eq!(parsed, a, "{}: `{text}`", case.label);
                }
                Err(e) => {
                    assert!(!game.accepts(a.kind()), "{}: `{text}`: {e}", case.label);
                    assert!(!e.reason.is_empty(), "{}", case.label);
                }
            }
        }
        for junk in [
            "",
            "   ",
            "bid",
            "hello",
            "AX",
            "give",
            "bid 5 6 7",
            "lead 13",
        ] {
            assert!(game.parse_action(junk).is_err(), "{}: `{junk}`", case.label);
        }
    }
}

#[test]
fn new_games_wait_for_a_deal_and_refuse_actions() {
    for case in cases() {
        let mut game = case.variant.new_game(&case.options).unwrap();
        assert_eq!(game.status(), Status::Deal, "{}", case.label);
        assert_eq!(game.deals(), 0, "{}", case.label);
        assert!(game.hand_results().is_empty(), "{}", case.label);
        for seat in Seat::all(game.seats()) {
            let err = game.apply(seat, Action::Pass).unwrap_err();
            assert_eq!(err.reason, IllegalReason::AwaitingDeal, "{}", case.label);
        }
        assert_eq!(game.variant(), case.variant);
        // The effective options contain every option the game declares and
        // build the same game again.
        let effective = game.options();
        for spec in case.variant.option_specs() {
            assert!(
                effective.get(spec.key).is_some(),
                "{}: {}",
                case.label,
                spec.key
            );
        }
        let again = case.variant.new_game(&effective).unwrap();
        assert_eq!(format!("{again:?}"), format!("{game:?}"), "{}", case.label);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Any sequence of choices (the k-th decision takes legal action
    /// `choices[k] mod len`, a random seat in a simultaneous step) from any
    /// seed keeps the contract; on failure proptest shrinks it to a short
    /// sequence that reproduces it.
    #[test]
    fn any_choice_sequence_keeps_the_contract(
        case_index in 0usize..64,
        seed in proptest::prelude::any::<u64>(),
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..400),
    ) {
        let all = cases();
        let case = &all[case_index % all.len()];
        let universe = action_universe(30);
        let mut driver = Driver::new(case, seed);
        let mut rng = Rng::new(seed);
        let mut seen = Vec::new();
        for &choice in &choices {
            if driver.game.is_over() {
                break;
            }
            check_state(case, &driver.game, &mut rng, &universe, false);
            check_hand_results(case, &driver.game, &mut seen);
            if driver.deal_if_needed() {
                continue;
            }
            let to_act: Vec<Seat> = driver.game.to_act().iter().collect();
            let seat = to_act[choice as usize % to_act.len()];
            let legal = driver.game.legal_actions(seat);
            let action = legal[choice as usize % legal.len()];
            driver.apply(seat, action).unwrap();
        }
        check_state(case, &driver.game, &mut rng, &universe, true);
        check_hand_results(case, &driver.game, &mut seen);
    }
}
