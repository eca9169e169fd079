"""Finding 4 of #34 (anonymous): 40 connections each sending 16 MiB − 1 to /api/v1/qr/decode and
never finishing took the server from 157 MB to 813 MB (the body was read before the in-flight
check, with no read timeout); a 315 KB PNG that decodes to 9,990 × 9,990 cost 2.3 s, and six
loops of it made ordinary photo uploads take 11–14 s. Anonymous work is bounded before it is read."""
import threading
import time

from hostile import NoAnswer, Sampler, connect, jpeg, read_answer

DECLARED = 16 * 1024 * 1024 - 1


def qr_head(server, length=DECLARED):
    return (f"POST /api/v1/qr/decode HTTP/1.1\r\nHost: {server.host}\r\nContent-Type: image/png\r\n"
            f"Content-Length: {length}\r\n\r\n").encode()


def test_finding_04_stalled_qr_uploads_cost_no_memory_and_more_are_refused_at_once(server):
    server.get("/healthz")
    before = server.rss_mb()
    sockets = []
    try:
        with Sampler(server) as memory:
            # 40 anonymous clients declare 16 MiB − 1, send a few KB, and stall.
            for _ in range(40):
                sock = connect(server)
                sock.sendall(qr_head(server) + b"\x89PNG\r\n\x1a\n" + bytes(4096))
                sockets.append(sock)
            # One more: refused at once, without its body being sent (its first 8 bytes only: the
            # server hands a request with a body to its route when the body's first bytes come).
            started = time.monotonic()
            extra = connect(server)
            extra.sendall(qr_head(server) + b"\x89PNG\r\n\x1a\n")
            answer = read_answer(extra, 1.0)
            elapsed = time.monotonic() - started
            extra.close()
            assert answer is not None, "a 41st QR decode while 4 are in flight gets no answer within 1 s (8 bytes of its 16 MiB sent)"
            assert answer.status == 503 and answer.error == "busy", f"the 41st: {answer}"
            assert elapsed <= 1.0, f"the 41st answered in {elapsed:.2f} s"
            # The stalled ones beyond the four in flight were refused too.
            refused = 0
            for sock in sockets:
                early = read_answer(sock, 0.2)
                if early is not None and early.status == 503 and early.error == "busy":
                    refused += 1
            assert refused >= 36, f"{refused} of the 40 stalled decodes were answered 503 busy (all but the 4 in flight)"

            # Then the clients go on sending as much of their 16 MiB − 1 as the server takes, never the last byte.
            deadline = time.monotonic() + 15

            def push(sock):
                left, block = DECLARED - 8 - 4096 - 1, bytes(256 * 1024)
                sock.settimeout(2)
                try:
                    while left > 0 and time.monotonic() < deadline:
                        part = block[:min(left, len(block))]
                        sock.sendall(part)
                        left -= len(part)
                except OSError:
                    pass  # refused, closed or no longer read: the server keeps none of it

            threads = [threading.Thread(target=push, args=(sock,), daemon=True) for sock in sockets]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=max(0.1, deadline - time.monotonic() + 3))
        grown = memory.peak - before
        print(f"memory: {before:.0f} MB before, {memory.peak:.0f} MB at most; the 41st answered in {elapsed:.3f} s; {refused} of 40 refused")
        assert grown < 100, f"the server's memory grew by {grown:.0f} MB (from {before:.0f} MB) for 40 stalled QR uploads"
    finally:
        for sock in sockets:
            sock.close()


def test_finding_04_qr_image_over_the_pixel_budget_is_refused_from_its_header(server, huge_png):
    try:
        answer = server.post("/api/v1/qr/decode", body=huge_png, headers={"Content-Type": "image/png"}, timeout=10)
    except NoAnswer as error:
        raise AssertionError(f"a {len(huge_png) // 1000} KB PNG of 9,990 × 9,990 pixels: {error}") from None
    assert answer.status == 413 and answer.error == "too_many_pixels", f"a PNG that declares 9,990 × 9,990 pixels: {answer}"
    assert answer.elapsed <= 1.0, f"refused in {answer.elapsed:.2f} s (from its header, without decoding)"


def test_finding_04_qr_decoding_does_not_slow_photo_uploads(server, huge_png):
    owner = server.account("uploader")
    stop, sent = threading.Event(), [0] * 6

    def loop(n):
        while not stop.is_set():
            try:
                server.post("/api/v1/qr/decode", body=huge_png, headers={"Content-Type": "image/png"}, timeout=30)
            except (NoAnswer, OSError):
                pass
            sent[n] += 1

    threads = [threading.Thread(target=loop, args=(n,), daemon=True) for n in range(6)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 15
        while min(sent) < 1 and time.monotonic() < deadline:
            stop.wait(0.01)  # until each loop has had an answer to its first image
        started = time.monotonic()
        photo = server.upload(owner, image=jpeg("Nikon"), title="an ordinary photo")
        elapsed = time.monotonic() - started
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    print(f"the upload took {elapsed:.2f} s while the six loops sent {sum(sent)} images")
    assert photo["title"] == "an ordinary photo"
    # The finding: 11–14 s. Half of that bound leaves room for a debug build on two loaded cores.
    assert elapsed <= 6.0, f"a photo upload took {elapsed:.1f} s while six clients looped on QR decoding"
