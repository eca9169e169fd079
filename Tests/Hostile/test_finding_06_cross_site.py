"""Finding 6 of #34: the cross-site write check was skipped when any `Authorization` or
`X-API-Sig` header was present, even an invalid one, and an invalid bearer token then fell back
to the cookie. The check is skipped only when a header actually authenticated the request, and
a request with an `Authorization` header never falls back to the cookie."""
EVIL = "https://evil.example"


def keys_named(server, account, name):
    answer = server.get("/api/v1/keys", token=account.token)
    assert answer.status == 200, answer
    return [item for item in answer.json()["items"] if item["name"] == name]


def test_finding_06_bogus_authorization_does_not_skip_the_cross_site_check(module_server):
    server = module_server
    person = server.account("browser")
    assert person.cookie, "the sign-in answer sets the waymark_session cookie"
    answer = server.post("/api/v1/keys", json_body={"name": "evil-a"}, cookie=person.cookie,
                         headers={"Origin": EVIL, "Authorization": "Bearer wmt_bogus"})
    assert answer.status == 403 and answer.error == "cross_site_request", f"another site's page, the cookie and a bogus bearer token: {answer}"
    assert keys_named(server, person, "evil-a") == []


def test_finding_06_bogus_signature_does_not_skip_the_cross_site_check(module_server):
    server = module_server
    person = server.account("browser")
    answer = server.post("/api/v1/keys", json_body={"name": "evil-b"}, cookie=person.cookie,
                         headers={"Origin": EVIL, "X-API-Sig": "bogus"})
    assert answer.status == 403 and answer.error == "cross_site_request", f"another site's page, the cookie and a bogus X-API-Sig: {answer}"
    assert keys_named(server, person, "evil-b") == []


def test_finding_06_bogus_authorization_does_not_fall_back_to_the_cookie(module_server):
    server = module_server
    person = server.account("browser")
    answer = server.post("/api/v1/keys", json_body={"name": "same-site"}, cookie=person.cookie,
                         headers={"Origin": server.url, "Authorization": "Bearer wmt_bogus"})
    assert answer.status == 401, f"a bogus bearer token with a valid cookie, same origin: {answer}"
    assert keys_named(server, person, "same-site") == []


def test_finding_06_valid_bearer_token_works_cross_site(module_server):
    server = module_server
    person = server.account("app")
    answer = server.post("/api/v1/keys", json_body={"name": "from-an-app"}, token=person.token, headers={"Origin": EVIL})
    assert answer.status == 201, f"a valid bearer token from another origin (an app, not a browser's cookie): {answer}"
    assert len(keys_named(server, person, "from-an-app")) == 1
