"""Finding 5 of #34: a chunked photo upload (no Content-Length) had no overall limit: an unnamed
part of 400 MB was accepted, and 300 MB of small distinct fields took the server from 95 MB to
548 MB in one request. Every multipart reader has a total size, a part count and a field size
limit, and keeps only known fields."""
import random
import select
import socket

from hostile import Sampler, read_answer

MB = 1_000_000


def chunked_upload(server, token, boundary, pieces, most, stall=60):
    """Sends `POST /api/v1/photos` with Transfer-Encoding: chunked, one HTTP chunk per piece of
    `pieces` (an iterator of bytes), until the server answers (or closes the connection), the
    pieces end, `most` bytes were sent, or the server takes no byte for `stall` seconds. A debug
    build on loaded cores parses well under a MB a second, so no overall time limit decides: a
    150 s one once stopped at 97 MB, before the server reached the limit under test.
    Returns (the answer or None, the bytes of body sent before it came)."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    head = (f"POST /api/v1/photos HTTP/1.1\r\nHost: {server.host}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    sent, answered = 0, False
    try:
        sock.sendall(head)
        for piece in pieces:
            if sent >= most:
                break
            view = memoryview(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            while view and not answered:
                readable, writable, _ = select.select([sock], [sock], [], stall)
                answered = bool(readable)
                if writable and not answered:
                    view = view[sock.send(view):]
                elif not readable:
                    break  # the server took nothing for `stall` seconds
            if answered or view:
                break
            sent += len(piece)
        else:
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # closed or reset by the server: its answer may be in our buffer
    # Answered: read it. Stopped: the server may still be reading what the socket buffers held.
    answer = read_answer(sock, 30 if answered else 10)
    sock.close()
    return answer, sent


def test_finding_05_chunked_unnamed_part_is_cut_off_at_the_upload_limit(server):
    owner = server.account("big")
    boundary = "hostile-boundary-5a"
    block = random.Random(5).randbytes(MB)

    def pieces():
        yield f"--{boundary}\r\nContent-Disposition: form-data\r\nContent-Type: application/octet-stream\r\n\r\n".encode()
        for _ in range(400):
            yield block
        yield f"\r\n--{boundary}--\r\n".encode()

    before = server.rss_mb()
    with Sampler(server) as memory:
        answer, sent = chunked_upload(server, owner.token, boundary, pieces(), most=150 * MB)
    assert answer is not None, f"no answer to a chunked upload of an unnamed 400 MB part after {sent / MB:.0f} MB"
    assert answer.status == 413 and answer.error == "payload_too_large", f"{answer} after {sent / MB:.0f} MB"
    assert sent <= 150 * MB, f"refused only after {sent / MB:.0f} MB were sent (the limit is a photo's 100 MB and its framing)"
    grown = memory.peak - before
    print(f"answered after {sent / MB:.1f} MB; memory {before:.0f} MB before, {memory.peak:.0f} MB at most")
    assert grown < 100, f"the server's memory grew by {grown:.0f} MB for one upload"


def test_finding_05_chunked_flood_of_fields_is_refused_early(server):
    owner = server.account("fields")
    boundary = "hostile-boundary-5b"
    value = "x" * 120

    def pieces():
        n, total = 0, 0
        while total < 300 * MB:
            parts = []
            for _ in range(4000):
                n += 1
                parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="f{n:07d}"\r\n\r\n{value}\r\n')
            piece = "".join(parts).encode()
            total += len(piece)
            yield piece
        yield f"--{boundary}--\r\n".encode()

    before = server.rss_mb()
    with Sampler(server) as memory:
        answer, sent = chunked_upload(server, owner.token, boundary, pieces(), most=30 * MB)
    assert answer is not None, f"no answer to 300 MB of form fields after {sent / MB:.0f} MB"
    assert answer.status == 400 and answer.error == "invalid_multipart", f"{answer} after {sent / MB:.0f} MB"
    assert sent <= 30 * MB, f"refused only after {sent / MB:.0f} MB of fields were sent"
    grown = memory.peak - before
    print(f"answered after {sent / MB:.1f} MB; memory {before:.0f} MB before, {memory.peak:.0f} MB at most")
    assert grown < 100, f"the server's memory grew by {grown:.0f} MB for one request's fields"
