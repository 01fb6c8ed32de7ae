"""``api.request_buffer``: when the bytes held so far are a whole request (issue 23)."""

from __future__ import annotations

import pytest
from gunicorn import http
from gunicorn.config import Config
from gunicorn.http.unreader import IterUnreader

from api.request_buffer import MAX_CHUNKS, MORE, REFUSED, WHOLE, ChunkScan, RequestBuffer

PEER = ("127.0.0.1", 5000)
HEAD = b"POST /v1/games/reign-and-ruin/apply HTTP/1.1\r\nHost: x\r\n"


def _cfg() -> Config:
    cfg = Config()
    cfg.set("limit_request_line", 4094)
    cfg.set("limit_request_fields", 100)
    cfg.set("limit_request_field_size", 8190)
    return cfg


def _buffer(max_body: int = 1000) -> RequestBuffer:
    return RequestBuffer(_cfg(), PEER, max_body)


def _feed(parts: list[bytes], max_body: int = 1000) -> list[str]:
    buffer = _buffer(max_body)
    return [buffer.feed(part) for part in parts]


def test_a_head_is_whole_at_its_empty_line_and_not_before():
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    assert _feed([request[:10], request[10:-2], request[-2:]]) == [MORE, MORE, WHOLE]


def test_a_request_fed_byte_by_byte_is_whole_at_its_last_byte():
    request = HEAD + b"Content-Length: 5\r\n\r\nhello"
    verdicts = _feed([request[i : i + 1] for i in range(len(request))])
    assert verdicts[:-1] == [MORE] * (len(request) - 1) and verdicts[-1] == WHOLE


def test_a_body_of_known_length_is_awaited_whole():
    buffer = _buffer()
    assert buffer.feed(HEAD + b"Content-Length: 10\r\n\r\n0123") == MORE
    assert buffer.waits_for_body and buffer.started
    assert buffer.feed(b"456789") == WHOLE
    assert not buffer.waits_for_body


def test_bytes_after_a_whole_request_are_kept_for_the_next_one():
    first = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    buffer = _buffer()
    assert buffer.feed(first + b"GET /readyz") == WHOLE
    assert bytes(buffer.data) == first + b"GET /readyz" and buffer.head_end == len(first)


def test_a_body_declared_over_the_limit_goes_on_at_once_for_the_413():
    assert _feed([HEAD + b"Content-Length: 1001\r\n\r\n"], max_body=1000) == [REFUSED]
    assert _feed([HEAD + b"Content-Length: 1000\r\n\r\n"], max_body=1000) == [MORE]


@pytest.mark.parametrize(
    "head",
    [
        b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\n\r\n",  # 414
        b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"b" * 9000 + b"\r\n\r\n",  # 431
        b"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",  # 400
        b"GET / HTTP/1.1\r\nTransfer-Encoding: gzip2\r\n\r\n",  # 501
        b"BAD\x01LINE\r\n\r\n",  # 400
    ],
)
def test_a_head_gunicorn_refuses_goes_on_at_once(head):
    assert _feed([head]) == [REFUSED]


def test_a_request_line_that_never_ends_is_refused_once_over_the_limit():
    buffer = _buffer()
    verdicts = [buffer.feed(b"GET /" + b"a" * 1000)] + [buffer.feed(b"a" * 1000) for _ in range(9)]
    assert verdicts[0] == MORE and verdicts[-1] == REFUSED


def test_expect_100_continue_is_noticed():
    buffer = _buffer()
    buffer.feed(HEAD + b"Expect: 100-continue\r\nContent-Length: 4\r\n\r\n")
    assert buffer.expects_continue and buffer.waits_for_body
    plain = _buffer()
    plain.feed(HEAD + b"Content-Length: 4\r\n\r\n")
    assert not plain.expects_continue


CHUNKED = HEAD + b"Transfer-Encoding: chunked\r\n\r\n"


def test_a_chunked_body_is_whole_after_its_last_chunk_and_trailers():
    body = b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n"
    parts = [CHUNKED] + [body[i : i + 3] for i in range(0, len(body), 3)]
    verdicts = _feed(parts)
    assert verdicts[-1] == WHOLE and set(verdicts[:-1]) == {MORE}
    with_trailer = _feed([CHUNKED + b"3\r\nabc\r\n0\r\nX-Sum: 1\r\n", b"\r\n"])
    assert with_trailer == [MORE, WHOLE]


@pytest.mark.parametrize("body", [b"zz\r\nabc\r\n", b"3\r\nabcdef\r\n0\r\n\r\n", b"1" * 2000])
def test_a_broken_chunked_body_goes_on_for_gunicorn_to_refuse(body):
    assert _feed([CHUNKED, body]) == [MORE, REFUSED]


def test_a_chunked_body_over_the_limit_goes_on_for_the_413():
    assert _feed([CHUNKED, b"400\r\n" + b"x" * 1001], max_body=1000) == [MORE, REFUSED]
    assert _feed([CHUNKED, b"400\r\n" + b"x" * 1000], max_body=1000) == [MORE, MORE]


def test_chunk_scan_resumes_where_it_stopped():
    data = bytearray(b"3\r\nab")
    scan = ChunkScan(0)
    assert scan.advance(data) == 2 and scan.end is None
    data += b"c\r\n"
    assert scan.advance(data) == 3 and scan.pos == len(data)
    data += b"0\r\n\r\nNEXT"
    scan.advance(data)
    assert scan.end == len(data) - 4


def _parsed(data: bytes) -> tuple[bytes, list]:
    """What gunicorn's parser, in the thread, reads from ``data``: the body and the trailers."""
    parser = http.get_parser(_cfg(), iter(()), PEER)
    parser.unreader = IterUnreader([data])
    request = next(parser)
    return request.body.read(), request.trailers


def test_a_whole_chunked_body_goes_on_as_one_chunk():
    """gunicorn's chunked reader pays a loop and a copy per chunk (a 1 MiB body of one-byte
    chunks: 7 s of a thread): the scanned chunks go on as the one chunk any client could send,
    with the body's own last chunk, trailers and any pipelined request after them."""
    body = bytes(range(256)) * 4
    chunks = b"".join(b"1;x=y\r\n" + body[i : i + 1] + b"\r\n" for i in range(len(body)))
    buffer = _buffer(max_body=2000)
    assert buffer.feed(CHUNKED + chunks + b"0\r\nX-Sum: 7\r\n\r\nNEXT") == WHOLE
    gathered = buffer.gathered()
    assert gathered == CHUNKED + b"400\r\n" + body + b"\r\n0\r\nX-Sum: 7\r\n\r\nNEXT"
    assert _parsed(gathered) == (body, [("X-SUM", "7")])


def test_a_chunked_body_over_the_limit_goes_on_as_one_chunk_for_the_413():
    buffer = _buffer(max_body=100)
    assert buffer.feed(CHUNKED + b"1\r\nx\r\n" * 101) == REFUSED
    assert buffer.too_large
    assert buffer.gathered() == CHUNKED + b"65\r\n" + b"x" * 101 + b"\r\n0\r\n\r\n"


DATA = bytes(range(256)) * 12
"""A body's data, 3072 bytes, over the limit of 1000 of the tests below."""


@pytest.mark.parametrize(
    "parts",
    [
        # one chunk of the limit + 1, whole, then the last chunk
        [CHUNKED + b"3e9\r\n" + DATA[:1001] + b"\r\n0\r\n\r\n"],
        # the same chunk, its CRLF not yet come
        [CHUNKED + b"3e9\r\n" + DATA[:1001]],
        # one chunk of 3000, arriving 200 bytes at a time (refused a few bytes past the limit)
        [CHUNKED + b"bb8\r\n"] + [DATA[i : i + 200] for i in range(0, 3000, 200)],
        # chunks of 100, the eleventh arriving 10 bytes at a time
        [CHUNKED + b"".join(b"64\r\n" + DATA[i : i + 100] + b"\r\n" for i in range(0, 1000, 100))]
        + [b"64;ext=1\r\n"]
        + [DATA[i : i + 10] for i in range(1000, 1100, 10)],
        # one byte at a time
        [bytes([byte]) for byte in CHUNKED + b"bb8\r\n" + DATA[:3000]],
    ],
    ids=["whole", "no-crlf", "pieces-of-200", "eleventh-in-pieces", "byte-by-byte"],
)
def test_a_chunked_body_refused_for_its_size_goes_on_well_formed_however_it_was_cut(parts):
    """Handed on as it came, a chunk cut short or missing its CRLF made gunicorn's reader raise
    before the app had read past the limit, and the app answered 400, not 413. Now the data
    that came goes on as one chunk and a last chunk: gunicorn's reader gives all of it, over
    the limit, whatever the cut."""
    buffer = _buffer(max_body=1000)
    for part in parts:  # as the worker feeds it: until the verdict
        if buffer.feed(part) != MORE:
            break
    assert buffer.verdict == REFUSED and buffer.too_large
    body, _ = _parsed(buffer.gathered())
    assert len(body) > 1000 and DATA.startswith(body)


def test_a_chunk_that_ends_at_the_limit_is_not_over_it_while_its_crlf_is_on_the_way():
    """Its CR once counted as data: a body of exactly ``max_body`` bytes was refused when its
    last chunk's CR and LF came in two reads."""
    parts = [CHUNKED, b"3e8\r\n" + b"x" * 1000 + b"\r", b"\n0\r\n\r\n"]
    assert _feed(parts, max_body=1000) == [MORE, MORE, WHOLE]


@pytest.mark.parametrize(
    "request_bytes",
    [HEAD + b"Content-Length: 3\r\n\r\nabc", CHUNKED + b"0\r\n\r\n", CHUNKED + b"zz\r\nabc\r\n"],
)
def test_other_requests_go_on_as_they_came(request_bytes):
    buffer = _buffer()
    buffer.feed(request_bytes)
    assert buffer.gathered() == request_bytes


def test_a_chunked_body_of_too_many_chunks_goes_on_for_the_400():
    """Each chunk costs the event loop a scan: the chunks of a body are bounded as its bytes are
    (a 1 MiB body of one-byte chunks held a worker's loop for 3.7 s)."""
    assert _feed([CHUNKED, b"1\r\nx\r\n" * MAX_CHUNKS], max_body=10**6) == [MORE, MORE]
    assert _feed([CHUNKED, b"1\r\nx\r\n" * (MAX_CHUNKS + 1)], max_body=10**6) == [MORE, REFUSED]
