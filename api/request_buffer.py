"""One HTTP/1.1 request, gathered byte by byte until it is whole (issue 23: slow clients).

The worker's main loop (``api.buffered_worker``) reads every connection without blocking and
feeds the bytes here; a request reaches a thread only once :meth:`RequestBuffer.feed` says it is
:data:`WHOLE` (head and body in memory), so a client that trickles or stalls holds a few bytes of
memory and no thread. This module does no I/O.

The head is judged by gunicorn's own parser (``gunicorn.http.message.Request``, run on the bytes
held so far), so what counts as a complete, acceptable head here is exactly what the thread will
parse: a head gunicorn refuses (414, 431, 400, 501) is :data:`REFUSED` at once and handed on for
gunicorn to answer. The body is framed by ``Content-Length`` or ``Transfer-Encoding: chunked``
(RFC 9112 section 6.3); a body declared or sent beyond ``max_body`` is handed on as
:data:`REFUSED` too, for the app's 413, without waiting for the rest (a chunked one as a
well-formed body of the data that came, however its chunks were cut:
:meth:`RequestBuffer.gathered`).
"""

from __future__ import annotations

import re
from typing import Any, Final

from gunicorn.http.body import ChunkedReader, LengthReader
from gunicorn.http.errors import NoMoreData
from gunicorn.http.message import Request
from gunicorn.http.unreader import IterUnreader

__all__ = ["MORE", "WHOLE", "REFUSED", "MAX_CHUNKS", "RequestBuffer", "ChunkScan"]

MORE: Final = "more"
"""The request is not whole yet: keep reading."""
WHOLE: Final = "whole"
"""Head and body are held: serve it, and the connection may be kept alive."""
REFUSED: Final = "refused"
"""gunicorn or the app will refuse it from what is held (a bad or over-long head, a body over
``max_body``): serve it as it is and close the connection after the answer."""

_HEX = re.compile(rb"[0-9A-Fa-f]{1,16}")

MAX_CHUNKS = 16_384
"""The most chunks a chunked body may come in (a 1 MiB body: 64 bytes a chunk on average); more
is refused (400). ``MAX_BODY_BYTES`` bounds a body's data, not its chunks, and each chunk costs
the event loop a few microseconds to scan (:class:`ChunkScan`): a 1 MiB body of one-byte chunks
held the loop, and every connection of its worker, for 3.7 s."""
_FIRST_LIMIT_CHECK = 4096
"""Without a line end, a head is parsed again once it has doubled from here, so a line over
gunicorn's limits is refused although it never ends (the limits are at most a few KiB each)."""


class ChunkScan:
    """Where a ``Transfer-Encoding: chunked`` body ends (RFC 9112 section 7.1), scanned once.

    :meth:`advance` resumes where it stopped, so a body that arrives in pieces is scanned in
    linear time. It is deliberately narrow: what it does not understand, and a body of more than
    :data:`MAX_CHUNKS` chunks, raises ``ValueError`` (the request is then handed to gunicorn's own
    reader with what came so far, and answered 400).
    """

    def __init__(self, start: int) -> None:
        self.pos = start  # offset of the next chunk-size line
        self.chunks = 0  # the chunks passed
        self.decoded = 0  # data bytes of the chunks passed
        self.body = bytearray()  # the data of the chunks passed
        self.last: int | None = None  # offset of the last-chunk line, once seen
        self.end: int | None = None  # offset just past the trailer section, once seen
        self.arriving: slice | None = None  # where the data of a chunk under way is (or will be)

    def advance(self, data: bytes | bytearray) -> int:
        """Scan what ``data`` holds; return the data bytes seen so far (a partial chunk's too).
        ``self.end`` is set once the last chunk and the trailer section are in."""
        while self.end is None:
            eol = data.find(b"\r\n", self.pos)
            if eol < 0:
                if len(data) - self.pos > 1024:
                    raise ValueError("chunk-size line too long")
                return self.decoded
            size_text = bytes(data[self.pos : eol]).split(b";", 1)[0].strip(b" \t")
            if not _HEX.fullmatch(size_text):
                raise ValueError("bad chunk size")
            size = int(size_text, 16)
            if size == 0:
                # last-chunk: then trailer field lines, each ending in CRLF, then CRLF; the
                # first empty line is the end (with no trailers, it is the CRLF at eol).
                end = data.find(b"\r\n\r\n", eol)
                if end < 0:
                    return self.decoded
                self.last = self.pos
                self.end = end + 4
                return self.decoded
            after = eol + 2 + size
            if len(data) < after + 2:
                # its data so far, not the CR after it: a chunk that ends at the limit is not
                # over it while its CRLF is on the way
                self.arriving = slice(eol + 2, after)
                return self.decoded + min(size, len(data) - eol - 2)
            if data[after : after + 2] != b"\r\n":
                raise ValueError("chunk data not followed by CRLF")
            self.arriving = None
            self.chunks += 1
            if self.chunks > MAX_CHUNKS:
                raise ValueError("too many chunks")
            self.decoded += size
            self.body += data[eol + 2 : after]
            self.pos = after + 2
        return self.decoded

    def data_so_far(self, data: bytes | bytearray) -> bytes:
        """The data of the chunks passed, then what ``data`` holds of the chunk under way."""
        if self.arriving is None:
            return bytes(self.body)
        return bytes(self.body + data[self.arriving])


class RequestBuffer:
    """The bytes of one request on one connection, and whether they are the whole request."""

    def __init__(self, cfg: Any, peer: Any, max_body: int, req_number: int = 1) -> None:
        self.cfg = cfg
        self.peer = peer
        self.max_body = max_body
        self.req_number = req_number
        self.data = bytearray()
        self.head_end: int | None = None
        self.length: int | None = None  # Content-Length, or None for a chunked body
        self.expects_continue = False  # the head asks for "100 Continue" (RFC 9110 10.1.1)
        self._chunks: ChunkScan | None = None
        self._next_check = _FIRST_LIMIT_CHECK
        self.verdict: str = MORE
        self.too_large = False  # REFUSED for the body's size: the app answers 413

    @property
    def started(self) -> bool:
        """Whether any byte of the request arrived (a connection that sent nothing is closed
        without an answer at its deadline)."""
        return bool(self.data)

    def feed(self, data: bytes) -> str:
        """Add bytes read from the connection; return :data:`MORE`, :data:`WHOLE` or
        :data:`REFUSED`. Bytes after a whole request (a pipelined next one) stay in
        :attr:`data` for gunicorn's parser to hand back."""
        searched = max(0, len(self.data) - 3)
        self.data += data
        if self.verdict != MORE:
            return self.verdict
        if self.head_end is None:
            if self.data.find(b"\n", searched) < 0 and len(self.data) < self._next_check:
                return MORE  # no new line ended: the head cannot have changed its verdict
            self.verdict = self._read_head()
            if self.head_end is None:
                return self.verdict
        if self.verdict == MORE:
            self.verdict = self._read_body()
        return self.verdict

    def _read_head(self) -> str:
        """Parse the head held so far with gunicorn's parser."""
        unreader = IterUnreader([bytes(self.data)])
        try:
            request = Request(self.cfg, unreader, self.peer, self.req_number)
        except NoMoreData:
            self._next_check = max(self._next_check, len(self.data)) * 2
            return MORE
        except StopIteration:  # nothing but an allowed empty line so far
            return MORE
        except Exception:  # gunicorn refuses this head: it answers the same in the thread
            return REFUSED
        self.head_end = len(self.data) - len(unreader.buf.getvalue())
        self.expects_continue = bool(getattr(request, "_expected_100_continue", False))
        reader = request.body.reader if request.body is not None else None
        if isinstance(reader, ChunkedReader):
            self._chunks = ChunkScan(self.head_end)
        elif isinstance(reader, LengthReader):
            self.length = reader.length
        else:  # no body reader: nothing follows the head
            self.length = 0
        return MORE

    def _read_body(self) -> str:
        assert self.head_end is not None
        if self.length is not None:
            if self.length > self.max_body:
                self.too_large = True  # the app answers 413 from the Content-Length alone
                return REFUSED
            return WHOLE if len(self.data) - self.head_end >= self.length else MORE
        assert self._chunks is not None
        try:
            seen = self._chunks.advance(self.data)
        except ValueError:
            return REFUSED
        self.too_large = seen > self.max_body
        if self.too_large:
            return REFUSED
        return MORE if self._chunks.end is None else WHOLE

    def gathered(self) -> bytes:
        """The bytes to hand on: those held, but the chunks of a chunked body in one chunk.

        The thread's parser, gunicorn's chunked reader, pays a Python loop and a copy of what
        it holds for every chunk: a 1 MiB body sent as one-byte chunks cost it 7 s of a thread,
        once its pieces were small (``api.buffered_worker.gathered_unreader``), and
        ``MAX_BODY_BYTES`` bounds only the data, not the chunks. Scanned here already, a whole
        body is handed on as the one chunk any client could have sent, then its own last chunk,
        trailers and whatever follows. Chunk extensions, which mean nothing to the app, are left
        out.

        A body refused for its size (:attr:`too_large`) is handed on as a whole body too: the
        data that came, whole chunks and the part of a chunk under way, as one chunk, then a last
        chunk. The app reads it one byte past the limit and answers 413 (the connection then
        closes), however the client cut or timed its chunks. Handed on as it came, a chunk cut
        short or missing its CRLF made gunicorn's reader raise before the app had read past the
        limit: 400 "could not be read in full" instead of the contract's 413."""
        chunks = self._chunks
        if chunks is None:
            return bytes(self.data)
        assert self.head_end is not None
        if self.too_large:
            body = chunks.data_so_far(self.data)
            return b"".join(
                (self.data[: self.head_end], b"%x\r\n" % len(body), body, b"\r\n0\r\n\r\n")
            )
        if self.verdict != WHOLE or chunks.last is None or not chunks.decoded:
            return bytes(self.data)
        return b"".join(
            (
                self.data[: self.head_end],
                b"%x\r\n" % chunks.decoded,
                chunks.body,
                b"\r\n",
                self.data[chunks.last :],
            )
        )

    @property
    def waits_for_body(self) -> bool:
        """Whether the head is in and the body is still awaited."""
        return self.head_end is not None and self.verdict == MORE
