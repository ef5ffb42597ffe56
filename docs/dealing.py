#!/usr/bin/env python3
"""Reference implementation of whistle's seeded dealing (docs/dealing.md).

Dependency-free Python 3: its own ChaCha20 block function, the seed
derivation, the unbiased bounded draw and the Fisher-Yates shuffle. Run it
with no arguments to print the golden vectors; the Rust test
crates/rules/tests/dealing_reference.rs checks that the engine prints exactly
the same text, and crates/rules/tests/determinism.rs pins that text.
"""

MASK32 = 0xFFFFFFFF

# Domains of Seed::derive.
MATCH, DEAL, FALLBACK, BOT, ROUND = 1, 2, 3, 4, 5
DOMAIN_NAMES = {MATCH: "match", DEAL: "deal", FALLBACK: "fallback", BOT: "bot", ROUND: "round"}

# ---------------------------------------------------------------- ChaCha20


def _rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK32


def _quarter_round(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl(s[b] ^ s[c], 7)


def chacha20_block(key, counter, stream):
    """The 16 output words of one ChaCha20 block (Bernstein's original layout).

    key: 32 bytes; counter: 64-bit block counter (words 12-13);
    stream: 64-bit stream id (words 14-15). Both are split low word first.
    """
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += [int.from_bytes(key[4 * i : 4 * i + 4], "little") for i in range(8)]
    state += [counter & MASK32, counter >> 32, stream & MASK32, stream >> 32]
    work = list(state)
    for _ in range(10):  # 20 rounds: 10 double rounds
        _quarter_round(work, 0, 4, 8, 12)
        _quarter_round(work, 1, 5, 9, 13)
        _quarter_round(work, 2, 6, 10, 14)
        _quarter_round(work, 3, 7, 11, 15)
        _quarter_round(work, 0, 5, 10, 15)
        _quarter_round(work, 1, 6, 11, 12)
        _quarter_round(work, 2, 7, 8, 13)
        _quarter_round(work, 3, 4, 9, 14)
    return [(w + s) & MASK32 for w, s in zip(work, state)]


class Keystream:
    """The raw keystream of a key and stream id, as 32-bit words from block 0."""

    def __init__(self, key, stream=0):
        self.key = bytes(key)
        self.stream = stream
        self.counter = 0
        self.buffer = []

    def next_word(self):
        if not self.buffer:
            self.buffer = chacha20_block(self.key, self.counter, self.stream)
            self.counter += 1
        return self.buffer.pop(0)

    def below(self, n):
        """A uniform number in 0..n: reject words >= 2^32 - (2^32 mod n), then mod n."""
        if n <= 0:
            raise ValueError("empty range")
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            w = self.next_word()
            if w < limit:
                return w % n

    def shuffle(self, items):
        """Fisher-Yates from the last position down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# ---------------------------------------------------------------- seeds


def seed_from_u64(n):
    return n.to_bytes(8, "little") + bytes(24)


def seed_from_text(text):
    """A seed as a file or a command line writes it: 64 hex digits are the
    seed in full; otherwise a decimal number below 2^64, through seed_from_u64."""
    t = text.strip()
    if len(t) == 64 and all(c in "0123456789abcdefABCDEF" for c in t):
        return bytes.fromhex(t)
    if t.isdigit() and len(t) <= 20 and int(t) < 2**64:
        return seed_from_u64(int(t))
    raise ValueError("%r is not a seed: 64 hex digits, or a number below 2^64" % text)


def derive(seed, domain, index):
    if not 0 <= index < (1 << 56):
        raise ValueError("seed index out of range")
    words = Keystream(seed, (domain << 56) | index)
    return b"".join(words.next_word().to_bytes(4, "little") for _ in range(8))


def deal_seed(match_seed, deal):
    return derive(match_seed, DEAL, deal)


# ---------------------------------------------------------------- cards and decks

RANKS = "23456789TJQKA"
SUITS = "CDHS"
LITTLE_JOKER, BIG_JOKER = 52, 53


def card_text(index):
    if index == LITTLE_JOKER:
        return "LJ"
    if index == BIG_JOKER:
        return "BJ"
    return RANKS[index % 13] + SUITS[index // 13]


DECKS = {
    "standard": list(range(52)),
    "with-one-joker": list(range(52)) + [BIG_JOKER],
    "with-two-jokers": list(range(54)),
    # Every suited card of rank ten or higher, then both jokers (22 cards).
    "reduced-ten": [i for i in range(52) if i % 13 >= RANKS.index("T")]
    + [LITTLE_JOKER, BIG_JOKER],
}


def deck_order(seed, deck):
    order = sorted(deck)
    Keystream(seed).shuffle(order)
    return order


# ---------------------------------------------------------------- golden vectors


def golden_lines():
    """The golden vectors, one per line, in the format the Rust tests print."""
    out = []
    hexs = lambda b: b.hex()
    one = seed_from_u64(1)
    m = derive(one, MATCH, 0)
    out.append("seed from_u64(0) = " + hexs(seed_from_u64(0)))
    out.append("seed from_u64(1) = " + hexs(one))
    out.append("seed from_u64(18446744073709551615) = " + hexs(seed_from_u64(2**64 - 1)))
    for domain, index in [(MATCH, 0), (DEAL, 0), (DEAL, 1), (FALLBACK, 0), (BOT, 3),
                          (MATCH, (1 << 56) - 1), (ROUND, 1)]:
        out.append(
            "seed from_u64(1).derive(%s,%d) = %s"
            % (DOMAIN_NAMES[domain], index, hexs(derive(one, domain, index)))
        )
    out.append("seed from_u64(1).derive(match,0).derive(deal,5) = " + hexs(derive(m, DEAL, 5)))

    ks = Keystream(seed_from_u64(0))
    out.append("words from_u64(0) = " + " ".join("%08x" % ks.next_word() for _ in range(20)))
    ks = Keystream(seed_from_u64(1))
    big = (1 << 31) + 1
    out.append("below from_u64(1) n=%d = %s" % (big, " ".join(str(ks.below(big)) for _ in range(12))))
    out.append("below then n=52 = " + " ".join(str(ks.below(52)) for _ in range(8)))
    out.append("below then n=3 = " + " ".join(str(ks.below(3)) for _ in range(8)))

    for deck, match_seed, deal in [
        ("standard", 0, 0),
        ("standard", 1, 0),
        ("standard", 1, 1),
        ("standard", 2026, 7),
        ("with-one-joker", 1, 0),
        ("with-two-jokers", 1, 0),
        ("with-two-jokers", 5, 3),
        ("reduced-ten", 1, 0),
        ("reduced-ten", 9, 9),
    ]:
        order = deck_order(deal_seed(seed_from_u64(match_seed), deal), DECKS[deck])
        out.append(
            "deck %s match=from_u64(%d) deal=%d = %s"
            % (deck, match_seed, deal, " ".join(card_text(c) for c in order))
        )
    return out


def _self_test():
    # RFC 7539 section 2.3.2 uses the IETF layout (32-bit counter in word 12,
    # 96-bit nonce in words 13-15). The same 16 input words in the original
    # layout are counter = word12 | word13 << 32, stream = word14 | word15 << 32.
    key = bytes(range(32))
    block = chacha20_block(key, 1 | (0x09000000 << 32), 0x4A000000)
    assert block[:4] == [0xE4E7F110, 0x15593BD1, 0x1FDD0F50, 0xC47120A3], "ChaCha20 self-test"
    assert seed_from_text("2026") == seed_from_u64(2026)
    assert seed_from_text(seed_from_u64(7).hex()) == seed_from_u64(7)


if __name__ == "__main__":
    _self_test()
    for line in golden_lines():
        print(line)
