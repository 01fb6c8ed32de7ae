"""The shared SplitMix64 generator: reference outputs, fixed streams, and fairness.

Every game's chance comes from ``rules.rng.Rng``; a state must replay identically on every
supported Python version, so these tests pin concrete numbers. The reference vectors are the
published SplitMix64 outputs (Rosetta Code "Pseudo-random numbers/Splitmix64"; Vigna's
``splitmix64.c``); ``below``/``shuffle`` are checked against a small independent re-statement of
their documented algorithm (rejection sampling, Fisher–Yates from the end) and pinned.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules.rng import MAX_SEED, Rng

MASK = (1 << 64) - 1


def reference_stream(state: int):
    """SplitMix64 exactly as published (Steele, Lea, Flood 2014), independent of rules.rng."""
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def reference_below(stream, n: int) -> int:
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        x = next(stream)
        if x < limit:
            return x % n


def reference_shuffle(stream, seq: list) -> list:
    seq = list(seq)
    for i in range(len(seq) - 1, 0, -1):
        j = reference_below(stream, i + 1)
        seq[i], seq[j] = seq[j], seq[i]
    return seq


def test_published_reference_vector_seed_1234567():
    rng = Rng(1234567)
    assert [rng.next_u64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_published_reference_vector_seed_0():
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


def test_from_seed_scrambles_once():
    # from_seed(s) starts from the first SplitMix64 output of s, so seed 0 starts at the
    # published first output for 0.
    assert str(Rng.from_seed(0)) == "e220a8397b1dcdaf"
    assert str(Rng.from_seed(1234567)) == f"{6457827717110365317:016x}"


def test_str_and_parse_round_trip():
    rng = Rng.from_seed(42)
    rng.next_u64()
    text = str(rng)
    assert len(text) == 16
    again = Rng.parse(text)
    assert [again.next_u64() for _ in range(3)] == [rng.next_u64() for _ in range(3)]


@pytest.mark.parametrize(
    "text", ["", "0123", "0123456789ABCDEF", "0123456789abcdeg", "0123456789abcdef0"]
)
def test_parse_rejects_anything_but_16_lowercase_hex_digits(text):
    with pytest.raises(ValueError):
        Rng.parse(text)


def test_seeds_wrap_to_64_bits():
    assert str(Rng(-1)) == "ffffffffffffffff"
    assert str(Rng.from_seed(MAX_SEED)) == str(Rng.from_seed(MAX_SEED + (1 << 64)))


@pytest.mark.parametrize("seed", [0, 1, 42, 99, 2**40 + 7, MAX_SEED])
def test_below_and_shuffle_follow_the_documented_algorithm(seed):
    rng = Rng.from_seed(seed)
    stream = reference_stream(int(str(rng), 16))
    assert [rng.below(n) for n in (1, 2, 3, 10, 54, 1000)] == [
        reference_below(stream, n) for n in (1, 2, 3, 10, 54, 1000)
    ]
    items = list(range(54))
    rng.shuffle(items)
    assert items == reference_shuffle(stream, list(range(54)))
    assert rng.next_u64() == next(stream)


def test_pinned_streams():
    """Fixed values: a change here means saved games no longer replay."""
    rng = Rng.from_seed(42)
    assert str(rng) == "bdd732262feb6e95"
    assert [rng.below(10) for _ in range(10)] == [8, 7, 2, 6, 1, 3, 2, 6, 9, 6]
    assert str(rng) == "ec01f36528d44767"
    rng = Rng.from_seed(7)
    items = list(range(10))
    rng.shuffle(items)
    assert items == [7, 6, 9, 2, 8, 4, 0, 3, 5, 1]
    assert str(rng) == "f3bf2969d2d06a94"
    rng = Rng.from_seed(MAX_SEED)
    assert rng.choice("abcdef") == "a"
    assert str(rng) == "c89f510ead4e1abc"


def test_below_rejects_non_positive_bounds():
    with pytest.raises(ValueError):
        Rng.from_seed(1).below(0)


def test_shuffle_is_roughly_uniform():
    rng = Rng.from_seed(2024)
    counts: Counter[tuple[int, ...]] = Counter()
    runs = 60_000
    for _ in range(runs):
        items = [0, 1, 2]
        rng.shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 6
    expected = runs / 6
    for perm, n in counts.items():
        assert abs(n - expected) < 0.05 * expected, (perm, n)


def test_below_is_roughly_uniform_and_in_range():
    rng = Rng.from_seed(7)
    counts = Counter(rng.below(7) for _ in range(70_000))
    assert set(counts) == set(range(7))
    for value, n in counts.items():
        assert abs(n - 10_000) < 500, (value, n)


def test_distinct_seeds_give_distinct_streams():
    firsts = {Rng.from_seed(s).next_u64() for s in range(1000)}
    assert len(firsts) == 1000


def test_shuffle_is_fisher_yates_with_below():
    """``shuffle`` writes out ``below``'s steps (issue 28): the same permutation and the same
    generator state after, for every length and many seeds."""
    for seed in range(200):
        for length in (0, 1, 2, 3, 7, 54, 300):
            assert_shuffles_as_below(Rng.from_seed(seed), Rng.from_seed(seed), length)


def assert_shuffles_as_below(rng: Rng, reference: Rng, length: int) -> list[int]:
    """``rng.shuffle`` of ``range(length)`` is Fisher–Yates with ``reference.below``, one draw at
    a time: the same permutation (returned) and the same generator state after."""
    items, expected = list(range(length)), list(range(length))
    rng.shuffle(items)
    for i in range(length - 1, 0, -1):
        j = reference.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert str(rng) == str(reference)
    return items


def state_before(output: int) -> int:
    """The generator state whose next output is ``output``: SplitMix64's mixing undone step by
    step (each xor-shift and each odd multiplier is invertible modulo 2**64)."""
    z = output ^ (output >> 31) ^ (output >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = z ^ (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    z = z ^ (z >> 30) ^ (z >> 60)
    return (z - 0x9E3779B97F4A7C15) & MASK


@pytest.mark.parametrize(("length", "rejected"), [(54, 0), (54, 1), (54, 20), (54, 49), (300, 130)])
def test_shuffle_redraws_a_draw_below_rejects(length, rejected):
    """A draw at the very top of the range (``2**64 - 1``) is rejected and drawn again, as
    ``below`` does, wherever it falls in the shuffle (past the first ``_LANES`` draws too): the
    draws made at once hand over to ``below`` one at a time. (The draw for index ``i`` is
    bounded by ``i + 1``, here never a power of two, whose limit would be ``2**64`` itself.)"""
    golden = 0x9E3779B97F4A7C15
    state = (state_before(MASK) - rejected * golden) & MASK
    stream = reference_stream(state)
    assert [next(stream) for _ in range(rejected + 1)][-1] == MASK
    bound = length - rejected
    assert MASK >= (1 << 64) - (1 << 64) % bound  # above the limit: rejected
    items = assert_shuffles_as_below(Rng(state), Rng(state), length)
    assert items == reference_shuffle(reference_stream(state), list(range(length)))
