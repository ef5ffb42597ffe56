//! Determinism: the same seed and the same actions give the same everything,
//! today and after any dependency upgrade.
//!
//! * Every game under every option set, played twice from the same seed with
//!   the same actions, passes through identical states: the whole game's Debug
//!   text, every seat's observation and legal actions, and the results are
//!   compared at every step. A clone taken mid-match and a replay from the
//!   recorded deals end identically too.
//! * Golden vectors pin the dealing (seeds, their derivation, the raw ChaCha20
//!   words, bounded draws and deck orders for the 52-, 53-, 54- and 22-card
//!   decks). They were computed once and pasted here as literal text, so any
//!   change in `rand_chacha` or in the algorithm of `docs/dealing.md` fails
//!   this test; `dealing_reference.rs` checks the same lines against the Python
//!   reference.
//! * A golden Israeli match pins a whole match end to end: the deal as each
//!   seat receives it, then every hand summary and the final standing under a
//!   fixed deterministic policy.

mod common;

use common::{Driver, Rng, cases, fnv1a, replay};
use whistle_rules::{
    AnyGame, Card, CardSet, Game, Options, Seat, Variant,
    dealing::{self, Seed},
};

/// A fingerprint of everything observable about a state: the whole game,
/// every seat's observation and legal actions, and the results so far.
fn fingerprint(game: &AnyGame) -> u64 {
    let mut text = format!("{game:?}\n{:?}\n{:?}\n", game.status(), game.to_act());
    for seat in Seat::all(game.seats()) {
        text.push_str(&format!(
            "{:?}\n{:?}\n{}\n",
            game.observe(seat),
            game.legal_actions(seat),
            game.seen_by(seat)
        ));
    }
    text.push_str(&format!("{:?}\n{:?}\n", game.hand_results(), game.result()));
    fnv1a(text.as_bytes())
}

/// Plays a random match (the policy seeded by `policy`) and returns the
/// fingerprint of every state and the driver.
fn transcript(case: &common::Case, seed: u64, policy: u64) -> (Vec<u64>, Driver) {
    let mut driver = Driver::new(case, seed);
    let mut rng = Rng::new(policy);
    let mut prints = vec![fingerprint(&driver.game)];
    while !driver.game.is_over() {
        driver.step_random(&mut rng);
        prints.push(fingerprint(&driver.game));
    }
    (prints, driver)
}

#[test]
fn same_seed_and_actions_give_the_same_match_twice() {
    let matches = if common::in_ci() { 6 } else { 10 };
    for case in cases() {
        for seed in 0..matches {
            let (a, da) = transcript(&case, seed, seed + 100);
            let (b, db) = transcript(&case, seed, seed + 100);
            if let Some(step) = a.iter().zip(&b).position(|(x, y)| x != y) {
                panic!(
                    "{}: seed {seed}: the two runs differ at step {step}",
                    case.label
                );
            }
            assert_eq!(
                a.len(),
                b.len(),
                "{}: seed {seed}: lengths differ",
                case.label
            );
            assert_eq!(da.deals, db.deals, "{}: records differ", case.label);
            assert_eq!(da.game.result(), db.game.result(), "{}", case.label);
            assert_eq!(format!("{:?}", da.game), format!("{:?}", db.game));

            // Replaying the record from scratch gives the same game.
            let again = replay(case.variant, &case.options, &da.deals).unwrap();
            assert_eq!(
                fingerprint(&again),
                *a.last().unwrap(),
                "{}: replay",
                case.label
            );

            // A different seed gives a different first deal.
            let other = Driver::new(&case, seed + 1_000);
            let mut other = other;
            other.deal_if_needed();
            assert_ne!(other.deals[0].order, da.deals[0].order, "{}", case.label);
        }
    }
}

#[test]
fn a_clone_taken_mid_match_continues_identically() {
    for case in cases() {
        let mut driver = Driver::new(&case, 4242);
        let mut rng = Rng::new(1);
        for _ in 0..40 {
            driver.step_random(&mut rng);
        }
        let mut a = driver.clone();
        let mut b = driver;
        let (mut ra, mut rb) = (rng.clone(), rng);
        while !a.game.is_over() {
            a.step_random(&mut ra);
            b.step_random(&mut rb);
            assert_eq!(fingerprint(&a.game), fingerprint(&b.game), "{}", case.label);
        }
        assert!(b.game.is_over());
        assert_eq!(a.game.result(), b.game.result(), "{}", case.label);
    }
}

#[test]
fn deal_if_needed_deals_the_documented_order() {
    // `dealing::deal_if_needed` deals deal i of a match from
    // `deck_order(deal_seed(match_seed, i), deck)`: the same game dealt by
    // hand from that order is identical.
    for case in cases() {
        let seed = Seed::from_u64(77);
        let mut a = case.variant.new_game(&case.options).unwrap();
        let mut b = a.clone();
        assert!(dealing::deal_if_needed(&mut a, seed).unwrap());
        assert!(
            !dealing::deal_if_needed(&mut a, seed).unwrap(),
            "dealt twice"
        );
        let order = dealing::deck_order(seed.derive(dealing::Domain::Deal, 0), b.deck());
        b.deal(&order).unwrap();
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", case.label);
    }
}

/// Golden vectors: the exact text `docs/dealing.py` prints.
const GOLDEN: &str = "\
seed from_u64(0) = 0000000000000000000000000000000000000000000000000000000000000000
seed from_u64(1) = 0100000000000000000000000000000000000000000000000000000000000000
seed from_u64(18446744073709551615) = ffffffffffffffff000000000000000000000000000000000000000000000000
seed from_u64(1).derive(match,0) = 678b43eb80d3be0d3256d628ebe34e7625143713ac8f679d5742f34e43de354f
seed from_u64(1).derive(deal,0) = cbc3e5bb90e8afca06cb18c201c4b437f40689aa95a94814387c0efec5333e47
seed from_u64(1).derive(deal,1) = 8225150762c9266c1a8074f2ce5efdf433e9e8b3f457d6806ecc4934cf7d745c
seed from_u64(1).derive(fallback,0) = bddbfdf417940a966261c3e6304ae56bb6621f322fcf993d6200e8bce5f85252
seed from_u64(1).derive(bot,3) = e38a5082e2641a00f057d47a9bc37fcbc461d72f11c06ea10cd69faa3e638036
seed from_u64(1).derive(match,72057594037927935) = 80c419f6ed0ef8aebcd9b6f33055d077625bc624fb75b20112125e97163aefd5
seed from_u64(1).derive(round,1) = 30d54ba6c1f94ed56aeb06d6efe42a1cbfbef10248b2938bad7bc70af4dbd880
seed from_u64(1).derive(match,0).derive(deal,5) = 43036af0df0f6578ddd96c476689c35bd87077c71bff7126652de3eac5a88eaf
words from_u64(0) = ade0b876 903df1a0 e56a5d40 28bd8653 b819d2bd 1aed8da0 ccef36a8 c70d778b 7c5941da 8d485751 3fe02477 374ad8b8 f4b8436a 1ca11815 69b687c3 8665eeb2 bee7079f 7a385155 7c97ba98 0d082d73
below from_u64(1) n=2147483649 = 2081084357 1213188216 1435798051 584733339 1409966599 89521617 1661103423 1383107755 1555630115 2109460728 35728672 1386417784
below then n=52 = 15 20 19 4 50 0 16 26
below then n=3 = 2 1 2 0 0 0 1 1
deck standard match=from_u64(0) deal=0 = TS QD TC 3S 3C KH 7S 9C JH QH 3H JD AC TH 6C QC 8D 8C QS 7D JS 6H 6S 5C KC 9S 9H 2D 6D 2H KD 4S 7C 2C 8H AS AD 4H 4C AH TD 5D 2S 8S 3D 9D KS 4D 5H JC 7H 5S
deck standard match=from_u64(1) deal=0 = TH AS 7H 4C 3H JC 2S 5C 4D JS 9H AD 3D QD AC 5H QH QC 9S 9C QS 3C 8D TD 4H JD KS 8C JH 5D 7S KH 6C 6S 6H 4S 2C 8S 6D 3S 2H 7C KC 9D AH TS 5S 7D TC KD 2D 8H
deck standard match=from_u64(1) deal=1 = QD 7H 2C JH QC TD JS 5S 3D 3C 4H 6H 9H TS 2S 4S AD AC JC 8H 4C 7D JD 3H 7C 2D 3S 8S 6S 5D AH 8D KH KD 8C TC KS TH KC 9S 5H 2H 6D QH 7S 9D 6C 5C QS 9C 4D AS
deck standard match=from_u64(2026) deal=7 = 5D AC 7C KC QD 8C KD 6H TC 9H 4D 5C JD AS 2D 9C 6D 8S AD 3S TS 5S JC 2S JH 2H 8D 9D JS 5H TH QC 2C 3C 4C 3D KS 4S 3H 7H QH 6C KH QS 9S 8H 7D 6S TD 4H 7S AH
deck with-one-joker match=from_u64(1) deal=0 = TS 6S JS KD TD BJ 3H 8H 4H 2H 5D 9S KH 4D QC AH 7D 6C KC QS 3C 9D 3S KS 2C TH 6H 5S JH QH 6D 2S JC 8C 7H 8S 7S 4C AS 9C TC 7C 9H AC JD QD 4S 3D 2D 8D 5H 5C AD
deck with-two-jokers match=from_u64(1) deal=0 = 3H 5C 7D QC 9D 6D 4S QH QD KS 4H 5H TH 3C TC LJ JC 6C 9S AC 2S 3S AD KC 9C 8D 4D JH BJ 2C 2D 6H 9H KD 7H 8C 3D TD 8S JD 7C 5S AS 6S 7S TS JS 4C AH 2H QS 8H KH 5D
deck with-two-jokers match=from_u64(5) deal=3 = 5C 8D AH 2H KH JS KS QS TH TD JD KD 4D 7C 4H 6S 4S 6D 9C QC 2S AS QH 7D 5H LJ QD TS AC 9H JC 7H 5S 3H BJ 4C JH 6H 7S 8C 3S 6C 5D 9D 2C 9S 8H TC 3D KC 8S 3C 2D AD
deck reduced-ten match=from_u64(1) deal=0 = KC KH JC AH QS TD JS KS TS QH AS JH JD TH BJ QC QD TC AD LJ AC KD
deck reduced-ten match=from_u64(9) deal=9 = TS KD QS TC TH TD AC JC JH JS QC KH KS KC JD LJ AS BJ QD AD QH AH
";

#[test]
fn golden_dealing_vectors() {
    let expected: Vec<&str> = GOLDEN.lines().collect();
    let actual = common::golden_lines();
    for (i, (e, a)) in expected.iter().zip(&actual).enumerate() {
        assert_eq!(a, e, "golden line {i} changed (left: now, right: pinned)");
    }
    assert_eq!(actual.len(), expected.len());
}

#[test]
fn golden_vectors_are_self_consistent() {
    // The deck lines are permutations of their decks, and derive() agrees with
    // deal_seed().
    let one = Seed::from_u64(1);
    assert_eq!(
        dealing::deal_seed(one, 1),
        one.derive(dealing::Domain::Deal, 1)
    );
    for line in common::golden_lines()
        .iter()
        .filter(|l| l.starts_with("deck "))
    {
        let cards: Vec<Card> = line
            .split(" = ")
            .nth(1)
            .unwrap()
            .split(' ')
            .map(|c| c.parse().unwrap())
            .collect();
        let set: CardSet = cards.iter().copied().collect();
        assert_eq!(set.len(), cards.len(), "{line}: a repeated card");
    }
}

/// The golden Israeli match: seed `from_u64(20261122)`, `hands=2`, and at the
/// k-th decision of the match the seat to act plays `legal[k % legal.len()]`.
#[test]
fn golden_israeli_match() {
    let options = Options::parse(&["hands=2"]).unwrap();
    let mut game = Variant::Israeli.new_game(&options).unwrap();
    let seed = Seed::from_u64(20_261_122);
    let mut k = 0usize;
    let mut dealt = Vec::new();
    while !game.is_over() {
        if dealing::deal_if_needed(&mut game, seed).unwrap() {
            // I1: one card at a time, clockwise from the dealer's left.
            let order =
                dealing::deck_order(dealing::deal_seed(seed, game.deals() - 1), game.deck());
            for s in Seat::all(4) {
                let hand = game.observe(s).hand;
                let expected: CardSet = order
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| game.dealer().left(1 + i, 4) == s)
                    .map(|(_, &c)| c)
                    .collect();
                assert_eq!(hand, expected, "seat {s}");
                dealt.push(format!("deal {} seat {s}: {hand}", game.deals() - 1));
            }
            continue;
        }
        let seat = game.to_act().first().unwrap();
        let legal = game.legal_actions(seat);
        game.apply(seat, legal[k % legal.len()]).unwrap();
        k += 1;
    }
    assert_eq!(
        dealt,
        [
            "deal 0 seat 0: 2C QC 2D 4D 6D 3H 4H 5H 6H 9H QH TS JS",
            "deal 0 seat 1: 3C 9C AC 9D QD 2H 7H TH KH 7S 9S QS AS",
            "deal 0 seat 2: 4C 6C TC JC KC 5D JD 8H 2S 3S 4S 8S KS",
            "deal 0 seat 3: 5C 7C 8C 3D 7D 8D TD KD AD JH AH 5S 6S",
            "deal 1 seat 0: 2C 3C 4C 8C JC KC 5D 6D QD 5H 6H KH 2S",
            "deal 1 seat 1: 5C 6C 8D KD 3H 8H 9H TH JH AH 3S 8S 9S",
            "deal 1 seat 2: 7C TC AC 2D 7D JD 4H QH 4S 6S JS KS AS",
            "deal 1 seat 3: 9C QC 3D 4D 9D TD AD 2H 7H 5S 7S TS QS",
        ]
    );
    assert_eq!(k, 134, "decisions in the match");
    let hands: Vec<String> = game
        .hand_results()
        .iter()
        .map(|r| {
            format!(
                "{} | points {:?} | totals {:?}",
                r.summary, r.points, r.totals
            )
        })
        .collect();
    assert_eq!(
        hands,
        [
            "13NT by 2; bids 1 2 13 0 (over); tricks 1 4 0 8 | points [11, -20, -130, 20] | totals [11, -20, -130, 20]",
            "13NT by 3; bids 9 10 11 13 (over); tricks 1 2 5 5 | points [-80, -80, -60, -80] | totals [-69, -100, -190, -60]",
        ]
    );
    let result = game.result().unwrap();
    assert_eq!(result.totals, [-69, -100, -190, -60]);
    assert_eq!(result.ranks, [2, 3, 4, 1]);
    assert_eq!(result.winners(), [Seat::new(3)]);
    assert_eq!(result.hands, 2);
}
